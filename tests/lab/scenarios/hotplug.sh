# hotplug: hot-attach a second vif to a running guest, pass traffic through
# it, hot-detach it, and check its netdev is gone.
lab_guest_start 1
lab_net_attach 1 1
vif=$(lab_vif_name 1 1)
ip=$(lab_guest_ip 1 1)
before=$(lab_vif_bytes "$vif" rx)
tx=$(lab_iperf "$ip" -R 2)
rx=$(lab_iperf "$ip" 2)
after=$(lab_vif_bytes "$vif" rx)
lab_log "$vif: guest->dom0 $tx Gbit/s, dom0->guest $rx Gbit/s, rx bytes $before -> $after"
lab_assert_gt "$tx" 0 "throughput through the hot-added vif"
lab_assert_gt "$rx" 0 "throughput through the hot-added vif"
# The guest's traffic really went through the new vif, not the first one.
lab_assert_gt $((after - before)) 1000000 "bytes received on $vif"
lab_net_detach 1 1
lab_assert "vif 0 still works" lab_ping "$(lab_guest_ip 1 0)"
# Attach again: the same devid must come back.
lab_net_attach 1 1
lab_net_detach 1 1
