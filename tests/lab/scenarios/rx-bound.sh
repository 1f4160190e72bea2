# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# rx-bound: a group's pass stays bounded however many vifs are busy and
# whatever the budget (XNB_PASS_SLOTS ring slots, both ways, less one,
# plus a packet crossing each way).  32 vifs in one
# group (groups=1): 4 guests created with 8 vifs each, every vif receiving
# TCP from dom0 at once (dom0 -> guest: the RX path, which a pass once
# served for every queue before deciding anything), for 8 s at budget=64,
# then at budget=1024.  Each phase asserts:
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
# Takes about 4 minutes under TCG: 4 guest creations (~10 s each, the
# boots overlapping), two phases of ~30 s, the guests destroyed together.
# Every per-vif step runs without a process of its own where it can (a
# fork costs a good part of a second in a busy TCG dom0, and xl more).
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

# Small guests: 4 of them beside dom0's 2 GiB, each created with its 8
# vifs (the lean hotplug script: lab_vif_spec above); their boots overlap
# (xl create returns once the devices are set up, before the kernel runs).
for n in $GUESTS; do LAB_GUEST_MEM=192 lab_guest_create "$n" $VIFS; done

# vifs[i], ips[i], ports[i]: vif K of g<N> (lib.sh's naming, without an
# xl or a subshell for each), its guest address and iperf3 port (5201, the
# guest's own server, + K).  The guest numbers ethK, and so its address,
# in the order its netfronts probe: were that not K's order, each vif
# would still carry exactly one stream, only the names in a failure
# message would be off by a permutation.
dom=() vifs=() ips=() ports=() st_paths=() st_want=''
for n in $GUESTS; do
	dom[n]=$(lab_domid "$n") || lab_fail "no domid for g$n"
	for ((k = 0; k < VIFS; k++)); do
		vifs+=("vif${dom[n]}.$k") ips+=("192.0.2.$((10 * n + k))") ports+=($((5201 + k)))
		st_paths+=("/local/domain/0/backend/vif/${dom[n]}/$k/state"
			   "/local/domain/${dom[n]}/device/vif/$k/state")
		st_want+='4 4 '
	done
done
NV=${#vifs[@]}

# all_connected: every vif Connected (4) at both ends and its dom0 netdev
# there; one xenstore read for all of them.
all_connected() {
	local i v
	for ((i = 0; i < NV; i++)); do [ -e "/sys/class/net/${vifs[i]}" ] || return 1; done
	v=$(xenstore-read "${st_paths[@]}" 2>/dev/null) || return 1
	[ "${v//$'\n'/ } " = "$st_want" ]
}
if ! lab_wait 180 all_connected; then
	for p in "${st_paths[@]}"; do echo "$p: $(xenstore-read "$p" 2>&1)"; done
	lab_fail "the $NV vifs not all Connected within 180 s"
fi
# Every address answers ping (all at once: the guests may still be
# giving their interfaces addresses).
pids=() bad=''
for ((i = 0; i < NV; i++)); do
	lab_wait 60 ping -c1 -W1 "${ips[i]}" &
	pids[i]=$!
done
for ((i = 0; i < NV; i++)); do wait "${pids[i]}" || bad+=" ${ips[i]}"; done
[ -z "$bad" ] || lab_fail "no ping reply from$bad"
for n in $GUESTS; do
	# An iperf3 server per vif but the first (the guest's own is on 5201).
	lab_guest_exec "$n" "k=1; while [ \$k -lt $VIFS ]; do iperf3 -s -D -p \$((5201 + k)); k=\$((k + 1)); done" >/dev/null ||
		lab_fail "iperf3 servers in g$n"
done
lab_assert "$NV queues in group 0" test "$(xnb_sysfs 0 queues)" = "$NV"
lab_log "$NV vifs up, one group"

TR=$(xnb_tracefs) || TR=
trace_off() { [ -n "$TR" ] && echo 0 >"$TR/events/xen_netback/enable" 2>/dev/null; }
trap trace_off EXIT

# settled: no queue waits for a turn, nothing stays queued for a guest.
settled() {
	! xnb_groups_file | grep -qE '^  vif[0-9.]+-q[0-9]+ queued' &&
		xnb_rx_drained
}
not_thread() { [ "$(xnb_sysfs 0 mode)" != thread ]; }

# phase BUDGET: every vif receives from dom0 for T s at budget BUDGET.
# The clients wait at a fifo until all are forked, so that the streams
# run together, not one fork apart; each parses its own result.
phase() {
	local b=$1 i r now us sl dp dh cap=na passes handoffs fd out lo hi sum
	local pids=() before=() rates='' go=/run/rxb-go bound=$XNB_PASS_MAX_SLOTS
	local log=/run/rxb-$b
	put $P/budget "$b" || lab_fail "budget=$b refused"
	passes=$(xnb_sysfs 0 passes) handoffs=$(xnb_sysfs 0 handoffs)
	if [ -n "$TR" ]; then
		echo 0 >"$TR/events/xen_netback/enable"
		: >"$TR/trace"
		echo 1 >"$TR/events/xen_netback/xnb_group_handoff/enable"
	fi
	put "$G/max_pass_us" 0 || lab_fail "max_pass_us reset"
	put "$G/max_pass_slots" 0 || lab_fail "max_pass_slots reset"
	rm -f "$go"
	mkfifo "$go" || lab_fail "mkfifo $go"
	for ((i = 0; i < NV; i++)); do
		# Bytes the vif delivered to its guest so far (the netdev's TX).
		read -r "before[i]" <"/sys/class/net/${vifs[i]}/statistics/tx_bytes"
		{
			: <"$go"
			timeout $((T + 30)) iperf3 -c "${ips[i]}" -p "${ports[i]}" \
				-t "$T" -f m >"$log-$i.log" 2>&1
			lab_iperf_result tcp <"$log-$i.log" >"$log-$i.mbps"
		} &
		pids[i]=$!
	done
	# Opening the fifo both ways never blocks, and releases every client
	# blocked opening it (a late one goes straight through).
	sleep 1
	exec {fd}<>"$go"
	wait "${pids[@]}"
	exec {fd}>&-
	rm -f "$go"
	us=$(xnb_sysfs 0 max_pass_us) sl=$(xnb_sysfs 0 max_pass_slots)
	dp=$(( $(xnb_sysfs 0 passes) - passes )) dh=$(( $(xnb_sysfs 0 handoffs) - handoffs ))
	if [ -n "$TR" ]; then
		trace_off
		cap=$(grep -c 'xnb_group_handoff:.*reason=cap' "$TR/trace")
	fi
	for ((i = 0; i < NV; i++)); do
		r=
		read -r r <"$log-$i.mbps"
		[ -n "$r" ] || { tail -n 5 "$log-$i.log"; lab_diag "${ips[i]}"; lab_fail "budget=$b: no iperf3 result through ${vifs[i]}"; }
		read -r now <"/sys/class/net/${vifs[i]}/statistics/tx_bytes"
		[ "$now" -gt "${before[i]}" ] ||
			lab_fail "assertion failed: budget=$b: bytes delivered through ${vifs[i]} ($now > ${before[i]})"
		rates+="${vifs[i]} $r"$'\n'
	done
	# One awk for the figures and for the streams' own assertion (each
	# receiver got data): "MIN MAX SUM FIRST-VIF-AT-0-or--".
	out=$(awk 'NF == 2 {
			r = $2 + 0
			if (n == 0 || r < lo) { lo = r; los = $2 }
			if (n == 0 || r > hi) { hi = r; his = $2 }
			sum += r; n++
			if (r <= 0 && bad == "") bad = $1
		}
		END { printf "%s %s %.2f %s\n", los, his, sum, (bad == "" ? "-" : bad) }' <<<"$rates")
	read -r lo hi sum bad <<<"$out"
	echo "XNB-METRIC rx-bound budget=$b vifs=$NV max_pass_us=$us max_pass_slots=$sl passes=$dp handoffs=$dh cap_handoffs=$cap min_mbps=$lo max_mbps=$hi sum_mbps=$sum"
	[ "$bad" = - ] || lab_fail "assertion failed: budget=$b: iperf3 through $bad (0 Mbit/s)"
	[ "$sl" -le "$bound" ] || { xnb_groups_file | grep '^group'; lab_fail "budget=$b: a pass used $sl slots, more than $bound"; }
	lab_wait 10 settled || { xnb_groups_file; grep -H rx_skbs "$(xnb_debugfs)"/vif-*/io_ring_q*; lab_fail "budget=$b: queues left waiting or queued after the traffic"; }
	lab_wait 10 not_thread || lab_fail "budget=$b: the passes stay in the thread, idle"
	# Idle now: a reset leaves at most what a lone packet's pass uses.
	put "$G/max_pass_slots" 0 || lab_fail "max_pass_slots reset"
	lab_assert "budget=$b: max_pass_slots reset ($(xnb_sysfs 0 max_pass_slots) after $sl)" \
		test "$(xnb_sysfs 0 max_pass_slots)" -lt "$sl"
}

phase 64
phase 1024
# Teardown: the 4 guests destroyed together (no vif detached one by one),
# then the run's parameters back for the next scenario.
bench_destroy_all >/dev/null 2>&1
lab_load_backend
