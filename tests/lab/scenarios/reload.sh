# reload: rmmod with a connected vif tears it down (documented behaviour),
# insmod brings the backend back for new guests; rmmod/insmod with no vif.
. /lab/xnb.sh
xnb_ours_only
lab_guest_start 1
lab_unload_backend
lab_assert "module gone" test ! -d /sys/module/xen_netback
lab_assert "vif netdev gone with the module" lab_no_vifs
lab_load_backend
lab_destroy_all
lab_guest_start 2
xnb_traffic 2 >/dev/null
lab_destroy_all
lab_unload_backend
lab_load_backend
lab_unload_backend
lab_load_backend
