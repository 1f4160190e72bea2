# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# destroy-busy: a guest destroyed in the middle of traffic both ways
# leaves no netdev, backend node or extra thread; the other guest carries
# on and the module unloads.
. /lab/xnb.sh
lab_guest_create 1
lab_guest_create 2
lab_guest_wait 1
lab_guest_wait 2
threads=$(ps -e -o comm= | wc -l)
d1=$(lab_domid 1)
ip=$(lab_guest_ip 1)
iperf3 -c "$ip" --bidir -t 20 >/dev/null 2>&1 &
sleep 4
lab_guest_destroy 1
lab_assert "vif of g1 gone" lab_wait 30 test ! -e /sys/class/net/vif$d1.0
lab_assert "backend node of g1 gone" lab_wait 30 sh -c "! xenstore-ls /local/domain/0/backend/vif/$d1 2>/dev/null | grep -q ."
kill %1 2>/dev/null; wait
xnb_traffic 2 >/dev/null
now=$(ps -e -o comm= | wc -l)
lab_log "threads before $threads, after $now"
lab_assert "no thread left behind ($threads -> $now)" test "$now" -le "$threads"
lab_destroy_all
lab_unload_backend
lab_assert "module gone" test ! -d /sys/module/xen_netback
