# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# sysfs: the interface admins' scripts use (docs/admin.md), and the
# tracepoints.  One guest with 2 queues and 2 groups:
#  - /sys/module/xen_netback/groups/ has a directory per group, each
#    file reads a valid value (cpu online and equal to home_cpu, mode
#    light/thread or softirq, busy_pct 0..100, counters numbers);
#  - before the guest, the balancer's work parks (no run in tracefs's
#    workqueue events over 3 s); the guest's queues arm it again;
#  - the groups' queues add up to the vif's, and ethtool -S's q<i>_group
#    rows agree with them and with debugfs; each queue has its own
#    q<i>_{tx,rx}_{packets,bytes,dropped} rows, which grow with traffic;
#    ethtool -l shows the queues and the offer, -L is refused; debugfs
#    xen-netback/vif-<domid>-<devid>/io_ring_q<i> (mode 0600) shows each
#    queue's ring indices and group;
#  - under guest->dom0 TCP, passes, packets and ops rise, busy_pct is
#    above 0 (the balancer's measure, then with rebalance_ms=0 its fixed
#    1000 ms window), two reads in a row agree and reads 0.2 s apart
#    change it at most once a second, and xnb_group_pass events arrive
#    in tracefs;
#  - pinning the vif (worker-group key) moves both queues: the q<i>_group
#    rows and the groups' queues follow, and an xnb_queue_move event
#    says reason=pin;
#  - a groups write (2 -> 3 -> 1 -> 2) remakes the directories, a file
#    opened before reads ENODEV after, the pin holds, regroup moves are
#    traced;
#  - idle, every group's passes are back in the light context (kthread);
#  - the guest unbinds its netfront: the vif, not connected, has no
#    q<i>_* rows (no queue without a group to show), 0 channels and no
#    debugfs directory;
#    bound again, they come back, the counters from 0.
# With perf in dom0 (not in the lab's image today) one perf one-liner.
. /lab/xnb.sh
xnb_ours_only
lab_load_backend "groups=2 $XNB_PARAMS"
G=$XNB_SYSFS
P=/sys/module/xen_netback/parameters
worker=$(cat $P/worker)
files="cpu home_cpu mode queues busy_pct passes packets batches ops handoffs moves_in moves_out max_pass_us max_pass_slots"

T=$(xnb_tracefs) || lab_fail "no tracefs in dom0"
E=$T/events/xen_netback
lab_log "tracefs at $T"
for e in xnb_group_pass xnb_group_handoff xnb_queue_move xnb_vif_disabled \
	 xnb_rx_stall xnb_rx_drain xnb_rx_unstall; do
	lab_assert "event xen_netback:$e" test -d "$E/$e"
done
# trace_on EVENT...: only these events, trace emptied; trace_off: none.
trace_on() {
	local e
	echo 0 >"$E/enable"
	: >"$T/trace"
	for e; do echo 1 >"$E/$e/enable"; done
}
trace_off() { echo 0 >"$E/enable" 2>/dev/null; }
trap trace_off EXIT

# dirs_are "0 1 ...": the group directories, exactly.
dirs_are() {
	local d l=''
	for d in "$G"/*/; do d=${d%/}; l="$l ${d##*/}"; done
	[ "$(tr ' ' '\n' <<<"$l" | sort -n | xargs)" = "$1" ]
}
# group_ok N: each file of group N reads a valid value.
group_ok() {
	local n=$1 f v
	for f in $files; do
		v=$(xnb_sysfs "$n" "$f") || return 1
		case $f in
		mode) case $worker/$v in
		      kthread/light | kthread/thread | tasklet/softirq) ;;
		      *) echo "group $n: mode $v with worker=$worker"; return 1 ;;
		      esac ;;
		*) [[ $v =~ ^[0-9]+$ ]] || { echo "group $n: $f '$v'"; return 1; } ;;
		esac
	done
	# cpu0 may have no "online" file: it cannot go offline.
	v=/sys/devices/system/cpu/cpu$(xnb_sysfs "$n" cpu)
	if [ ! -d "$v" ] || [ "$(cat "$v/online" 2>/dev/null || echo 1)" != 1 ]; then
		echo "group $n: ${v##*/} not online"
		return 1
	fi
	# Every CPU online: every group at home (cpuhp moves them).
	if [ "$(xnb_sysfs "$n" cpu)" != "$(xnb_sysfs "$n" home_cpu)" ]; then
		echo "group $n: cpu $(xnb_sysfs "$n" cpu), home_cpu $(xnb_sysfs "$n" home_cpu)"
		return 1
	fi
	[ "$(xnb_sysfs "$n" busy_pct)" -le 100 ]
}
groups_ok() {
	local d
	for d in "$G"/*/; do group_ok "$(basename "$d")" || return 1; done
}
show() {
	local d f
	for d in "$G"/*/; do
		printf 'groups/%s:' "$(basename "$d")"
		for f in $files; do printf ' %s=%s' "$f" "$(cat "$d$f")"; done
		echo
	done
	ethtool -S "$vif" | grep -E '^ +(queues|q[0-9]+_group):' | tr -s ' ' | tr '\n' ' '
	echo
}

lab_assert "groups/ has 0 and 1 at load" dirs_are "0 1"
lab_assert "files valid at load" groups_ok
lab_assert "the files are read-only" test "$(stat -c %a "$G/0/passes")" = 444

# bal_runs SECONDS: how often the balancer's work ran over that long.
WQ=$T/events/workqueue/workqueue_execute_start
bal_runs() {
	trace_off
	: >"$T/trace"
	echo 1 >"$WQ/enable"
	sleep "$1"
	echo 0 >"$WQ/enable"
	grep -c 'function xnb_balance_run' "$T/trace" || true
}
# No queue yet: two windows after load the work parks (runs no more).
win=$(cat $P/rebalance_ms)
[ "$win" = 0 ] && win=1000
if [ -d "$WQ" ]; then
	sleep $((2 * win / 1000 + 1))
	runs=$(bal_runs 3)
	lab_log "balancer runs over 3 s without a queue: $runs"
	lab_assert "no queue: the balancer's work is parked" test "$runs" = 0
else
	lab_log "no workqueue events in tracefs: balancer parking not checked"
fi

LAB_GUEST_VCPUS=2 lab_guest_start 1
vif=$(lab_vif_name 1)
ip=$(lab_guest_ip 1)
be=$(lab_backend_path 1)
nq=$(xnb_ethtool "$vif" queues)
lab_assert "$vif has 2 queues" test "$nq" = 2
# Its queues' attach armed the work again.
if [ -d "$WQ" ]; then
	runs=$(bal_runs $((win / 1000 + 2)))
	lab_log "balancer runs with $nq queues: $runs"
	lab_assert_gt "$runs" 0 "a queue attached: the balancer's work runs"
fi

# placed: the vif (the only one) has a q<i>_group row per queue, each
# group's queues counts the rows naming it, and they add up to the vif's.
placed() {
	local rows d
	rows=$(xnb_queue_groups "$vif")
	[ "$(wc -l <<<"$rows")" = "$nq" ] || return 1
	for d in "$G"/*/; do
		[ "$(cat "${d}queues")" = "$(grep -cx "$(basename "$d")" <<<"$rows")" ] ||
			return 1
	done
	[ "$(xnb_sysfs_sum queues)" = "$nq" ]
}
show
lab_assert "queues add up to $nq, q<i>_group agree" placed
from=$(xnb_ethtool "$vif" q0_group)
lab_assert "q0_group agrees with debugfs" xnb_in_group "$vif-q0" "$from"
# queue_rows_ok: every queue has its group and six counters, nothing more.
queue_rows_ok() {
	local i c
	for ((i = 0; i < nq; i++)); do
		for c in group tx_packets tx_bytes tx_dropped rx_packets rx_bytes rx_dropped; do
			xnb_ethtool "$vif" "q${i}_$c" >/dev/null || { echo "no q${i}_$c"; return 1; }
		done
	done
	[ "$(xnb_queue_rows "$vif")" = $((7 * nq)) ]
}
lab_assert "ethtool -S: each queue's group and counters" queue_rows_ok
# io_ring_ok: debugfs has each queue's ring dump, naming its group.
io_ring_ok() {
	local i out
	for ((i = 0; i < nq; i++)); do
		out=$(xnb_io_ring "$vif" $i) || return 1
		grep -q "^queue $i ($vif-q$i) group $(xnb_ethtool "$vif" q${i}_group) " <<<"$out" &&
			grep -qE '^tx: req_prod [0-9]+ req_cons [0-9]+ req_event [0-9]+ rsp_prod_pvt [0-9]+ rsp_prod [0-9]+ rsp_event [0-9]+$' <<<"$out" &&
			grep -qE '^rx: req_prod [0-9]+ ' <<<"$out" || { echo "$out"; return 1; }
	done
	[ ! -e "$(xnb_vif_debugfs "$vif")/io_ring_q$nq" ]
}
xnb_io_ring "$vif" 0
lab_assert "debugfs $(xnb_vif_debugfs "$vif")/io_ring_q<i>" io_ring_ok
lab_assert "debugfs io_ring_q0 is root's only" \
	test "$(stat -c %a "$(xnb_vif_debugfs "$vif")/io_ring_q0")" = 600
ethtool -l "$vif"
lab_assert "ethtool -l: $nq combined channels now" test "$(xnb_channels "$vif" current)" = "$nq"
lab_assert "ethtool -l: the offer as maximum" \
	test "$(xnb_channels "$vif" max)" = "$(xenstore-read "$be/multi-queue-max-queues")"
set_channels() { ethtool -L "$vif" combined "$1"; }
if set_channels 1; then lab_fail "ethtool -L accepted"; fi
lab_assert "files valid with a guest" groups_ok

# Counters and pass events under guest->dom0 TCP; busy_pct from the
# balancer's last interval meanwhile (rebalance_ms=1000 unless XNB_PARAMS
# says otherwise).
passes=$(xnb_sysfs_sum passes)
packets=$(xnb_sysfs_sum packets)
ops=$(xnb_sysfs_sum ops)
q_tx=$(xnb_queue_sum "$vif" tx_packets) q_txb=$(xnb_queue_sum "$vif" tx_bytes)
q_rx=$(xnb_queue_sum "$vif" rx_packets) q_rxb=$(xnb_queue_sum "$vif" rx_bytes)
trace_on xnb_group_pass xnb_group_handoff
timeout 40 iperf3 -c "$ip" -R -t 4 -f m >/run/sysfs-a.log 2>&1 &
ipf=$!
sleep 3
busy=$(( $(xnb_sysfs 0 busy_pct) + $(xnb_sysfs 1 busy_pct) ))
wait $ipf || { cat /run/sysfs-a.log; lab_fail "iperf3 -R from $ip"; }
trace_off
tail -1 /run/sysfs-a.log
show
lab_log "busy_pct summed over the groups during the transfer: $busy"
lab_assert_gt "$(xnb_sysfs_sum passes)" "$passes" "passes rose"
lab_assert_gt "$(xnb_sysfs_sum packets)" "$packets" "packets rose"
lab_assert_gt "$(xnb_sysfs_sum ops)" "$ops" "ops rose"
# The guest sent the data (its tx), dom0 the ACKs (its rx).
lab_assert_gt "$(xnb_queue_sum "$vif" tx_packets)" "$q_tx" "q<i>_tx_packets rose"
lab_assert_gt "$(xnb_queue_sum "$vif" tx_bytes)" "$q_txb" "q<i>_tx_bytes rose"
lab_assert_gt "$(xnb_queue_sum "$vif" rx_packets)" "$q_rx" "q<i>_rx_packets rose"
lab_assert_gt "$(xnb_queue_sum "$vif" rx_bytes)" "$q_rxb" "q<i>_rx_bytes rose"
# One connection so far: the queues' counters are the vif's (one read
# of both; again should a stray packet come between the two sums).
qsum_is_total() {
	ethtool -S "$vif" | awk '$1 == "tx_packets:" { t = $2 }
		$1 ~ /^q[0-9]+_tx_packets:$/ { s += $2 } END { exit !(t == s) }'
}
lab_assert "q<i>_tx_packets add up to tx_packets" lab_wait 5 qsum_is_total
if [ "$(cat $P/rebalance_ms)" != 0 ]; then
	lab_assert_gt "$busy" 0 "busy_pct (balancer's measure) under traffic"
fi
grep -m3 'xnb_group_pass:' "$T/trace"
n=$(grep -c 'xnb_group_pass: group=[0-9]* queues=[0-9]* tx=[0-9]* rx=[0-9]* ops=[0-9]* duration_ns=[0-9]* slots=[0-9]*' "$T/trace")
lab_assert_gt "$n" 0 "xnb_group_pass events"
tx=$(awk '/xnb_group_pass:/ { for (i = 1; i <= NF; i++) if ($i ~ /^tx=/) s += substr($i, 4) }
	END { print s + 0 }' "$T/trace")
lab_assert_gt "$tx" 0 "pass events count guest TX packets"
lab_log "xnb_group_handoff events: $(grep -c 'xnb_group_handoff:' "$T/trace")"
grep -m2 'xnb_group_handoff:' "$T/trace"

# The pin, under traffic, with the balancer off: it moves nothing, and
# measures busy_pct over fixed 1000 ms windows, which reads do not move.
echo 0 >$P/rebalance_ms || lab_fail "rebalance_ms=0"
from=$(xnb_ethtool "$vif" q0_group)
to=$((1 - from))
q0_in() { [ "$(xnb_ethtool "$vif" q0_group)" = "$1" ]; }
trace_on xnb_queue_move
# Long enough for dom0's shell, slow under TCG (a command can take a
# second), to pin and read while the transfer still runs.
timeout 70 iperf3 -c "$ip" -R -t 20 -f m >/run/sysfs-b.log 2>&1 &
ipf=$!
sleep 1
xenstore-write "$be/worker-group" $to
lab_assert "q0_group follows the pin to $to" lab_wait 10 q0_in $to
kill -0 $ipf 2>/dev/null || lab_fail "the transfer ended before busy_pct was read"
pcts='' busy=0
for d in "$G"/*/; do
	d=${d%/}
	v=$(cat "$d/busy_pct")
	pcts="$pcts ${d##*/}=$v"
	busy=$((busy + v))
done
# Two reads in a row give the window's value twice (again, should a
# window end between them).
same_twice() { [ "$(xnb_sysfs "$1" busy_pct)" = "$(xnb_sysfs "$1" busy_pct)" ]; }
lab_assert "busy_pct: two reads in a row agree" lab_wait 5 same_twice "$to"
# Reads 0.2 s apart change the value only as windows end: at most once
# per second elapsed, plus one.
busy_steady() {
	local i v last='' changes=0 t0 t1 ms
	t0=$(cut -d' ' -f1 /proc/uptime)
	for ((i = 0; i < 8; i++)); do
		v=$(xnb_sysfs "$1" busy_pct)
		[ -n "$last" ] && [ "$v" != "$last" ] && changes=$((changes + 1))
		last=$v
		sleep 0.2
	done
	t1=$(cut -d' ' -f1 /proc/uptime)
	ms=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%d", (b - a) * 1000 }')
	lab_log "group $1: busy_pct changed $changes times over 8 reads in $ms ms"
	[ "$changes" -le $((ms / 1000 + 1)) ]
}
lab_assert "busy_pct: reads do not move its window" busy_steady "$to"
wait $ipf || { cat /run/sysfs-b.log; lab_fail "iperf3 -R from $ip across the pin"; }
trace_off
grep receiver /run/sysfs-b.log
show
lab_log "busy_pct per group, own window, across the pin:$pcts"
lab_assert "every q<i>_group is $to" test "$(xnb_queue_groups "$vif" | sort -u)" = "$to"
lab_assert "group $to has the $nq queues" test "$(xnb_sysfs "$to" queues)" = "$nq"
lab_assert "group $from has none" test "$(xnb_sysfs "$from" queues)" = 0
lab_assert "queues add up after the pin" placed
lab_assert "debugfs agrees" xnb_in_group "$vif-q1" "$to"
lab_assert_gt "$busy" 0 "busy_pct (own window) under traffic"
grep 'xnb_queue_move:' "$T/trace"
lab_assert "xnb_queue_move event for the pin" \
	grep -q "xnb_queue_move: $vif-q0 from=$from to=$to reason=pin" "$T/trace"
echo 1000 >$P/rebalance_ms || lab_fail "rebalance_ms=1000"

# groups written: the directories follow; an old file reads ENODEV.
exec 3<"$G/0/passes"
trace_on xnb_queue_move
for n in 3 1 2; do
	echo $n >$P/groups || lab_fail "groups=$n refused"
	want=$(seq -s ' ' 0 $((n - 1)))
	lab_assert "groups=$n: directories $want" dirs_are "$want"
	lab_assert "groups=$n: files valid" groups_ok
	lab_assert "groups=$n: queues add up, q<i>_group agree" placed
	pin=$to
	[ "$to" -lt "$n" ] || pin=0
	lab_assert "groups=$n: the pin holds (group $pin)" \
		test "$(xnb_queue_groups "$vif" | sort -u)" = "$pin"
	show
	if [ $n = 3 ]; then
		err=$(cat <&3 2>&1) && lab_fail "old groups/0/passes still reads: $err"
		lab_log "old groups/0/passes: $err"
		lab_assert "old file: ENODEV" grep -q 'No such device' <<<"$err"
		exec 3<&-
	fi
done
trace_off
lab_assert_gt "$(grep -c "xnb_queue_move: $vif-q[0-9]* from=[0-9]* to=[0-9]* reason=regroup" "$T/trace")" 0 \
	"xnb_queue_move events for the regroups"
lab_assert "ping $ip after the regroups" lab_ping "$ip" 2

# Idle: the threads hand the passes back to the light contexts.
mode_idle() {
	local d want=light
	[ "$worker" = tasklet ] && want=softirq
	for d in "$G"/*/; do [ "$(cat "${d}mode")" = $want ] || return 1; done
}
lab_assert "idle: every group's mode light (softirq with tasklet)" lab_wait 10 mode_idle

# perf, where dom0 has it: the pass events counted over a transfer.
if command -v perf >/dev/null; then
	perf stat -e xen_netback:xnb_group_pass -a -- \
		iperf3 -c "$ip" -R -t 2 >/run/sysfs-perf.log 2>&1 ||
		{ cat /run/sysfs-perf.log; lab_fail "perf stat"; }
	grep xnb_group_pass /run/sysfs-perf.log
	n=$(awk '/xen_netback:xnb_group_pass/ { gsub(",", "", $1); print $1 }' /run/sysfs-perf.log)
	lab_assert_gt "${n:-0}" 0 "perf counts xnb_group_pass"
else
	lab_log "no perf in dom0: the perf one-liner is not run"
fi

# The guest's netfront away and back: the vif stays, disconnected.
# Unbound from its driver rather than unloaded: the module may be in use.
nf=/sys/bus/xen/drivers/vif
out=$(lab_guest_exec 1 "echo vif-0 > $nf/unbind" 60) || { echo "$out"; lab_fail "unbind vif-0 from netfront in g1"; }
not_connected() { [ "$(xnb_ethtool "$vif" queues)" = 0 ]; }
lab_assert "$vif not connected once netfront is gone" lab_wait 30 not_connected
show
lab_assert "no q<i>_* rows while not connected" test "$(xnb_queue_rows "$vif")" = 0
lab_assert "ethtool -l: no channels while not connected" test "$(xnb_channels "$vif" current)" = 0
lab_assert "no debugfs $(xnb_vif_debugfs "$vif")/ while not connected" \
	test ! -e "$(xnb_vif_debugfs "$vif")"
out=$(lab_guest_exec 1 "echo vif-0 > $nf/bind" 60) ||
	{ echo "$out"; lab_fail "bind vif-0 to netfront in g1"; }
lab_wait_vif 1
lab_wait_ping "$ip" 120
show
lab_assert "the q<i>_* rows are back" queue_rows_ok
lab_assert "ethtool -l: $nq channels again" test "$(xnb_channels "$vif" current)" = "$nq"
lab_assert "debugfs $(xnb_vif_debugfs "$vif")/io_ring_q<i> again" io_ring_ok
lab_assert "q<i>_tx_packets from 0: fewer than tx_packets" \
	test "$(xnb_queue_sum "$vif" tx_packets)" -lt "$(xnb_ethtool "$vif" tx_packets)"

lab_destroy_all
lab_load_backend
