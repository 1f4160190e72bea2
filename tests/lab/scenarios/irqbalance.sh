# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# irqbalance: the admin's irq balancer runs beside the backend (docs/admin.md,
# "CPU hotplug and irqbalance").  groups=2 on dom0's 2 vcpus, two guests,
# one vif in each group.  IRQBALANCE_ROUNDS times (default 2), alternated:
# TCP guest->dom0 for IRQBALANCE_SECS (default 5) without irqbalance, then
# with `irqbalance --foreground --debug --interval=1` running since a few
# seconds, a ping every 0.2 s throughout.  Passes when irqbalance ran and
# saw the vifs' irqs, wrote no error about them (its "Cannot change IRQ"
# lines: a refused smp_affinity write), every iperf3 run completed, ping loss stays
# under 10 %, and the vif irqs' smp_affinity still takes a write after it.
# Throughput with and without irqbalance is reported (XNB-METRIC), not
# judged.
. /lab/xnb.sh
ROUNDS=${IRQBALANCE_ROUNDS:-2}
SECS=${IRQBALANCE_SECS:-5}
LOG=/run/irqbalance.log
bpid=''

SAVED=/run/irqbalance.affinity

# Every irq's affinity, as irqbalance found it, back for the scenarios
# after this one.
affinity_save() {
	local f
	for f in /proc/irq/[0-9]*/smp_affinity_list; do
		echo "$f $(cat "$f")"
	done >"$SAVED"
}
affinity_restore() {
	local f l
	[ -f "$SAVED" ] || return 0
	while read -r f l; do
		{ echo "$l" >"$f"; } 2>/dev/null
	done <"$SAVED"
}
cleanup() {
	[ -z "$bpid" ] || kill "$bpid" 2>/dev/null
	# shellcheck disable=SC2086 # pids, split on purpose
	[ -z "$LAB_PING_PIDS" ] || kill $LAB_PING_PIDS 2>/dev/null
	affinity_restore
}
trap cleanup EXIT

# vif_irqs: the irqs of the guests' queues ("vif<d>.<n>-q<i>..." in
# /proc/interrupts).
vif_irqs() {
	awk 'index($NF, "vif") == 1 { sub(":", "", $1); print $1 }' /proc/interrupts
}
# balancer_start: irqbalance in the foreground, its whole log to $LOG.
balancer_start() {
	irqbalance --foreground --debug --interval=1 >>"$LOG" 2>&1 &
	bpid=$!
	sleep 3
	lab_assert "irqbalance is running" kill -0 "$bpid"
}
balancer_stop() {
	kill "$bpid" 2>/dev/null
	wait "$bpid" 2>/dev/null
	bpid=''
}
# irq_lines IRQ: irqbalance's log lines about IRQ.
irq_lines() { grep -E "Interrupt $1 |IRQ $1[ :]|\\($1\\)" "$LOG"; }
# tcp N: guest N -> dom0 TCP for $SECS s, Gbit/s.
tcp() { lab_iperf "$(lab_guest_ip "$1")" -R "$SECS"; }

command -v irqbalance >/dev/null || lab_skip "no irqbalance in this dom0 image"
if [ "$NETBACK" = ours ]; then
	lab_load_backend "$XNB_PARAMS groups=2"
fi
lab_guest_create 1
lab_guest_create 2
lab_guest_wait 1
lab_guest_wait 2
if [ "$NETBACK" = ours ]; then
	xenstore-write "$(lab_backend_path 1)/worker-group" 0
	xenstore-write "$(lab_backend_path 2)/worker-group" 1
fi
irqs=$(vif_irqs)
lab_assert "the vifs have queue irqs" test -n "$irqs"
affinity_save
: >"$LOG"
lab_ping_start irqbalance "$(lab_guest_ip 1)"
for r in $(seq "$ROUNDS"); do
	without=$(tcp 1)
	balancer_start
	with=$(tcp 1)
	balancer_stop
	echo "XNB-METRIC irqbalance round=$r without_gbps=$without with_gbps=$with"
	lab_log "round $r: g1->dom0 $without Gbit/s without irqbalance, $with with it"
done
lab_ping_loss irqbalance 10 "with irqbalance started and stopped $ROUNDS times" replies

# irqbalance's words for a refused write and for an irq it gave up on,
# about the vifs' irqs (other irqs of a PV dom0, Xen's per-CPU ones, it
# cannot move either: reported, not ours to judge).
vif_re="IRQ ($(echo $irqs | tr ' ' '|'))[ :]"
errors=$(grep -Ei 'cannot change irq|unmanaged' "$LOG" | grep -Ec "$vif_re" || true)
others=$(grep -Ei 'cannot change irq' "$LOG" | grep -Evc "$vif_re" || true)
seen=0
for irq in $irqs; do
	n=$(irq_lines "$irq" | wc -l)
	[ "$n" = 0 ] || seen=$((seen + 1))
	echo "irq $irq: effective affinity $(cat "/proc/irq/$irq/effective_affinity_list"), $n lines of irqbalance's:"
	irq_lines "$irq" | sort | uniq -c | sort -rn | head -n 3
done
echo "XNB-METRIC irqbalance log_lines=$(wc -l <"$LOG") vif_errors=$errors other_irq_errors=$others vif_irqs=$(echo "$irqs" | wc -w) seen=$seen"
grep -Ei 'cannot change irq' "$LOG" | grep -Ev "$vif_re" | sort | uniq -c | head -n 4
if [ "$errors" != 0 ]; then
	grep -Ei 'cannot change irq|unmanaged' "$LOG" | grep -E "$vif_re" | head -n 20
	lab_fail "irqbalance logged $errors errors about the vifs' irqs"
fi
lab_assert "irqbalance listed the vifs' irqs" test "$seen" -gt 0
for irq in $irqs; do
	lab_assert "irq $irq: smp_affinity_list still takes a write" \
		sh -c "echo 0 >/proc/irq/$irq/smp_affinity_list"
done
lab_assert "ping g1 after irqbalance" lab_ping "$(lab_guest_ip 1)" 3
lab_assert "ping g2 after irqbalance" lab_ping "$(lab_guest_ip 2)" 3
lab_destroy_all
