# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# rebalance: live rebalancing by measured load (rebalance_ms).  Four
# guests are pinned to group 0 with the worker-group key; g2-g4 are then
# unpinned, which with the balancer on leaves their queues where they are.
# Under TCP load from g2-g4 the balancer moves queues out of the saturated
# group 0: the counter rises and an unpinned queue ends up in group 1,
# while g1 (still pinned) never moves.  With the load gone nothing moves
# any more (hysteresis), and pings to g1 and g2 lose nothing across the
# moves.  The aggregate rate of g2-g4 all on group 0, after the
# rebalancing and spread by count (after a regroup) is reported
# (XNB-METRIC), not asserted: TCG is too noisy.
. /lab/xnb.sh
xnb_ours_only
lab_load_backend "groups=2 rebalance_ms=500 $XNB_PARAMS"
P=/sys/module/xen_netback/parameters
lab_assert "rebalance_ms is 0644" test "$(stat -c %a $P/rebalance_ms)" = 644
lab_assert "rebalance_ms reads 500" test "$(cat $P/rebalance_ms)" = 500
xnb_groups_file >/dev/null
lab_assert "group 0 has busy_pct" test -r "$XNB_SYSFS/0/busy_pct"
lab_assert "no debugfs balance" test ! -e "$(xnb_debugfs)/balance"

for n in 1 2 3 4; do lab_guest_create $n; done
for n in 1 2 3 4; do lab_guest_wait $n; done
for n in 1 2 3 4; do
	xenstore-write "$(lab_backend_path $n)/worker-group" 0
	lab_assert "$(lab_vif_name $n)-q0 pinned to group 0" \
		lab_wait 10 xnb_in_group "$(lab_vif_name $n)-q0" 0
done

# moves: the global counter on the groups file's first line.
moves() {
	xnb_groups_file | head -1 | sed -n 's/.* rebalance_moves=\([0-9]*\).*/\1/p'
}
# load_all SECONDS TAG: g2-g4 send to dom0 at once (guest TX: the
# heaviest work of a group's poll); prints the sum in Mbit/s.
load_all() {
	local n pids=() sum=0 r
	for n in 2 3 4; do
		timeout $(($1 + 30)) iperf3 -c "$(lab_guest_ip $n)" -R -t "$1" -f m \
			>/run/rb-$2-$n.log 2>&1 &
		pids+=($!)
	done
	wait "${pids[@]}"
	for n in 2 3 4; do
		r=$(lab_iperf_result tcp </run/rb-$2-$n.log) ||
			{ cat /run/rb-$2-$n.log >&2; lab_fail "iperf3 -R from g$n ($2)"; }
		sum=$(awk -v s="$sum" -v r="$r" 'BEGIN { print s + r }')
	done
	echo "$sum"
}
# group_field GROUP NAME: a counter of that group's line in the groups file.
group_field() {
	xnb_groups_file | awk -v g="group $1:" -v k="$2" 'index($0, g) == 1 {
		for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }'
}
unpinned_in_1() {
	local n
	for n in 2 3 4; do
		xnb_in_group "$(lab_vif_name $n)-q0" 1 && return 0
	done
	return 1
}
# busy: every group's busy_pct (the balancer's measure) on one line.
busy() {
	local d
	for d in "$XNB_SYSFS"/*/; do
		printf 'group %s: busy_pct %s ' "$(basename "$d")" "$(cat "$d/busy_pct")"
	done
	echo
}
show() { xnb_groups_file | grep '^[wg]'; busy; }
# hot0: how many samples saw group 0 at the balancer's threshold (40 %).
hot0() {
	grep -o 'group 0: busy_pct [0-9]*' /run/rb-busy.log | awk '$4 >= 40' | wc -l
}
# The background jobs go with the scenario, also when an assertion ends it.
ld='' smp=''
trap 'kill $LAB_PING_PIDS $ld $smp 2>/dev/null' EXIT

lab_ping_start rb "$(lab_guest_ip 1)" "$(lab_guest_ip 2)"

# All pinned: nothing may move, however loaded group 0 is.
m0=$(moves)
all0=$(load_all 4 pinned)
show
lab_assert "pinned queues never move" test "$(moves)" = "$m0"
echo "XNB-METRIC rebalance all_group0_mbit=$all0"

for n in 2 3 4; do xenstore-rm "$(lab_backend_path $n)/worker-group"; done
sleep 1
for n in 1 2 3 4; do
	lab_assert "$(lab_vif_name $n)-q0 stays in group 0 when unpinned" \
		xnb_in_group "$(lab_vif_name $n)-q0" 0
done

# Under load the balancer moves unpinned queues to group 1.
# Each look at the groups file is slow under TCG load: lab_wait's 25 s
# become a minute or two, longer than the load; a move can only come
# while it lasts.
load_all 30 moving >/run/rb-moving.sum &
ld=$!
# What the balancer measures, while the load lasts.
( while :; do busy; sleep 2; done ) >/run/rb-busy.log 2>&1 &
smp=$!
ok=1
lab_wait 25 unpinned_in_1 || ok=0
show
lab_log "moves $m0 -> $(moves)"
if [ $ok = 0 ]; then
	cat /run/rb-busy.log
	# The balancer moves nothing below its threshold: on a host too slow
	# to load group 0 that far, there was nothing to decide.
	[ "$(hot0)" -ge 2 ] ||
		lab_skip "group 0 never reached 40 % busy twice under load: nothing to rebalance"
	lab_fail "no unpinned queue moved to group 1 under load"
fi
lab_assert "rebalance_moves rose" test "$(moves)" -gt "$m0"
lab_assert_gt "$(group_field 1 moves_in)" 0 "group 1 counts moves in"
lab_assert_gt "$(group_field 0 moves_out)" 0 "group 0 counts moves out"
wait $ld || lab_fail "load while moving failed"
kill $smp
cat /run/rb-busy.log
echo "XNB-METRIC rebalance moving_mbit=$(cat /run/rb-moving.sum)"
rebal=$(load_all 4 rebalanced)
show
echo "XNB-METRIC rebalance rebalanced_mbit=$rebal moves=$(moves)"
lab_assert "$(lab_vif_name 1)-q0 (pinned) still in group 0" \
	xnb_in_group "$(lab_vif_name 1)-q0" 0

# Idle: no further move over 8 intervals.
sleep 1.5
m1=$(moves)
sleep 4
show
lab_assert "no move while idle ($m1 -> $(moves))" test "$(moves)" = "$m1"

lab_ping_loss rebalance 5 "across the moves"

# The parameter: 0 (off) and the range; refused values change nothing.
lab_assert "rebalance_ms=50 refused" sh -c "! echo 50 >$P/rebalance_ms 2>/dev/null"
lab_assert "rebalance_ms=70000 refused" sh -c "! echo 70000 >$P/rebalance_ms 2>/dev/null"
lab_assert "rebalance_ms still 500" test "$(cat $P/rebalance_ms)" = 500
lab_assert "rebalance_ms=0 taken" sh -c "echo 0 >$P/rebalance_ms"
lab_assert "groups file shows rebalance_ms=0" \
	grep -q ' rebalance_ms=0 ' <<<"$(xnb_groups_file | head -1)"
# Off: unpinning goes back to the fewest-queues choice, as before.
xenstore-write "$(lab_backend_path 2)/worker-group" 1
lab_assert "g2 pinned to group 1" lab_wait 10 xnb_in_group "$(lab_vif_name 2)-q0" 1
c0=$(group_field 0 queues)
c1=$(group_field 1 queues)
want=0
[ $((c1 - 1)) -lt "$c0" ] && want=1
xenstore-rm "$(lab_backend_path 2)/worker-group"
lab_assert "g2 unpinned, balancer off: to the fewer-queues group $want ($c0/$c1)" \
	lab_wait 10 xnb_in_group "$(lab_vif_name 2)-q0" $want
lab_assert "rebalance_ms=1000 taken" sh -c "echo 1000 >$P/rebalance_ms"
# A runtime regroup with the balancer running: it starts over, no oops.
lab_assert "groups=3" sh -c "echo 3 >$P/groups"
lab_assert "groups=2" sh -c "echo 2 >$P/groups"
lab_assert "g1 back in group 0 after the regroup" \
	xnb_in_group "$(lab_vif_name 1)-q0" 0
# The regroup placed g2-g4 by count around the pin: the spread case.
spread=$(load_all 4 spread)
show
echo "XNB-METRIC rebalance spread_mbit=$spread"
lab_log "g2-g4 TCP sum: all on group 0 $all0, rebalanced $rebal, spread $spread Mbit/s"
for n in 1 2 3 4; do xnb_traffic $n >/dev/null; done

lab_destroy_all
lab_load_backend
