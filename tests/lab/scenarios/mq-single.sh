# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# mq-single: one TCP flow through a 2-queue vif must not crawl (issue 9
# item 7).  g1 (1 vcpu, 1 queue) gives the reference single-flow rate each
# way; then g2 (2 vcpus, 2 queues) runs MQ_RUNS single flows each way and
# every one must reach half the reference of its direction.
# Per run it prints the rate, TCP retransmits and the xenbus device's
# lateeoi counters (spurious events, jiffies of delayed EOI: Linux backs
# an event channel off after consecutive spurious EOIs).  A slow run
# prints the per-second samples taken during it and the driver's state.
# If runs were slow, the slow direction runs MQ_RUNS more times with the
# back-off switched off (xenbus spurious_threshold raised): if those pass,
# the back-off is the cause.  The verdict counts the first phase only.
# Needs ~3 * MQ_RUNS + 2 runs of MQ_T s: run with LAB_SCENARIO_TIMEOUT=900.
MQ_RUNS=${MQ_RUNS:-10}
MQ_T=${MQ_T:-8}
# Two groups, as in multiqueue: the two queues of g2 on different groups.
[ "$NETBACK" = ours ] && lab_load_backend "groups=2 $XNB_PARAMS"
lab_guest_create 1
LAB_GUEST_VCPUS=2 lab_guest_create 2
lab_guest_wait 1
lab_guest_wait 2
vif2=$(lab_vif_name 2)
lab_assert "$vif2 has 2 queues" test -d "/sys/class/net/$vif2/queues/tx-1"
ip1=$(lab_guest_ip 1)
ip2=$(lab_guest_ip 2)
xb2=/sys/bus/xen-backend/devices/vif-$(lab_domid 2)-0/xenbus

# xb COUNTER: a lateeoi counter of g2's vif (0 if the kernel has none).
xb() { local v=0; read -r v 2>/dev/null < "$xb2/$1"; echo "${v:-0}"; }
# shellcheck disable=SC2016 # an awk program
snmp_retrans='/^Tcp:/ { n++; if (n == 1) for (i = 1; i <= NF; i++) c[$i] = i; else print $c["RetransSegs"] }'
# num: stdin if it is a number, else -1 (the figure could not be read).
num() { local v; read -r v; case $v in '' | *[!0-9]*) echo -1 ;; *) echo "$v" ;; esac; }
retrans() { lab_guest_exec 2 "awk '$snmp_retrans' /proc/net/snmp" 20 | num; }
dom0_retrans() { awk "$snmp_retrans" /proc/net/snmp | num; }
# sampler FILE: one line a second (no forks) until killed.
sampler() {
	local t s j e rx tx
	while :; do
		read -r t _ < /proc/uptime
		read -r s < "$xb2/spurious_events"; read -r j < "$xb2/jiffies_eoi_delayed"
		read -r e < "$xb2/events"
		read -r rx < "/sys/class/net/$vif2/statistics/rx_bytes"
		read -r tx < "/sys/class/net/$vif2/statistics/tx_bytes"
		echo "$t events=$e spurious=$s eoi_delayed=$j vif_rx_bytes=$rx vif_tx_bytes=$tx"
		sleep 1
	done > "$1" 2>/dev/null
}
# irqs: "IRQ:NAME=COUNT" of g2's event channels (ours names tx and rx
# alike; tx is bound first, so it has the lower irq).
irqs() {
	awk -v v="vif$(lab_domid 2)." 'index($NF, v) == 1 { n = 0
		for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) n += $i
		sub(":", "", $1); printf "%s:%s=%d ", $1, $NF, n }' /proc/interrupts
}
mq_diag() {
	echo "--- mq-single diag: $* ---"
	echo "per-second samples (vif rx = guest->dom0):"
	cat /run/mq-sample
	grep "vif$(lab_domid 2)\." /proc/interrupts
	for f in event_channels events spurious_events jiffies_eoi_delayed spurious_threshold; do
		echo "$f $(xb $f)"
	done
	lab_diag "$ip2"
}

# dir_name -R|"": the direction of lab_iperf's flag.
dir_name() { [ "$1" = -R ] && echo guest_to_dom0 || echo dom0_to_guest; }

declare -A ref min nbad
for dir in -R ""; do
	name=$(dir_name "$dir")
	# shellcheck disable=SC2086
	ref[$name]=$(lab_iperf "$ip1" $dir "$MQ_T")
	min[$name]=$(awk -v r="${ref[$name]}" 'BEGIN { printf "%.4f", r / 2 }')
	echo "XNB-METRIC mq-single ref_1q ${name}_gbps=${ref[$name]}"
done

# runs PHASE DIR: MQ_RUNS single flows of g2; sets nbad[PHASE-DIR].
runs() {
	local phase=$1 dir=$2 name i g s0 j0 e0 r0 d0 s1 j1 e1 r1 d1 sp
	name=$(dir_name "$dir")
	nbad[$phase-$name]=0
	for ((i = 1; i <= MQ_RUNS; i++)); do
		s0=$(xb spurious_events) j0=$(xb jiffies_eoi_delayed) e0=$(xb events)
		r0=$(retrans) d0=$(dom0_retrans)
		sampler /run/mq-sample & sp=$!
		# shellcheck disable=SC2086
		g=$(lab_iperf "$ip2" $dir "$MQ_T")
		kill $sp; wait $sp 2>/dev/null
		r1=$(retrans) d1=$(dom0_retrans)
		s1=$(xb spurious_events) j1=$(xb jiffies_eoi_delayed) e1=$(xb events)
		echo "XNB-METRIC mq-single 2q $phase $name run=$i gbps=$g events=$((e1 - e0)) spurious=$((s1 - s0)) eoi_delay_jiffies=$((j1 - j0)) guest_retrans=$((r1 - r0)) dom0_retrans=$((d1 - d0))"
		echo "XNB-LOG mq-single irqs after run $i: $(irqs)"
		nruns=$((nruns + 1))
		if awk -v g="$g" -v m="${min[$name]}" 'BEGIN { exit !(g + 0 < m + 0) }'; then
			lab_log "$phase $name run $i: $g Gbit/s, under half the 1-queue rate ${ref[$name]}"
			mq_diag "$phase $name run $i"
			nbad[$phase-$name]=$((nbad[$phase-$name] + 1))
		fi
	done
	echo "XNB-METRIC mq-single 2q $phase $name slow_runs=${nbad[$phase-$name]}/$MQ_RUNS"
}

bad=0 nruns=0
for dir in -R ""; do
	runs default "$dir"
	bad=$((bad + nbad[default-$(dir_name "$dir")]))
done
for dir in -R ""; do
	[ "${nbad[default-$(dir_name "$dir")]}" -gt 0 ] || continue
	[ -w "$xb2/spurious_threshold" ] || break
	old=$(xb spurious_threshold)
	# spurious_cnt saturates near log2(4 * HZ): 64 means never delay.
	echo 64 > "$xb2/spurious_threshold"
	runs no-backoff "$dir"
	echo "$old" > "$xb2/spurious_threshold"
done
lab_assert "all $((2 * MQ_RUNS)) runs done ($nruns)" test $nruns -ge $((2 * MQ_RUNS))
[ $bad -eq 0 ] || lab_fail "$bad single-flow runs of the 2-queue guest under half the 1-queue rate"
