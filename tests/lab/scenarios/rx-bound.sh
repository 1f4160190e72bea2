# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# rx-bound: a group's pass stays bounded however many vifs are busy and
# whatever the budget (XNB_PASS_SLOTS ring slots, both ways, less one,
# plus a packet crossing each way).  32 vifs in one
# group (groups=1): 4 guests with 8 vifs each, every vif receiving TCP
# from dom0 at once (dom0 -> guest: the RX path, which a pass once served
# for every queue before deciding anything), for 8 s at budget=64, then
# at budget=1024.  Each phase asserts:
#  - every vif received: its bytes delivered to the guest rose and its
#    iperf3 receiver got data (passes cut short starve no vif);
#  - the most slots a pass used (groups/0/max_pass_slots) is at most
#    XNB_PASS_MAX_SLOTS, at both budgets: 255 + a dom0->guest packet
#    (20 slots at most) + a guest->dom0 packet (73 at most);
#  - once the traffic stops, no queue waits for a turn and nothing stays
#    queued for a guest; idle, the passes leave the thread.
# And max_pass_us / max_pass_slots take a write of 0 (a reset), refuse
# anything else.  Reported, not asserted (TCG): XNB-METRIC rx-bound with
# the worst pass (max_pass_us), the most slots, passes, hand-offs (those
# for the cap from tracefs), the streams' Mbit/s (min, max, sum).
# Takes about 3 to 4 minutes under TCG: 4 guest boots, 28 vifs
# hot-attached (~2 s each), two phases, the teardown.
. /lab/xnb.sh
xnb_ours_only
# bench-lib.sh's lean vif hotplug script (lab_vif_spec picks it up) and
# its parallel teardown: vif-bridge costs seconds per vif under TCG.
. /lab/bench-lib.sh
bench_vif_script
lab_load_backend "groups=1 $XNB_PARAMS"
P=/sys/module/xen_netback/parameters
G=$XNB_SYSFS/0
GUESTS="1 2 3 4" VIFS=8 T=8
# include/xen/xnb_proto.h: XNB_PASS_SLOTS - 1 + XNB_RX_MAX_SLOTS +
# XNB_TX_MAX_SLOTS.
XNB_PASS_MAX_SLOTS=$((256 - 1 + 20 + 73))

# put FILE VALUE: write VALUE to FILE; fails as the write does.
put() { echo "$2" 2>/dev/null >"$1"; }
for f in max_pass_us max_pass_slots; do
	lab_assert "$f is 0644" test "$(stat -c %a "$G/$f")" = 644
	put "$G/$f" 5 && lab_fail "$f took 5"
	lab_assert "$f takes 0" put "$G/$f" 0
done

# Small guests: 4 of them beside dom0's 2 GiB.
for n in $GUESTS; do LAB_GUEST_MEM=192 lab_guest_create "$n"; done
for n in $GUESTS; do
	lab_guest_wait "$n"
	# An iperf3 server per vif: port 5201 (the guest's own) + K.
	lab_guest_exec "$n" "k=1; while [ \$k -lt $VIFS ]; do iperf3 -s -D -p \$((5201 + k)); k=\$((k + 1)); done" >/dev/null ||
		lab_fail "iperf3 servers in g$n"
done
# One at a time: libxl plugging many at once times out under TCG.
for ((k = 1; k < VIFS; k++)); do
	for n in $GUESTS; do
		# shellcheck disable=SC2046
		xl network-attach "g$n" $(lab_vif_spec "$n" $k | tr , ' ') >/dev/null ||
			lab_fail "network-attach g$n $k"
	done
done
for n in $GUESTS; do
	for ((k = 1; k < VIFS; k++)); do lab_wait_vif "$n" $k 120; done
	for ((k = 0; k < VIFS; k++)); do lab_wait_ping "$(lab_guest_ip "$n" $k)" 60; done
done
nv=$(( $(wc -w <<<"$GUESTS") * VIFS ))
lab_assert "$nv queues in group 0" test "$(xnb_sysfs 0 queues)" = "$nv"
lab_log "$nv vifs up, one group"

TR=$(xnb_tracefs) || TR=
trace_off() { [ -n "$TR" ] && echo 0 >"$TR/events/xen_netback/enable" 2>/dev/null; }
trap trace_off EXIT

# delivered VIF: bytes the vif delivered to its guest (the netdev's TX),
# read without a fork.
delivered() {
	local v
	read -r v <"/sys/class/net/$1/statistics/tx_bytes"
	echo "$v"
}
# settled: no queue waits for a turn, nothing stays queued for a guest.
settled() {
	! xnb_groups_file | grep -qE '^  vif[0-9.]+-q[0-9]+ queued' &&
		! xnb_groups_file | grep ' rx req' | grep -qv ' skbs 0 bytes 0$'
}
not_thread() { [ "$(xnb_sysfs 0 mode)" != thread ]; }

# phase BUDGET: every vif receives from dom0 for T s at budget BUDGET.
phase() {
	local b=$1 n k i=0 ip vif log r lo='' hi=0 sum=0 us sl dp dh cap=na
	local pids=() ips=() vifs=() before=() passes handoffs bound=$XNB_PASS_MAX_SLOTS
	put $P/budget "$b" || lab_fail "budget=$b refused"
	passes=$(xnb_sysfs 0 passes) handoffs=$(xnb_sysfs 0 handoffs)
	if [ -n "$TR" ]; then
		echo 0 >"$TR/events/xen_netback/enable"
		: >"$TR/trace"
		echo 1 >"$TR/events/xen_netback/xnb_group_handoff/enable"
	fi
	put "$G/max_pass_us" 0 || lab_fail "max_pass_us reset"
	put "$G/max_pass_slots" 0 || lab_fail "max_pass_slots reset"
	for n in $GUESTS; do
		for ((k = 0; k < VIFS; k++)); do
			vif=$(lab_vif_name "$n" $k) ip=$(lab_guest_ip "$n" $k)
			vifs[i]=$vif ips[i]=$ip before[i]=$(delivered "$vif")
			timeout $((T + 30)) iperf3 -c "$ip" -p $((5201 + k)) \
				-t "$T" -f m >"/run/rxb-$b-$vif.log" 2>&1 &
			pids[i]=$!
			i=$((i + 1))
		done
	done
	wait "${pids[@]}"
	us=$(xnb_sysfs 0 max_pass_us) sl=$(xnb_sysfs 0 max_pass_slots)
	dp=$(( $(xnb_sysfs 0 passes) - passes )) dh=$(( $(xnb_sysfs 0 handoffs) - handoffs ))
	if [ -n "$TR" ]; then
		trace_off
		cap=$(grep -c 'xnb_group_handoff:.*reason=cap' "$TR/trace")
	fi
	for ((i = 0; i < ${#vifs[@]}; i++)); do
		vif=${vifs[i]} log=/run/rxb-$b-${vifs[i]}.log
		r=$(lab_iperf_result tcp <"$log") ||
			{ tail -n 5 "$log"; lab_diag "${ips[i]}"; lab_fail "budget=$b: no iperf3 result through $vif"; }
		lab_assert_gt "$(delivered "$vif")" "${before[i]}" "budget=$b: bytes delivered through $vif"
		lab_assert_gt "$r" 0 "budget=$b: iperf3 through $vif"
		sum=$(awk -v s="$sum" -v r="$r" 'BEGIN { print s + r }')
		lo=$(awk -v l="$lo" -v r="$r" 'BEGIN { print (l == "" || r < l) ? r : l }')
		hi=$(awk -v h="$hi" -v r="$r" 'BEGIN { print (r > h) ? r : h }')
	done
	echo "XNB-METRIC rx-bound budget=$b vifs=${#vifs[@]} max_pass_us=$us max_pass_slots=$sl passes=$dp handoffs=$dh cap_handoffs=$cap min_mbps=$lo max_mbps=$hi sum_mbps=$sum"
	[ "$sl" -le "$bound" ] || { xnb_groups_file | grep '^group'; lab_fail "budget=$b: a pass used $sl slots, more than $bound"; }
	lab_wait 10 settled || { xnb_groups_file; lab_fail "budget=$b: queues left waiting or queued after the traffic"; }
	lab_wait 10 not_thread || lab_fail "budget=$b: the passes stay in the thread, idle"
	# Idle now: a reset leaves at most what a lone packet's pass uses.
	put "$G/max_pass_slots" 0 || lab_fail "max_pass_slots reset"
	lab_assert "budget=$b: max_pass_slots reset ($(xnb_sysfs 0 max_pass_slots) after $sl)" \
		test "$(xnb_sysfs 0 max_pass_slots)" -lt "$sl"
}

phase 64
phase 1024
# The next scenario gets the run's parameters back.
bench_destroy_all >/dev/null 2>&1
lab_load_backend
