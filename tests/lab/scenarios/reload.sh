# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# reload: rmmod is refused while a vif exists (xenbus holds a module
# reference per bound device) and the vif keeps working; once the guest is
# gone the module unloads, and insmod brings the backend back for new
# guests; rmmod/insmod with no vif.
. /lab/xnb.sh
xnb_ours_only
lab_guest_start 1
lab_assert "rmmod refused with a vif" sh -c '! rmmod xen-netback 2>/dev/null'
lab_assert "module still loaded" lab_backend_loaded
xnb_traffic 1 >/dev/null
lab_destroy_all
lab_unload_backend
lab_assert "module gone" test ! -d /sys/module/xen_netback
lab_load_backend
lab_guest_start 2
xnb_traffic 2 >/dev/null
lab_destroy_all
lab_unload_backend
lab_load_backend
lab_unload_backend
lab_load_backend
