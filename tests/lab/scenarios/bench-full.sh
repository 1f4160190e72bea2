# bench-full: the measuring side of `make bench` (scripts/bench.sh runs it
# once per backend and aggregates).  Never asserts a performance figure:
# it only prints "XNB-METRIC bench ..." lines, one per measured value:
#
#   XNB-METRIC bench b=<ours|stock> c=<config> r=<rep> m=<metric> [n=<guests>] v=<value>
#
# For each repetition and each configuration (ours: groups=1 and
# groups=<dom0 vcpus>, each with worker=kthread and tasklet; stock: one),
# a "cycle" reloads the backend and:
#   - vif phase (every cycle, or the first of a boot with BENCH_VIFS=first):
#     boots g1 (1 vif): dom0 Slab+VmallocUsed growth and backend threads;
#     hot-attaches 15 vifs one by one: time until all 16 are Connected,
#     memory, threads; destroys g1;
#   - boots g1..g<BENCH_GUESTS> (1 vif each) at once;
#   - TCP, all guests at once, guest->dom0 (tx) and dom0->guest (rx) with
#     1, 2, 4 guests (as many as are up): aggregate Gbit/s, dom0 CPU-s per GB moved (xl list),
#     grant-copy ops per hypercall (ours: debugfs group stats deltas);
#   - UDP 64-byte packets g1->dom0 (iperf3 run in the guest): packets/s
#     received by dom0;
#   - fairness: g2's TCP rate and ping RTT alone and while g1 is flooded
#     both ways (4+4 streams); ours with both pinned to group 0.
# Once per boot: the ceiling, TCP over a veth pair between two netns.
# With LAB_PERF=1, repetition 1 ends each cycle with a perf profile of
# TCP both ways with all guests (bench-prof lines, not metrics).
#
# Knobs (set by bench-quick.sh or the environment): BENCH_REPS (3),
# BENCH_T iperf seconds (10), BENCH_VIFS=all|first, BENCH_GUESTS (4),
# BENCH_CYCLE_TIMEOUT
# (s, per cycle), BENCH_ONLY
# (configurations to run, e.g. "g2-kthread"; default all).
# A failing step only loses its own figures (logged as m=error).
. /lab/xnb.sh
export BENCH_REPS=${BENCH_REPS:-3} BENCH_T=${BENCH_T:-10}
export BENCH_VIFS=${BENCH_VIFS:-all} BENCH_CYCLE_TIMEOUT=${BENCH_CYCLE_TIMEOUT:-1200}
export BENCH_GUESTS=${BENCH_GUESTS:-4}
export BENCH_CFG=- BENCH_REP=0

# Every bench vif uses a minimal hotplug script (bridge port + hotplug-status)
# instead of vif-bridge: the latter serialises on a lock and takes seconds
# per vif under TCG.  Same for both backends; lab_guest_create picks this
# spec up.
BENCH_VIF_SCRIPT=/run/xnb-bench-vif
lab_vif_spec() { echo "mac=$(lab_guest_mac "$1" "$2"),bridge=xenbr0,script=$BENCH_VIF_SCRIPT"; }

bm() {	# bm METRIC VALUE [k=v ...]
	local m=$1 v=$2; shift 2
	[ -n "$v" ] || v=nan
	echo "XNB-METRIC bench b=$NETBACK c=$BENCH_CFG r=$BENCH_REP m=$m${*:+ $*} v=$v"
}
bench_err() { echo "XNB-METRIC bench b=$NETBACK c=$BENCH_CFG r=$BENCH_REP m=error what=$1 v=1"; }
bench_progress() { echo "XNB-LOG bench $NETBACK $BENCH_CFG rep $BENCH_REP: $* (dom0 uptime $(cut -d' ' -f1 /proc/uptime))"; }
now() { date +%s.%N; }
fsub() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f\n", a - b }'; }

# dom0 Slab + VmallocUsed, KiB.
bench_mem() { awk '$1 == "Slab:" || $1 == "VmallocUsed:" { s += $2 } END { print s }' /proc/meminfo; }
# Backend threads: ours xnb-group/N, stock per-queue vifD.K-qN-* kthreads.
bench_threads() { ps -e -o comm= | grep -cE '^(xnb-group|vif[0-9])' || true; }
# Domain-0 CPU seconds so far (all vcpus).
bench_dom0_cpu() { xl list Domain-0 | awk 'NR == 2 { print $6 }'; }
# Bytes through every vif netdev, both directions.
bench_vif_bytes() {
	local f s=0
	for f in /sys/class/net/vif*/statistics/rx_bytes /sys/class/net/vif*/statistics/tx_bytes; do
		[ -r "$f" ] && s=$((s + $(cat "$f")))
	done
	echo $s
}
# Sum of the debugfs group counters: "passes packets batches ops full_flushes busy_ms".
bench_groups() {
	[ "$NETBACK" = ours ] || { echo "0 0 0 0 0 0"; return; }
	xnb_groups_file 2>/dev/null | awk '/^group / {
		for (i = 1; i < NF; i++) {
			if ($i == "passes") p += $(i + 1); if ($i == "packets") k += $(i + 1)
			if ($i == "batches") b += $(i + 1); if ($i == "ops") o += $(i + 1)
			if ($i == "full_flushes") f += $(i + 1); if ($i == "busy_ms") ms += $(i + 1)
		} } END { printf "%d %d %d %d %d %d\n", p, k, b, o, f, ms }'
}
# Receiver-side Mbit/s of one iperf3 client output file (0 if none).
iperf_mbps() {
	awk '/receiver/ { for (i = 1; i < NF; i++) if ($(i + 1) == "Mbits/sec") r = $i }
		END { printf "%.3f\n", r + 0 }' "$1"
}
# ping_avg IP: average RTT in ms of 10 pings (nan if none came back).
ping_avg() {
	ping -c 10 -i 0.2 -W 2 "$1" 2>/dev/null |
		awk -F/ '/^(rtt|round-trip)/ { print $5; f = 1 } END { if (!f) print "nan" }'
}

# Snapshot before/after a load phase and emit CPU per GB and group stats.
load_begin() { L_CPU=$(bench_dom0_cpu); L_BYTES=$(bench_vif_bytes); L_GRP=$(bench_groups); }
load_end() {	# load_end TAG [k=v]
	local tag=$1 cpu bytes grp; shift
	cpu=$(bench_dom0_cpu); bytes=$(bench_vif_bytes); grp=$(bench_groups)
	bm "cpu_s_per_gb_$tag" "$(awk -v c0="$L_CPU" -v c1="$cpu" -v b0="$L_BYTES" -v b1="$bytes" \
		'BEGIN { if (b1 > b0) printf "%.3f", (c1 - c0) / ((b1 - b0) / 1e9) }')" "$@"
	bm "gbytes_$tag" "$(awk -v b0="$L_BYTES" -v b1="$bytes" 'BEGIN { printf "%.4f", (b1 - b0) / 1e9 }')" "$@"
	[ "$NETBACK" = ours ] || return 0
	local p0 k0 b0 o0 f0 ms0 p1 k1 b1 o1 f1 ms1
	read -r p0 k0 b0 o0 f0 ms0 <<< "$L_GRP"
	read -r p1 k1 b1 o1 f1 ms1 <<< "$grp"
	bm "ops_per_batch_$tag" "$(awk -v o=$((o1 - o0)) -v b=$((b1 - b0)) 'BEGIN { if (b > 0) printf "%.1f", o / b }')" "$@"
	bm "pkts_per_pass_$tag" "$(awk -v k=$((k1 - k0)) -v p=$((p1 - p0)) 'BEGIN { if (p > 0) printf "%.1f", k / p }')" "$@"
	bm "full_flushes_$tag" $((f1 - f0)) "$@"
	bm "busy_ms_$tag" $((ms1 - ms0)) "$@"
}

# tcp_clients DIR N SECONDS LOG: iperf3 from dom0 to g1..gN in the
# background, output in LOG-<i>.log; DIR tx = guest->dom0 (-R), rx =
# dom0->guest.  The caller waits.
tcp_clients() {
	local rev="" i
	[ "$1" = tx ] && rev=-R
	for ((i = 1; i <= $2; i++)); do
		timeout -k 5 $(($3 + 30)) iperf3 -c "$(lab_guest_ip $i)" $rev -t "$3" -f m \
			> "$4-$i.log" 2>&1 &
	done
}

# TCP DIR N: dom0 <-> g1..gN at once.
bench_tcp() {
	local dir=$1 n=$2 i sum
	load_begin
	tcp_clients "$dir" "$n" "$BENCH_T" /run/bench-tcp
	wait
	load_end "$dir" n="$n"
	sum=0
	for ((i = 1; i <= n; i++)); do
		sum=$(awk -v s="$sum" -v r="$(iperf_mbps /run/bench-tcp-$i.log)" 'BEGIN { print s + r }')
		grep -q receiver /run/bench-tcp-$i.log || { tail -n 3 /run/bench-tcp-$i.log; bench_err "tcp_${dir}_g$i"; }
		echo "bench: tcp $dir $n g$i: $(grep -m1 receiver /run/bench-tcp-$i.log)"
	done
	bm "tcp_${dir}_gbps" "$(awk -v s="$sum" 'BEGIN { printf "%.4f", s / 1000 }')" n="$n"
}

# UDP 64-byte datagrams g1 -> dom0, sent by iperf3 in the guest.
bench_udp() {
	local out pps
	local port=$((5300 + RANDOM % 90))
	iperf3 -s -1 -p $port -D || return 1
	sleep 1
	load_begin
	out=$(lab_guest_exec 1 "iperf3 -c 192.0.2.1 -p $port -u -l 64 -b 1G -t $BENCH_T -f m" $((BENCH_T + 60)))
	load_end udp
	pps=$(echo "$out" | awk -v t="$BENCH_T" '/receiver/ {
		for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\/[0-9]+$/) { split($i, a, "/"); r = a[2] - a[1] } }
		END { if (r != "") printf "%.0f", r / t }')
	[ -n "$pps" ] || { echo "$out" | tail -n 4; return 1; }
	bm udp64_tx_pps "$pps"
}

# Fairness: g2 alone, then g2 while g1 is flooded both ways.
bench_fair() {
	local ip1 ip2 a_t a_p f_t f_p g
	ip1=$(lab_guest_ip 1); ip2=$(lab_guest_ip 2)
	if [ "$NETBACK" = ours ]; then
		xenstore-write "$(lab_backend_path 1)/worker-group" 0
		xenstore-write "$(lab_backend_path 2)/worker-group" 0
		sleep 1
		for g in 1 2; do
			echo "bench: $(lab_vif_name $g)-q0 in group $(xnb_group_of "$(lab_vif_name $g)-q0")"
		done
	fi
	a_p=$(ping_avg "$ip2")
	timeout -k 5 $((BENCH_T + 30)) iperf3 -c "$ip2" -t "$BENCH_T" -f m > /run/bench-fair.log 2>&1
	a_t=$(awk -v r="$(iperf_mbps /run/bench-fair.log)" 'BEGIN { printf "%.4f", r / 1000 }')
	local port=$((5400 + RANDOM % 90))
	lab_guest_exec 1 "iperf3 -s -1 -p $port -D" >/dev/null || return 1
	timeout -k 5 $((BENCH_T + 40)) iperf3 -c "$ip1" -P 4 -t $((BENCH_T + 8)) >/dev/null 2>&1 &
	timeout -k 5 $((BENCH_T + 40)) iperf3 -c "$ip1" -p $port -R -P 4 -t $((BENCH_T + 8)) >/dev/null 2>&1 &
	sleep 2
	f_p=$(ping_avg "$ip2")
	timeout -k 5 $((BENCH_T + 30)) iperf3 -c "$ip2" -t "$BENCH_T" -f m > /run/bench-fair.log 2>&1
	f_t=$(awk -v r="$(iperf_mbps /run/bench-fair.log)" 'BEGIN { printf "%.4f", r / 1000 }')
	wait
	bm fair_alone_gbps "$a_t"
	bm fair_flood_gbps "$f_t"
	bm fair_tput_ratio "$(awk -v a="$a_t" -v f="$f_t" 'BEGIN { if (a > 0) printf "%.3f", f / a }')"
	bm fair_ping_alone_ms "$a_p"
	bm fair_ping_flood_ms "$f_p"
	bm fair_ping_ratio "$(awk -v a="$a_p" -v f="$f_p" 'BEGIN { if (a > 0 && f != "nan") printf "%.3f", f / a }')"
}

# Profile (LAB_PERF=1 puts perf in /lab/perf): TCP DIR with g1..gN, like
# bench_tcp, while perf samples every dom0 vcpu; prints the hottest
# symbols.  Not a measurement: it runs after them, in repetition 1 only.
# A sample in the hypercall stub is named by its caller, so that a vcpu
# idling in Xen (xen_safe_halt) is told apart from grant copies.
bench_profile() {	# DIR N
	local dir=$1 n=$2 i
	local perf="env LD_LIBRARY_PATH=/lab/perf/lib /lab/perf/perf"
	echo 0 > /proc/sys/kernel/kptr_restrict
	echo -1 > /proc/sys/kernel/perf_event_paranoid
	# 10 s of load: 2 s to ramp up, 6 s recorded, slack.
	tcp_clients "$dir" "$n" 10 /run/bench-prof
	sleep 2
	# Xen's view too: perf in a PV dom0 sees little of the time its vcpus
	# spend inside hypercalls (grant copies), and nothing of the guests.
	xentop -b -d 3 -i 2 2>/dev/null | awk '$1 == "NAME" { n++; next } n == 2 { printf "%s %s%% ", $1, $4 }
		END { print "" }' | sed "s/^/bench-prof $NETBACK $BENCH_CFG $dir n=$n: xentop cpu: /" &
	$perf record -q -a -g -e cpu-clock -F 499 -o /run/perf.data -- sleep 6 2>&1 | tail -n 2
	wait
	for ((i = 1; i <= n; i++)); do
		grep -q receiver /run/bench-prof-$i.log || tail -n 2 /run/bench-prof-$i.log
		echo "bench-prof $NETBACK $BENCH_CFG $dir n=$n: load g$i $(iperf_mbps /run/bench-prof-$i.log) Mbit/s"
	done
	$perf script -i /run/perf.data -F ip,sym 2>/dev/null | awk -v RS= -F '\n' '
		function name(l) { sub(/^[ \t]*[0-9a-f]+ /, "", l); return l }
		{
			leaf = name($1)
			if (leaf ~ /^xen_hypercall/ && NF > 1) leaf = "hypercall<-" name($2)
			n[leaf]++; all++
		}
		END { for (k in n) printf "%6.2f%% %s\n", 100 * n[k] / all, k }' |
		sort -rn | head -n 25 | sed "s/^ */bench-prof $NETBACK $BENCH_CFG $dir n=$n: /"
	rm -f /run/perf.data
}

# The ceiling: TCP over veth between two namespaces (no Xen in the path).
bench_veth() {
	local out
	modprobe veth 2>/dev/null
	ip netns add xnbA && ip netns add xnbB || return 1
	ip link add xnbva netns xnbA type veth peer name xnbvb netns xnbB || return 1
	ip -n xnbA addr add 10.99.0.1/24 dev xnbva && ip -n xnbB addr add 10.99.0.2/24 dev xnbvb
	ip -n xnbA link set xnbva up; ip -n xnbB link set xnbvb up
	ip -n xnbA link set lo up; ip -n xnbB link set lo up
	ip netns exec xnbB iperf3 -s -1 -p 5401 -D
	sleep 1
	load_begin
	ip netns exec xnbA timeout -k 5 $((BENCH_T + 30)) iperf3 -c 10.99.0.2 -p 5401 -t "$BENCH_T" -f m \
		> /run/bench-veth.log 2>&1
	bm veth_cpu_s "$(fsub "$(bench_dom0_cpu)" "$L_CPU")"
	ip netns del xnbA; ip netns del xnbB
	grep -q receiver /run/bench-veth.log || { tail -n 3 /run/bench-veth.log; return 1; }
	bm veth_gbps "$(awk -v r="$(iperf_mbps /run/bench-veth.log)" 'BEGIN { printf "%.4f", r / 1000 }')"
}

# One configuration, one repetition (run under `timeout` by the main loop).
bench_cycle() {	# NAME PARAMS REP VIFS(0|1)
	local params=$2 vifs=$4 m0 t0 k n dir
	BENCH_CFG=$1 BENCH_REP=$3
	bench_progress "start (params '$params')"
	lab_destroy_all >/dev/null 2>&1
	lab_unload_backend
	sync; echo 3 > /proc/sys/vm/drop_caches
	m0=$(bench_mem)
	lab_load_backend "$params"
	bm threads_0vif "$(bench_threads)"
	if [ "$vifs" = 1 ]; then
		# 1 vif, then 15 more hot-attached one by one (xl plugging many at
		# once runs into libxl's 10 s InitWait timeout under TCG).
		t0=$(now)
		lab_guest_start 1
		bm boot1_s "$(fsub "$(now)" "$t0")"
		sleep 2
		bm mem_1vif_kib $(($(bench_mem) - m0))
		bm threads_1vif "$(bench_threads)"
		t0=$(now)
		for ((k = 1; k < 16; k++)); do
			# shellcheck disable=SC2046
			xl network-attach g1 $(lab_vif_spec 1 $k | tr , ' ') >/dev/null ||
				lab_fail "network-attach g1 $k"
		done
		for ((k = 1; k < 16; k++)); do lab_wait_vif 1 $k 120; done
		bm connect16_s "$(fsub "$(now)" "$t0")"
		sleep 2
		bm mem_16vif_kib $(($(bench_mem) - m0))
		bm threads_16vif "$(bench_threads)"
		bench_progress "16 vifs connected"
		lab_destroy_all > /dev/null 2>&1
	fi
	for ((n = 1; n <= BENCH_GUESTS; n++)); do lab_guest_create $n; done
	for ((n = 1; n <= BENCH_GUESTS; n++)); do lab_guest_wait $n; done
	bm threads_guests "$(bench_threads)" n="$BENCH_GUESTS"
	bench_progress "$BENCH_GUESTS guests up"
	for n in 1 2 4; do
		[ "$n" -le "$BENCH_GUESTS" ] || continue
		for dir in tx rx; do
			( bench_tcp $dir $n ) || bench_err "tcp_${dir}_$n"
		done
	done
	( bench_udp ) || bench_err udp
	( bench_fair ) || bench_err fair
	if [ "$BENCH_REP" = 1 ] && [ -x /lab/perf/perf ]; then
		( bench_profile rx "$BENCH_GUESTS" ) || bench_err profile
		( bench_profile tx "$BENCH_GUESTS" ) || bench_err profile
	fi
	bench_progress "done"
	lab_destroy_all > /dev/null 2>&1
}

bench_vif_script() {
	cat > $BENCH_VIF_SCRIPT <<'SCRIPT'
#!/bin/sh
# libxl vif hotplug: $1 online|offline, env vif=<netdev>, XENBUS_PATH.
case $1 in
online|add)
	ip link set dev "$vif" master xenbr0 && ip link set dev "$vif" up &&
		exec xenstore-write "$XENBUS_PATH/hotplug-status" connected
	exit 1 ;;
esac
exit 0
SCRIPT
	chmod +x $BENCH_VIF_SCRIPT
}

[ -n "${BENCH_LIB_ONLY:-}" ] && return 0

bench_vif_script

echo "XNB-METRIC bench-info dom0_kernel=$(uname -r) dom0_vcpus=$(nproc)" \
	"dom0_mem_kib=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)" \
	"xen=$(xl info | awk '$1 == "xen_version" { print $3 }')" \
	"reps=$BENCH_REPS t=$BENCH_T vifs=$BENCH_VIFS guest_mem=$LAB_GUEST_MEM"
ncpu=$(nproc)
if [ "$NETBACK" = ours ]; then
	# The default (one group per vcpu, kthread) first: with BENCH_VIFS=first
	# it is the one compared with stock on threads, memory and connect time.
	configs=("g$ncpu-kthread|groups=$ncpu worker=kthread" "g$ncpu-tasklet|groups=$ncpu worker=tasklet"
		"g1-kthread|groups=1 worker=kthread" "g1-tasklet|groups=1 worker=tasklet")
else
	configs=("stock|")
fi
vifs_done=
for ((rep = 1; rep <= BENCH_REPS; rep++)); do
	BENCH_REP=$rep BENCH_CFG=veth
	( bench_veth ) || bench_err veth
	for c in "${configs[@]}"; do
		case " ${BENCH_ONLY:-${c%%|*}} " in *" ${c%%|*} "*) ;; *) continue ;; esac
		v=1
		[ "$BENCH_VIFS" = first ] && [ -n "$vifs_done" ] && v=0
		vifs_done=1
		BENCH_CFG=${c%%|*}
		timeout -k 10 "$BENCH_CYCLE_TIMEOUT" bash -c \
			". /lab/lib.sh; BENCH_LIB_ONLY=1 . /lab/scenarios/bench-full.sh; bench_cycle '${c%%|*}' '${c#*|}' $rep $v" ||
			bench_err "cycle rc=$?"
	done
done
lab_destroy_all > /dev/null 2>&1
lab_load_backend
return 0
