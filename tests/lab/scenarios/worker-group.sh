# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# worker-group: writing the key on the vif's backend node moves its queues
# to that group live (traffic keeps flowing); an invalid value is ignored
# with a log line.  A group other than 0 has no batch (and with
# worker=kthread no thread) until its first queue comes, and gives the
# batch back when its last queue goes; group 0 keeps its own.  Then the
# admin's view: ethtool -i and -S give stock's names, and the runtime
# parameters (budget, copy_batch live; max_queues and separate_tx_rx_irq
# for the next connection) take effect, bad values refused.
. /lab/xnb.sh
xnb_ours_only
lab_load_backend "groups=2 $XNB_PARAMS"
lab_guest_start 1
vif=$(lab_vif_name 1)
be=$(lab_backend_path 1)
from=$(xnb_group_of $vif-q0) || lab_fail "$vif-q0 in no group"
to=$((1 - from))
kthread=0
[ "$(cat /sys/module/xen_netback/parameters/worker)" = kthread ] && kthread=1
cb=$(cat /sys/module/xen_netback/parameters/copy_batch)
# batch_is GROUP N: GROUP's batch holds N ops (0: none).
batch_is() { [ "$(xnb_group_batch "$1")" = "$2" ]; }
xnb_groups_file | grep '^group '
# Made ready with its first queue (docs/design.md, "Memory").
lab_assert "group 0 has its batch" test "$(xnb_group_batch 0)" = "$cb"
if [ "$to" != 0 ]; then
	lab_assert "group $to, serving nothing yet, has no batch" \
		test "$(xnb_group_batch $to)" = 0
	[ $kthread = 0 ] ||
		lab_assert "one group thread, group 0's" test "$(xnb_threads)" = 1
fi
iperf3 -c "$(lab_guest_ip 1)" -t 8 >/run/wg-iperf.log 2>&1 &
sleep 2
xenstore-write "$be/worker-group" $to
lab_assert "$vif-q0 moved to group $to" lab_wait 10 xnb_in_group $vif-q0 $to
lab_assert "group $to got its batch with its queue" \
	test "$(xnb_group_batch $to)" = "$cb"
if [ "$from" != 0 ]; then
	lab_assert "group $from gave its batch back" \
		test "$(xnb_group_batch $from)" = 0
fi
[ $kthread = 0 ] || lab_assert "a thread per group now" test "$(xnb_threads)" = 2
wait
cat /run/wg-iperf.log | tail -3
grep -q receiver /run/wg-iperf.log || lab_fail "iperf across the move failed"
xnb_groups_file
xnb_traffic 1 >/dev/null
xenstore-write "$be/worker-group" 7
lab_assert "invalid value logged" lab_wait 10 sh -c "dmesg | grep -q 'ignoring invalid worker-group'"
lab_assert "$vif-q0 stays in group $to" xnb_in_group $vif-q0 $to
xnb_traffic 1 >/dev/null

# What the stock driver's vifs report: no get_drvinfo, the xenbus driver.
info=$(ethtool -i "$vif")
echo "$info" | head -3
lab_assert "ethtool -i driver: vif" grep -qx 'driver: vif' <<<"$info"
lab_assert "ethtool -i bus-info" \
	grep -qx "bus-info: vif-$(lab_domid 1)-0" <<<"$info"
for c in rx_gso_checksum_fixup tx_zerocopy_sent tx_zerocopy_success \
	 tx_zerocopy_fail tx_frag_overflow tx_packets copy_ops queues; do
	lab_assert "ethtool -S $c" xnb_ethtool "$vif" "$c" >/dev/null
done

P=/sys/module/xen_netback/parameters
for p in budget copy_batch max_queues separate_tx_rx_irq hash_cache_size \
	 provides_xdp_headroom; do
	lab_assert "$p is 0644" test "$(stat -c %a $P/$p)" = 644
done
# param_set: echo into the file; the write fails for a refused value.
param_set() { echo "$2" >"$P/$1" 2>/dev/null; }
lab_assert "budget=16 taken" param_set budget 16
lab_assert "budget reads 16" test "$(cat $P/budget)" = 16
lab_assert "budget=0 refused" sh -c "! echo 0 >$P/budget"
lab_assert "budget=5000 refused" sh -c "! echo 5000 >$P/budget"
lab_assert "budget still 16" test "$(cat $P/budget)" = 16
# copy_batch resizes every group's batch between passes, under traffic.
iperf3 -c "$(lab_guest_ip 1)" -t 6 >/run/wg-iperf2.log 2>&1 &
sleep 1
for b in 1024 128 4096 256; do
	lab_assert "copy_batch=$b taken" param_set copy_batch $b
	sleep 1
done
wait
grep -q receiver /run/wg-iperf2.log || lab_fail "iperf across copy_batch changes failed"
lab_assert "copy_batch=64 refused" sh -c "! echo 64 >$P/copy_batch"
lab_assert "copy_batch reads 256" test "$(cat $P/copy_batch)" = 256
lab_assert "groups file shows copy_batch=256 budget=16" sh -c \
	"cat /sys/kernel/debug/xen-netback/groups | grep -q 'copy_batch=256 budget=16'"
xnb_traffic 1 >/dev/null
# max_queues and separate_tx_rx_irq: what the next vif is offered.
lab_assert "max_queues=1 taken" param_set max_queues 1
lab_assert "separate_tx_rx_irq=0 taken" param_set separate_tx_rx_irq N
lab_net_attach 1 1
be1=$(lab_backend_path 1 1)
lab_assert "new vif offers 1 queue" test "$(xenstore-read "$be1/multi-queue-max-queues")" = 1
lab_assert "new vif offers no split channels" \
	test "$(xenstore-read "$be1/feature-split-event-channels")" = 0
xnb_traffic 1 1 >/dev/null
lab_assert "first vif keeps its offer" \
	test "$(xenstore-read "$be/feature-split-event-channels")" = 1
lab_assert "budget=64 back" param_set budget 64
dmesg | grep 'refused: out of range' | tail -3

lab_destroy_all
lab_assert "group 1, serving nothing again, gave its batch back" \
	lab_wait 10 batch_is 1 0
lab_assert "group 0 kept its batch" test "$(xnb_group_batch 0)" = 256
[ $kthread = 0 ] || lab_assert "the threads stay with the groups" \
	test "$(xnb_threads)" = 2
lab_load_backend
