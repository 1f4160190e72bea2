# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# basic: two guests boot, answer ping, and pass TCP both ways.
lab_guest_create 1
lab_guest_create 2
lab_guest_wait 1
lab_guest_wait 2
for n in 1 2; do
	ip=$(lab_guest_ip $n)
	lab_assert "ping g$n" lab_ping "$ip"
	tx=$(lab_iperf "$ip" -R 3)   # guest -> dom0
	rx=$(lab_iperf "$ip" 3)      # dom0 -> guest
	lab_log "g$n guest->dom0 $tx Gbit/s, dom0->guest $rx Gbit/s"
	echo "XNB-METRIC basic g$n guest_to_dom0_gbps=$tx dom0_to_guest_gbps=$rx"
	lab_assert_gt "$tx" 0 "guest->dom0 throughput"
	lab_assert_gt "$rx" 0 "dom0->guest throughput"
done
# Guest to guest goes through two vifs and the bridge.
out=$(lab_guest_exec 1 "ping -c 3 -W 2 $(lab_guest_ip 2)") || { echo "$out"; lab_fail "g1 cannot ping g2"; }
