# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The bench library: what the bench-* scenarios measure and how
# (bench/README.md describes the figures).  Sourced in dom0 after lib.sh
# and xnb.sh: the lab's, or a real host's with bench/bench-host.sh (then
# LAB_DIR, LAB_RUN, LAB_BRIDGE... are its own: lib.sh); bench/bench.sh
# also sources it on the host, for the configuration table and the knobs
# only (nothing here runs at source time except definitions).
#
# Every figure is one line on the console, never an assertion:
#
#   XNB-METRIC bench b=<ours|stock> c=<config> r=<rep> m=<metric> [n=<guests>] v=<value>
#
# A failing step only loses its own figures (logged as m=error).

# The configurations, in the order a repetition runs them (the next one
# runs them backwards); the first one of a backend is its default (for
# ours, the one compared with stock on every row).  {N} is the number of
# dom0 vcpus.  "sets" names the runs that include the line: full (make
# bench), wide (BENCH_SET=wide: every configuration of ours), quick (make
# bench QUICK=1 and make check), profile (bench-profile).  Read by
# bench_configs below and by bench/aggregate.py.
BENCH_CONFIGS='
# name        backend  sets                     module parameters
g{N}-kthread  ours     full,wide,quick,profile  groups={N} worker=kthread
g{N}-tasklet  ours     wide                     groups={N} worker=tasklet
g1-kthread    ours     wide                     groups=1 worker=kthread
g1-tasklet    ours     wide,profile             groups=1 worker=tasklet
stock         stock    full,wide,quick,profile
'

# bench_configs SET BACKEND [N]: "name|parameters" lines of BACKEND's
# configurations in SET (or "all"), with {N} = N (default: nproc).
bench_configs() {
	echo "$BENCH_CONFIGS" | awk -v set="$1" -v b="$2" -v n="${3:-$(nproc)}" '
		/^[ \t]*(#|$)/ { next }
		$2 == b && (set == "all" || index("," $3 ",", "," set ",")) {
			p = ""
			for (i = 4; i <= NF; i++) p = p (p == "" ? "" : " ") $i
			line = $1 "|" p
			gsub(/[{]N[}]/, n, line)
			print line
		}'
}

# bench_selected SET BACKEND [N]: the configurations a run of SET does:
# SET's, or with BENCH_ONLY="name ..." those of all BACKEND's it names.
bench_selected() {
	local c
	[ -n "${BENCH_ONLY:-}" ] || { bench_configs "$@"; return; }
	bench_configs all "$2" "${3:-}" | while IFS= read -r c; do
		case " $BENCH_ONLY " in *" ${c%%|*} "*) echo "$c" ;; esac
	done
}

# The groups of rows a cycle can run (BENCH_ROWS picks some), in the
# order it runs them: the 1/16/64-vif phase, TCP with 1, 2, 4 guests and
# with 8 (scale: 4 small ones more), UDP 64 B with one guest, the 64 B
# floods of all guests at once (flood) and a ping to one more guest
# during them (floodping), what one packet costs under the floods and
# TCP, counted with Xen's trace on (count), a guest of 2 queues (mq),
# fairness, the balancer.
BENCH_ROW_NAMES="vifs tcp scale udp flood floodping count mq fair rebalance"

# bench_knobs SET: the knobs (bench/README.md) for a full or quick run,
# keeping what the environment already set.  QUICK is one repetition,
# whatever is set, without the rows that boot guests of their own (the
# ping guest of the floods, scale, mq, the 64-vif point) and without
# count (Xen's trace).  The 1/16-vif phase runs once per backend
# (bench_run) unless BENCH_VIFS=all.  On a real host (BENCH_HOST=1)
# count runs only when BENCH_ROWS names it: Xen keeps the trace buffers
# it allocates until it reboots.
bench_knobs() {
	if [ "$1" = quick ]; then
		BENCH_REPS=1
		BENCH_T=${BENCH_T:-2} BENCH_GUESTS=${BENCH_GUESTS:-2}
		BENCH_CYCLE_TIMEOUT=${BENCH_CYCLE_TIMEOUT:-600}
		BENCH_ROWS=${BENCH_ROWS:-$(bench_rows_but floodping scale mq count)}
		export BENCH_VIFS_MAX=${BENCH_VIFS_MAX:-16}
	fi
	[ "${BENCH_HOST:-0}" = 1 ] && BENCH_ROWS=${BENCH_ROWS:-$(bench_rows_but count)}
	export BENCH_ROWS=${BENCH_ROWS:-$BENCH_ROW_NAMES}
	export BENCH_REPS=${BENCH_REPS:-5} BENCH_T=${BENCH_T:-10}
	export BENCH_VIFS=${BENCH_VIFS:-first} BENCH_GUESTS=${BENCH_GUESTS:-4}
	export BENCH_CYCLE_TIMEOUT=${BENCH_CYCLE_TIMEOUT:-1200}
	export BENCH_REBALANCE_MS=${BENCH_REBALANCE_MS:-500}
}

# bench_rows_but NAME...: BENCH_ROW_NAMES without those.
bench_rows_but() {
	local r out=""
	for r in $BENCH_ROW_NAMES; do
		case " $* " in *" $r "*) ;; *) out+="${out:+ }$r" ;; esac
	done
	echo "$out"
}
# bench_row NAME: this run does the rows NAME (BENCH_ROWS).
bench_row() { case " ${BENCH_ROWS:-$BENCH_ROW_NAMES} " in *" $1 "*) return 0 ;; esac; return 1; }
# bench_rows_bad: the names in BENCH_ROWS that are no group of rows.
bench_rows_bad() {
	local r
	for r in ${BENCH_ROWS:-}; do
		case " $BENCH_ROW_NAMES " in *" $r "*) ;; *) echo "$r" ;; esac
	done
}

BENCH_CFG=${BENCH_CFG:--} BENCH_REP=${BENCH_REP:-0}

# Every bench vif uses the lean hotplug script (lib.sh's
# lab_lean_vif_script: bridge port + hotplug-status) instead of
# vif-bridge: the latter serialises on a lock and takes seconds per vif
# under TCG.  Same for both backends; lab_guest_create picks this spec up.
BENCH_VIF_SCRIPT=${LAB_RUN:-/run}/xnb-bench-vif
lab_vif_spec() { echo "mac=$(lab_guest_mac "$1" "$2"),bridge=$LAB_BRIDGE,script=$BENCH_VIF_SCRIPT"; }
bench_vif_script() { lab_lean_vif_script "$BENCH_VIF_SCRIPT"; }

# --- output ----------------------------------------------------------------------
bm() {	# bm METRIC VALUE [k=v ...]
	local m=$1 v=$2; shift 2
	[ -n "$v" ] || v=nan
	echo "XNB-METRIC bench b=$NETBACK c=$BENCH_CFG r=$BENCH_REP m=$m${*:+ $*} v=$v"
}
bench_err() { echo "XNB-METRIC bench b=$NETBACK c=$BENCH_CFG r=$BENCH_REP m=error what=$1 v=1"; }
# bench_skip WHAT WHY: a row this cycle cannot measure (listed, not an error).
bench_skip() {
	echo "XNB-METRIC bench b=$NETBACK c=$BENCH_CFG r=$BENCH_REP m=skip what=$1 why=${2// /+} v=1"
}
bench_progress() { echo "XNB-LOG bench $NETBACK $BENCH_CFG rep $BENCH_REP: $* (dom0 uptime $(cut -d' ' -f1 /proc/uptime))"; }
now() { date +%s.%N; }
fsub() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f\n", a - b }'; }
# fgbps MBPS: Mbit/s as Gbit/s, the unit of every *_gbps figure.
fgbps() { awk -v r="$1" 'BEGIN { printf "%.4f\n", r / 1000 }'; }

# --- probes ----------------------------------------------------------------------
# dom0 Slab + VmallocUsed, KiB.
bench_mem() { awk '$1 == "Slab:" || $1 == "VmallocUsed:" { s += $2 } END { print s }' /proc/meminfo; }
# Backend threads: ours napi/xnb-gN-0 (threaded NAPI), stock per-queue
# vifD.K-qN-* kthreads.
bench_threads() { ps -e -o comm= | grep -cE "$BENCH_THREADS_RE" || true; }
# Domain-0 CPU seconds so far (all vcpus).
bench_dom0_cpu() { xl list Domain-0 | awk 'NR == 2 { print $6 }'; }
# bench_vif_stat bytes|packets: the sum over every vif netdev, both
# directions (each backend's own netdev statistics).
bench_vif_stat() {
	local f s=0
	for f in /sys/class/net/vif*/statistics/rx_"$1" /sys/class/net/vif*/statistics/tx_"$1"; do
		[ -r "$f" ] && s=$((s + $(cat "$f")))
	done
	echo $s
}
bench_vif_bytes() { bench_vif_stat bytes; }
# bench_vif_irqs: events taken from the guests so far, all CPUs: the
# interrupts of the vif queues' channels (vifD.K-qN, stock adding
# -tx/-rx), counted by the kernel the same way for either backend.
bench_vif_irqs() {
	awk '$1 ~ /^[0-9]+:$/ && $NF ~ /^vif[0-9]+\.[0-9]+-q[0-9]+/ {
		for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i } END { print s + 0 }' /proc/interrupts
}
# bench_groups [KEYS]: the debugfs group counters named by KEYS (default
# "passes packets batches ops full_flushes busy_ms"), each summed over
# the groups, on one line (zeros for stock).
bench_groups() {
	local keys=${1:-passes packets batches ops full_flushes busy_ms}
	[ "$NETBACK" = ours ] || { echo "$keys" | awk '{ for (i = 1; i <= NF; i++) printf "0 "; print "" }'; return; }
	xnb_groups_file 2>/dev/null | awk -v keys="$keys" '
		BEGIN { n = split(keys, k) }
		/^group / { for (i = 1; i < NF; i++) s[$i] += $(i + 1) }
		END { for (i = 1; i <= n; i++) printf "%d ", s[k[i]]; print "" }'
}
# bench_mbps FILE: receiver-side Mbit/s of one iperf3 client output (0 if none).
bench_mbps() { lab_iperf_result tcp < "$1" || echo 0; }
# ping_avg IP: average RTT in ms of 10 pings (nan if none came back).
ping_avg() {
	ping -c 10 -i 0.2 -W 2 "$1" 2>/dev/null |
		awk -F/ '/^(rtt|round-trip)/ { print $5; f = 1 } END { if (!f) print "nan" }'
}

# Snapshot before/after a load phase and emit CPU per GB and group stats;
# load_end leaves the dom0 CPU seconds of the phase in L_DCPU.
load_begin() {
	L_CPU=$(bench_dom0_cpu) L_BYTES=$(bench_vif_bytes) L_GRP=$(bench_groups)
	L_PKTS=$(bench_vif_stat packets) L_IRQS=$(bench_vif_irqs) L_T=$(now)
}
load_end() {	# load_end TAG [k=v]
	local tag=$1 cpu bytes grp pkts irqs; shift
	cpu=$(bench_dom0_cpu); bytes=$(bench_vif_bytes); grp=$(bench_groups)
	pkts=$(($(bench_vif_stat packets) - L_PKTS)) irqs=$(($(bench_vif_irqs) - L_IRQS))
	# What the vifs moved, whoever received it, and the guests' events
	# each packet cost.
	bm "vif_kpps_$tag" "$(awk -v p="$pkts" -v t="$(fsub "$(now)" "$L_T")" 'BEGIN { if (t > 0) printf "%.3f", p / t / 1000 }')" "$@"
	bm "irqs_per_pkt_$tag" "$(awk -v i="$irqs" -v p="$pkts" 'BEGIN { if (p > 0) printf "%.3f", i / p }')" "$@"
	L_DCPU=$(fsub "$cpu" "$L_CPU")
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

# --- like with like: kprobe counts in dom0 -----------------------------------------
# Grant-copy hypercalls (with their ops) and notifications to the guests,
# counted the same way whichever backend runs: a tracefs kprobe event at
# the entry of each function that issues one, and a hist trigger on it
# that counts its hits by the value of one argument (in the kernel, no
# trace buffer).  BENCH_KP_COPY: "BACKEND FUNCTION ARGUMENT" per line,
# the functions that issue one GNTTABOP_copy hypercall per call and the
# argument (1-based) that holds its ops; BACKEND "any" is probed
# whatever the backend, a backend's name only with it.  Every probe of
# the backend must be placed, else the copy figures are not measured.
# Stock issues every copy through the kernel's gnttab_batch_copy()
# (batch, count); ours through its own xnb_copy_issue(group, ops, n)
# (drivers/net/xen-netback/copy.c says why) and its control ring's
# through gnttab_batch_copy().  Both notify a guest with
# notify_remote_via_irq(irq): only the irqs of vif queues count (by
# their names in /proc/interrupts: vifD.K-qN, stock adding -tx/-rx).
# Stock maps (gnttab_map_refs) what it does not copy of a large guest TX
# packet; no 64 B packet has such a part.  A probe at a function's entry
# goes through ftrace, not a trap: a few us per call under TCG, paid
# per call, so by the backend that makes more calls (BENCH_KPROBES=0
# leaves them out).
BENCH_KP_COPY='
any   gnttab_batch_copy           2
ours  xen_netback:xnb_copy_issue  3
'
BENCH_KP_NOTIFY=notify_remote_via_irq
BENCH_KP_HIST='hist:keys=x'

# bench_kp_dir: the tracefs directory, when it has kprobe events.
bench_kp_dir() {
	local t
	t=$(xnb_tracefs) && [ -w "$t/kprobe_events" ] && echo "$t"
}
# bench_kp_clear T: our kprobe events gone, hist triggers first (an event
# with a trigger cannot be removed); a cycle cut short leaves them.
bench_kp_clear() {
	local t=$1 e evs
	for e in "$t"/events/xnb_bench/*/trigger; do
		[ -e "$e" ] && echo "!$BENCH_KP_HIST" >> "$e" 2>/dev/null
	done
	# Read whole before the first removal.
	evs=$(awk '$1 ~ /^[pr]:xnb_bench\// { print substr($1, 3) }' "$t/kprobe_events" 2>/dev/null)
	while read -r e; do
		[ -n "$e" ] && echo "-:$e" >> "$t/kprobe_events" 2>/dev/null
	done <<< "$evs"
	return 0
}
# bench_kp_leftovers: bench_kp_clear where tracefs is mounted already
# (before a module swap: no probe of ours outlives its cycle).
bench_kp_leftovers() {
	local t
	for t in /sys/kernel/tracing /sys/kernel/debug/tracing; do
		[ -e "$t/kprobe_events" ] || continue
		grep -q 'xnb_bench/' "$t/kprobe_events" 2>/dev/null && bench_kp_clear "$t"
		return 0
	done
	return 0
}
# bench_kp_add T EVENT FUNCTION ARG TYPE: kprobe event xnb_bench/EVENT at
# FUNCTION's entry with its argument ARG as field x (TYPE), counted by the
# hist trigger; fails (leaving nothing) when either is refused.  Always
# appended (>>): a write truncating kprobe_events removes every probe.
bench_kp_add() {
	echo "p:xnb_bench/$2 $3 x=\$arg$4:$5" >> "$1/kprobe_events" 2>/dev/null &&
		echo "$BENCH_KP_HIST" >> "$1/events/xnb_bench/$2/trigger" 2>/dev/null && return 0
	echo "-:xnb_bench/$2" >> "$1/kprobe_events" 2>/dev/null
	return 1
}
# bench_kp_hist T EVENT: "VALUE HITS" lines of EVENT's histogram, whose
# lines read "{ x:          3 } hitcount:        117".
bench_kp_hist() {
	awk '/hitcount:/ {
		k = $0; sub(/^[^:]*: */, "", k); sub(/[ }].*/, "", k)
		h = $0; sub(/.*hitcount: */, "", h); sub(/ .*/, "", h)
		print k, h
	}' "$1/events/xnb_bench/$2/hist"
}
# bench_kp_begin TAG / bench_kp_end TAG [k=v ...]: around a load, like
# load_begin/load_end (same subshell).  The end emits
# kp_ops_per_call_TAG (ops over copy hypercalls) and kp_notify_per_pkt_TAG
# (notifications to vif queues over the packets through the vif netdevs,
# both directions), and the raw counts as a log line; a figure it cannot
# count is a skipped row (bench_skip), never an error.
bench_kp_begin() {
	local tag=$1 t b f a i=0 why=""
	KP_T="" KP_COPY="" KP_NOTIFY=""
	if [ "${BENCH_KPROBES:-1}" != 1 ]; then
		bench_skip "kprobes_$tag" "BENCH_KPROBES=$BENCH_KPROBES"
		return 0
	fi
	t=$(bench_kp_dir) || { bench_skip "kprobes_$tag" "no tracefs with kprobe events in dom0"; return 0; }
	bench_kp_clear "$t"
	while read -r b f a; do
		[ "$b" = any ] || [ "$b" = "$NETBACK" ] || continue
		i=$((i + 1))
		if bench_kp_add "$t" "copy$i" "$f" "$a" u32; then
			KP_COPY+=" copy$i"
		else
			why="${why:+$why, }cannot probe $f"
		fi
	done <<< "$BENCH_KP_COPY"
	if [ -n "$why" ] || [ -z "$KP_COPY" ]; then
		bench_skip "kp_ops_per_call_$tag" "${why:-no copy function for $NETBACK}"
		KP_COPY=""
	fi
	if bench_kp_add "$t" notify "$BENCH_KP_NOTIFY" 1 s32; then
		KP_NOTIFY=notify
	else
		bench_skip "kp_notify_per_pkt_$tag" "cannot probe $BENCH_KP_NOTIFY"
	fi
	KP_T=$t KP_PKTS=$(bench_vif_stat packets)
}
bench_kp_end() {
	local tag=$1 t=$KP_T e pk c o calls=0 ops=0 irqs nv=0 na=0
	shift
	[ -n "$t" ] || return 0
	pk=$(($(bench_vif_stat packets) - KP_PKTS))
	for e in $KP_COPY; do
		# Not <(...): dom0 has no /dev/fd.
		read -r c o <<< "$(bench_kp_hist "$t" "$e" | awk '{ c += $2; o += $1 * $2 } END { printf "%d %d\n", c, o }')"
		calls=$((calls + c)) ops=$((ops + o))
	done
	if [ -n "$KP_NOTIFY" ]; then
		irqs=" $(awk '$1 ~ /^[0-9]+:$/ && $NF ~ /^vif[0-9]+\.[0-9]+-q[0-9]+/ { printf "%d ", $1 }' /proc/interrupts)"
		read -r nv na <<< "$(bench_kp_hist "$t" notify | awk -v irqs="$irqs" '
			{ if (index(irqs, " " $1 " ")) v += $2; else a += $2 } END { printf "%d %d\n", v, a }')"
	fi
	bench_kp_clear "$t"
	echo "bench: $tag kprobes ($NETBACK): ${KP_COPY:+$calls copy hypercalls, $ops ops, }${KP_NOTIFY:+$nv notifications to vif queues and $na to other irqs, }$pk packets through the vifs"
	[ -n "$KP_COPY" ] && bm "kp_ops_per_call_$tag" \
		"$(awk -v o="$ops" -v c="$calls" 'BEGIN { if (c > 0) printf "%.2f", o / c }')" "$@"
	[ -n "$KP_NOTIFY" ] && bm "kp_notify_per_pkt_$tag" \
		"$(awk -v v="$nv" -v p="$pk" 'BEGIN { if (p > 0) printf "%.3f", v / p }')" "$@"
	return 0
}

# The rows themselves, beside this file (the lab's /lab, a host's stage,
# or the repository).
# shellcheck source=tests/lab/bench-rows.sh
. "${BASH_SOURCE[0]%/*}/bench-rows.sh"

# --- one cycle ---------------------------------------------------------------------
# On a real host (bench/bench-host.sh sets BENCH_HOST=1, BENCH_HOST_DOMIDS
# and BENCH_HOST_ABORT) the bench's own guests are those it created, by
# domid: "DOMID gN" lines in BENCH_HOST_DOMIDS.  A guest named g<N> that
# it did not create is someone else's, never destroyed.
# bench_host_own N: record gN, just created.
bench_host_own() {
	[ "${BENCH_HOST:-0}" = 1 ] || return 0
	echo "$(lab_domid "$1") g$1" >> "$BENCH_HOST_DOMIDS"
}
# bench_own_domains: the domains to destroy: on a host the recorded ones
# still there (same domid, same name), in the lab every g<N>.
bench_own_domains() {
	if [ "${BENCH_HOST:-0}" = 1 ]; then
		xl list | awk -v f="$BENCH_HOST_DOMIDS" '
			BEGIN { while ((getline l < f) > 0) own[l] = 1 }
			NR > 1 && (($2 " " $1) in own) { print $2 }'
		return 0
	fi
	xl list | awk 'NR > 2 && $1 ~ /^g[0-9]+$/ { print $1 }'
}
# bench_host_guard: on a host only, before the backend is unloaded:
# nothing but dom0 and the bench's own guests may exist (a domain started
# during the run would lose its vifs to the module swap), and once the
# bench's guests are gone nothing may hold the module.  Else the reason
# goes to BENCH_HOST_ABORT and it fails: bench_run stops there, and
# bench-host.sh ends the whole run (exit 3) without unloading anything.
bench_host_guard() {
	local l others="" mine=0 refs
	[ "${BENCH_HOST:-0}" = 1 ] || return 0
	l=$(xl list 2>&1) || {
		echo "'xl list' failed: $l" > "$BENCH_HOST_ABORT"
		return 1
	}
	# A guest of ours still dying is listed as "(null)".
	while read -r l; do
		if grep -qxF "$l" "$BENCH_HOST_DOMIDS" 2>/dev/null ||
		   { [ "${l#* }" = "(null)" ] && grep -q "^${l%% *} " "$BENCH_HOST_DOMIDS" 2>/dev/null; }; then
			mine=1
		else
			others+=" ${l#* } (domid ${l%% *})"
		fi
	done < <(echo "$l" | awk 'NR > 1 && $2 != 0 { print $2, $1 }')
	if [ -n "$others" ]; then
		echo "domains not the bench's appeared during the run:$others" > "$BENCH_HOST_ABORT"
		return 1
	fi
	refs=$(cat /sys/module/xen_netback/refcnt 2>/dev/null)
	if [ "$mine" = 0 ] && [ -n "$refs" ] && [ "$refs" != 0 ]; then
		echo "something holds xen-netback (refcnt $refs) with no guest of the bench left" > "$BENCH_HOST_ABORT"
		return 1
	fi
	return 0
}
# bench_destroy_all: lab_destroy_all with the guests destroyed at once, not
# one after the other (an xl destroy takes 5-10 s under TCG), and only the
# bench's own (bench_own_domains: on a real host nothing else is touched).
bench_destroy_all() {
	local d
	for d in $(bench_own_domains); do
		xl destroy "$d" >/dev/null 2>&1 &
	done
	wait
	lab_wait 60 lab_no_vifs
}

# bench_vifs_fill G: g<G>'s vifs 1..15 hot-attached one by one (xl
# plugging many at once runs into libxl's 10 s InitWait timeout under
# TCG), connected.  16 vifs a guest: 16 queues' grant references (514
# each in netfront) fit a domU's default grant table.
bench_vifs_fill() {
	local k
	for ((k = 1; k < 16; k++)); do
		# shellcheck disable=SC2046
		xl network-attach "g$1" $(lab_vif_spec "$1" $k | tr , ' ') >/dev/null ||
			lab_fail "network-attach g$1 $k"
	done
	for ((k = 1; k < 16; k++)); do lab_wait_vif "$1" $k 120; done
}

# 1/16/64-vif phase: the backend loaded with no vif yet, g1 with 1 vif,
# then 16 (g1's 15 more), then 64 (g2..g4 booted, 16 vifs each): boot
# and connect times, memory growth over MEM0, threads.
bench_vifs() {	# MEM0
	local m0=$1 t0 g
	sleep 2	# the module's init sections are freed after a grace period
	bm mem_0vif_kib $(($(bench_mem) - m0))
	t0=$(now)
	lab_guest_create 1
	bench_host_own 1
	lab_guest_wait 1
	bm boot1_s "$(fsub "$(now)" "$t0")"
	sleep 2
	bm mem_1vif_kib $(($(bench_mem) - m0))
	bm threads_1vif "$(bench_threads)"
	t0=$(now)
	bench_vifs_fill 1
	bm connect16_s "$(fsub "$(now)" "$t0")"
	sleep 2
	bm mem_16vif_kib $(($(bench_mem) - m0))
	bm threads_16vif "$(bench_threads)"
	bench_progress "16 vifs connected"
	if [ "${BENCH_VIFS_MAX:-64}" -ge 64 ]; then
		t0=$(now)
		bench_guests_from 2 4
		for g in 2 3 4; do bench_vifs_fill $g; done
		bm connect64_s "$(fsub "$(now)" "$t0")"
		sleep 2
		bm mem_64vif_kib $(($(bench_mem) - m0))
		bm threads_64vif "$(bench_threads)"
		bench_progress "64 vifs connected"
	fi
	bench_destroy_all > /dev/null 2>&1
}

# bench_guests N: g1..gN up (1 vif each); bench_guests_from FIRST LAST:
# g<FIRST>..g<LAST>.
bench_guests() { bench_guests_from 1 "$1"; }
bench_guests_from() {
	local i
	for ((i = $1; i <= $2; i++)); do lab_guest_create $i; bench_host_own $i; done
	for ((i = $1; i <= $2; i++)); do lab_guest_wait $i; done
}


# One configuration, one repetition (run under `timeout` by bench_run):
# the backend (NETBACK) reloaded with PARAMS, the 1/16-vif phase if VIFS
# is 1, then BENCH_GUESTS guests: TCP both ways with 1, 2, 4 of them, UDP
# both ways, the floods of all of them, fairness, the balancer (ours),
# each group of rows if BENCH_ROWS names it; with LAB_PERF=1, repetition
# 1 ends with a profile (after the figures).  Ours is loaded with
# rebalance_ms=BENCH_REBALANCE_MS (0: the balancer off, its row skipped)
# when the module knows the parameter (an unknown one would only be a
# warning to insmod, but the row would mean nothing).
bench_cycle() {	# NAME PARAMS REP VIFS(0|1)
	local params=$2 vifs=$4 m0 n dir t0 tg
	BENCH_CFG=$1 BENCH_REP=$3
	t0=$(now)
	if [ "$NETBACK" = ours ] && grep -qa rebalance_ms "$LAB_DIR/xen-netback.ko"; then
		params="$params rebalance_ms=$BENCH_REBALANCE_MS"
	fi
	bench_progress "start (params '$params')"
	bench_destroy_all >/dev/null 2>&1
	bench_host_guard || exit 3
	bench_kp_leftovers
	bench_trace_leftovers
	lab_unload_backend
	sync; echo 3 > /proc/sys/vm/drop_caches
	m0=$(bench_mem)
	lab_load_backend "$params"
	bm threads_0vif "$(bench_threads)"
	[ "$vifs" = 1 ] && bench_row vifs && bench_vifs "$m0"
	tg=$(now)
	bench_guests "$BENCH_GUESTS"
	bm guests_up_s "$(fsub "$(now)" "$tg")" n="$BENCH_GUESTS"
	bm threads_guests "$(bench_threads)" n="$BENCH_GUESTS"
	bench_progress "$BENCH_GUESTS guests up"
	for n in 1 2 4; do
		bench_row tcp || break
		[ "$n" -le "$BENCH_GUESTS" ] || continue
		for dir in tx rx; do
			( bench_tcp $dir $n ) || bench_err "tcp_${dir}_$n"
		done
	done
	if bench_row scale; then
		( bench_scale ) || bench_err scale
	fi
	if bench_row udp; then
		( bench_udp ) || bench_err udp
		( bench_udp_rx ) || bench_err udp_rx
	fi
	bench_row flood && bench_flood
	bench_row count && bench_count
	if bench_row mq; then
		( bench_mq ) || bench_err mq
	fi
	if bench_row fair; then
		( bench_fair ) || bench_err fair
	fi
	if [ "$NETBACK" = ours ] && bench_row rebalance; then
		( bench_rebalance ) || bench_err rebalance
	fi
	if [ "$BENCH_REP" = 1 ] && [ -x "$LAB_DIR/perf/perf" ]; then
		( bench_profile rx "$BENCH_GUESTS" ) || bench_err profile
		( bench_profile tx "$BENCH_GUESTS" ) || bench_err profile
		( bench_profile udp 1 ) || bench_err profile
		( bench_profile floodtx "$BENCH_GUESTS" ) || bench_err profile
	fi
	bench_progress "measured"
	bench_destroy_all > /dev/null 2>&1
	bm cycle_s "$(fsub "$(now)" "$t0")"
	bench_progress "done"
}

# --- whole runs (the scenarios) ------------------------------------------------------
# bench_run SET MODE: BENCH_REPS repetitions of the veth ceiling and a
# cycle (in its own bounded process) of every configuration bench_selected
# picks for SET (full, wide or quick).  MODE boot: the configurations of
# this boot's backend only (make check's bench-quick, one boot per
# backend).  MODE alt: those of every backend in BENCH_BACKENDS (default
# ours and stock; a stock boot has no module of ours) in one boot, the
# module switched per cycle and the order reversed every other repetition
# (ours, stock, then stock, ours): drift on the host hits both alike.
bench_run() {
	local set=$1 mode=$2 rep c b name v cfgs="" order vifs_done=" " boot=$NETBACK vrep
	bench_knobs "$set"
	bench_vif_script
	echo "XNB-METRIC bench-info dom0_kernel=$(uname -r) dom0_vcpus=$(nproc)" \
		"dom0_mem_kib=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)" \
		"xen=$(xl info | awk '$1 == "xen_version" { print $3 }')" \
		"reps=$BENCH_REPS t=$BENCH_T vifs=$BENCH_VIFS guest_mem=$LAB_GUEST_MEM" \
		"mode=$mode rebalance_ms=$BENCH_REBALANCE_MS rows=${BENCH_ROWS// /,}"
	for b in ${BENCH_BACKENDS:-ours stock}; do
		[ "$mode" = boot ] && [ "$b" != "$boot" ] && continue
		[ "$b" = ours ] && [ ! -f "$LAB_DIR/xen-netback.ko" ] && continue
		# "backend|name|parameters" lines.
		cfgs+=$(bench_selected "$set" "$b" | sed "s/^/$b|/")$'\n'
	done
	cfgs=$(echo "$cfgs" | sed '/^$/d')
	# The 1/16-vif phase once per backend, in repetition 2 when there is
	# one: repetition 1 starts right after dom0's boot (the first guest
	# boot there took twice as long) and always with the same backend.
	vrep=$((BENCH_REPS > 1 ? 2 : 1))
	for ((rep = 1; rep <= BENCH_REPS; rep++)); do
		BENCH_REP=$rep BENCH_CFG=veth
		( bench_veth ) || bench_err veth
		order=$cfgs
		[ $((rep % 2)) = 0 ] && order=$(echo "$cfgs" | tac)
		while IFS= read -r c; do
			[ -n "$c" ] || continue
			b=${c%%|*} c=${c#*|}
			name=${c%%|*}
			v=0
			if [ "$BENCH_VIFS" = all ]; then
				v=1
			elif [ "$rep" = "$vrep" ]; then
				case $vifs_done in *" $b "*) ;; *) v=1 vifs_done+="$b " ;; esac
			fi
			NETBACK=$b BENCH_CFG=$name
			# $LAB_DIR/config (read by lib.sh) sets the boot's NETBACK:
			# this cycle's comes after it.
			timeout -k 10 "$BENCH_CYCLE_TIMEOUT" bash -c \
				". \"\$LAB_DIR/lib.sh\"; . \"\$LAB_DIR/xnb.sh\"; . \"\$LAB_DIR/bench-lib.sh\"; NETBACK=$b; bench_cycle '$name' '${c#*|}' $rep $v" ||
				bench_err "cycle rc=$?"
			# bench-host: a cycle found the host no longer free.
			[ -s "${BENCH_HOST_ABORT:-/nonexistent}" ] && return 3
		done <<< "$order"
	done
	NETBACK=$boot
	bench_destroy_all > /dev/null 2>&1
	bench_host_guard || return 3
	bench_kp_leftovers
	bench_trace_leftovers
	lab_load_backend
}

# bench_profile_run: for each profile configuration (or those BENCH_ONLY
# names), BENCH_GUESTS guests and a profile of each load in
# BENCH_PROFILE: LOAD[/N] words, N guests (default: all of them), LOAD as
# bench_profile takes it; BENCH_PROFILE_REPS times (1), every other time
# in the reverse order.
BENCH_PROFILE_DEFAULT="rx/1 rx tx/1 tx udp/1 floodtx floodrx"
bench_profile_run() {
	local c cfgs guests w rep
	export BENCH_T=${BENCH_T:-10}
	guests=${BENCH_GUESTS:-4}
	bench_vif_script
	cfgs=$(bench_selected profile "$NETBACK")
	for ((rep = 1; rep <= ${BENCH_PROFILE_REPS:-1}; rep++)); do
		# Every other repetition backwards, as bench_run alternates.
		[ $((rep % 2)) = 0 ] && cfgs=$(echo "$cfgs" | tac)
		while IFS= read -r c; do
			BENCH_CFG=${c%%|*}
			lab_destroy_all > /dev/null 2>&1
			lab_unload_backend
			lab_load_backend "${c#*|}"
			bench_guests "$guests"
			for w in ${BENCH_PROFILE:-$BENCH_PROFILE_DEFAULT}; do
				case $w in
				*/*) bench_profile "${w%/*}" "${w#*/}" ;;
				*) bench_profile "$w" "$guests" ;;
				esac
			done
		done <<< "$cfgs"
	done
	lab_destroy_all > /dev/null 2>&1
	lab_unload_backend
	lab_load_backend
}
