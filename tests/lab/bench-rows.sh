# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The bench's rows: what each one loads and measures (bench/README.md
# describes the figures).  Sourced by bench-lib.sh, whose output, probe
# and kprobe helpers (bm, load_begin/load_end, bench_kp_*) these use;
# bench-lib.sh runs them in cycles.
# --- measurements ------------------------------------------------------------------
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
	local dir=$1 n=$2 i sum=0 log
	load_begin
	tcp_clients "$dir" "$n" "$BENCH_T" "$LAB_RUN/bench-tcp"
	wait
	load_end "$dir" n="$n"
	for ((i = 1; i <= n; i++)); do
		log=$LAB_RUN/bench-tcp-$i.log
		sum=$(awk -v s="$sum" -v r="$(bench_mbps "$log")" 'BEGIN { print s + r }')
		grep -q receiver "$log" || { tail -n 3 "$log"; bench_err "tcp_${dir}_g$i"; }
		echo "bench: tcp $dir $n g$i: $(grep -m1 receiver "$log")"
	done
	bm "tcp_${dir}_gbps" "$(fgbps "$sum")" n="$n"
}

# UDP 64-byte datagrams g1 -> dom0, sent by iperf3 in the guest: the
# datagrams dom0's server received, per second.
bench_udp() {
	local out got
	local port=$((5300 + RANDOM % 90))
	iperf3 -s -1 -p $port -D || return 1
	sleep 1
	load_begin
	out=$(lab_guest_exec 1 "iperf3 -c 192.0.2.1 -p $port -u -l 64 -b 1G -t $BENCH_T -f m" $((BENCH_T + 60)))
	load_end udp
	got=$(echo "$out" | lab_iperf_result udp) || { echo "$out" | tail -n 4; return 1; }
	bm udp64_tx_pps "$(awk -v r="$got" -v t="$BENCH_T" 'BEGIN { printf "%.0f", r / t }')"
}

# UDP 64-byte datagrams dom0 -> g1, sent by iperf3 in dom0 to a one-off
# server started in g1: the datagrams the guest received, per second (the
# receiver line of the client's output is the server's count).
bench_udp_rx() {
	local port=$((5500 + RANDOM % 90)) got
	lab_guest_exec 1 "iperf3 -s -1 -p $port -D" >/dev/null || return 1
	sleep 1
	load_begin
	timeout -k 5 $((BENCH_T + 30)) iperf3 -c "$(lab_guest_ip 1)" -p $port -u -l 64 -b 1G \
		-t "$BENCH_T" -f m > "$LAB_RUN/bench-udprx.log" 2>&1
	load_end udprx
	got=$(lab_iperf_result udp < "$LAB_RUN/bench-udprx.log") || { tail -n 4 "$LAB_RUN/bench-udprx.log"; return 1; }
	bm udp64_rx_pps "$(awk -v r="$got" -v t="$BENCH_T" 'BEGIN { printf "%.0f", r / t }')"
}

# --- the backend as the bottleneck: 64 B floods of several guests at once ------------
# Issue 19's rows, with N = BENCH_GUESTS guests each flooding through its
# own iperf3 pair at once (-u -l 64 -b 1G, as bench_udp): what the
# receivers counted in all, dom0's CPU per packet received, and the
# kprobe counts (bench_kp_*).  With floodping in BENCH_ROWS, one more
# guest, g<N+1>, is booted for this phase (and destroyed after it, so
# that the other rows keep their N guests) and pinged from dom0 idle,
# then while the others flood each way.

# bench_flood_servers N PORT: one-off iperf3 servers in dom0 on PORT+1..PORT+N.
bench_flood_servers() {
	local i
	for ((i = 1; i <= $1; i++)); do
		iperf3 -s -1 -p $(($2 + i)) -D || return 1
	done
	sleep 1
}
# bench_flood_sum PREFIX FIRST LAST: the datagrams received in all, from
# the iperf3 outputs PREFIX-FIRST.log..PREFIX-LAST.log, into FLOOD_SUM;
# fails, with an error row, when one of them has no result (a sum
# without one flow would read as a slower backend).
bench_flood_sum() {
	local i got
	FLOOD_SUM=0
	for ((i = $2; i <= $3; i++)); do
		if ! got=$(lab_iperf_result udp < "$1-$i.log"); then
			tail -n 4 "$1-$i.log"
			bench_err "${1##*/bench-}_g$i"
			return 1
		fi
		echo "bench: ${1##*/bench-} g$i: $got datagrams received"
		FLOOD_SUM=$((FLOOD_SUM + got))
	done
}
# bench_flood_ping: while a flood runs, the ping guest's RTT (ping_avg,
# 10 pings in 2 s, started 3 s in) into FLOOD_PMS; nothing without one.
bench_flood_ping() {
	FLOOD_PMS=""
	[ -n "${FLOOD_PING:-}" ] || return 0
	sleep $((BENCH_T >= 8 ? 3 : 1))
	FLOOD_PMS=$(ping_avg "$FLOOD_PING")
}
# bench_flood_end TAG N PREFIX: the figures of a flood of N guests
# (receivers' outputs PREFIX-1..N.log), once every flow has ended.
bench_flood_end() {
	local tag=$1 n=$2
	load_end "$tag" n="$n"
	bench_kp_end "$tag" n="$n"
	[ -n "$FLOOD_PMS" ] && bm "floodping_${tag#flood}_ms" "$FLOOD_PMS" n="$n"
	bench_flood_sum "$3" 1 "$n" || return 0
	bm "${tag}_pps" "$(awk -v s="$FLOOD_SUM" -v t="$BENCH_T" 'BEGIN { printf "%.0f", s / t }')" n="$n"
	bm "cpu_us_per_pkt_$tag" \
		"$(awk -v c="$L_DCPU" -v s="$FLOOD_SUM" 'BEGIN { if (s > 0) printf "%.1f", c * 1e6 / s }')" n="$n"
}

# bench_flood_tx N: g1..gN each send 64 B UDP to a server of its own in dom0.
bench_flood_tx() {
	local n=$1 i port=$((5700 + RANDOM % 20 * 10))
	bench_flood_servers "$n" $port || return 1
	load_begin
	bench_kp_begin floodtx
	for ((i = 1; i <= n; i++)); do
		lab_guest_exec $i "iperf3 -c 192.0.2.1 -p $((port + i)) -u -l 64 -b 1G -t $BENCH_T -f m" \
			$((BENCH_T + 60)) > "$LAB_RUN/bench-floodtx-$i.log" 2>&1 &
	done
	bench_flood_ping
	wait
	bench_flood_end floodtx "$n" "$LAB_RUN/bench-floodtx"
}

# bench_flood_rx N: dom0 sends 64 B UDP to a one-off server in each of
# g1..gN at once (the receiver lines of dom0's clients are the guests'
# counts).
bench_flood_rx() {
	local n=$1 i port=$((5900 + RANDOM % 20 * 10))
	for ((i = 1; i <= n; i++)); do
		lab_guest_exec $i "iperf3 -s -1 -p $((port + i)) -D" > /dev/null || return 1
	done
	sleep 1
	load_begin
	bench_kp_begin floodrx
	for ((i = 1; i <= n; i++)); do
		timeout -k 5 $((BENCH_T + 30)) iperf3 -c "$(lab_guest_ip $i)" -p $((port + i)) -u -l 64 -b 1G \
			-t "$BENCH_T" -f m > "$LAB_RUN/bench-floodrx-$i.log" 2>&1 &
	done
	bench_flood_ping
	wait
	bench_flood_end floodrx "$n" "$LAB_RUN/bench-floodrx"
}

# bench_flood_bulk N: TCP g1->dom0 (dom0's client with -R, as bench_tcp)
# for BENCH_T s beside g2..gN's 64 B floods to dom0, which start 2 s
# before it and end about 2 s after it: the TCP rate, and the floods'
# packets received per second of their own run.
bench_flood_bulk() {
	local n=$1 i port=$((6100 + RANDOM % 20 * 10)) ft=$((BENCH_T + 4)) log=$LAB_RUN/bench-floodbulk.log
	if [ "$n" -lt 2 ]; then
		bench_skip floodbulk "one guest: no flood beside its TCP flow"
		return 0
	fi
	bench_flood_servers $((n - 1)) $port || return 1
	for ((i = 2; i <= n; i++)); do
		lab_guest_exec $i "iperf3 -c 192.0.2.1 -p $((port + i - 1)) -u -l 64 -b 1G -t $ft -f m" \
			$((ft + 60)) > "$LAB_RUN/bench-floodbulk-$i.log" 2>&1 &
	done
	sleep 2
	timeout -k 5 $((BENCH_T + 30)) iperf3 -c "$(lab_guest_ip 1)" -R -t "$BENCH_T" -f m > "$log" 2>&1
	wait
	if grep -q receiver "$log"; then
		echo "bench: floodbulk tcp g1: $(grep -m1 receiver "$log")"
		bm floodbulk_gbps "$(fgbps "$(bench_mbps "$log")")" n="$n"
	else
		tail -n 3 "$log"
		bench_err floodbulk_tcp
	fi
	bench_flood_sum "$LAB_RUN/bench-floodbulk" 2 "$n" || return 0
	bm floodbulk_pps "$(awk -v s="$FLOOD_SUM" -v t="$ft" 'BEGIN { printf "%.0f", s / t }')" n="$n"
}

# bench_flood: the flood rows of one cycle, g1..gN up (N = BENCH_GUESTS).
bench_flood() {
	local n=$BENCH_GUESTS p=$((BENCH_GUESTS + 1)) vif=""
	FLOOD_PING=""
	if bench_row floodping; then
		lab_guest_create $p
		bench_host_own $p
		lab_guest_wait $p
		FLOOD_PING=$(lab_guest_ip $p) vif=$(lab_vif_name $p)
		bm floodping_alone_ms "$(ping_avg "$FLOOD_PING")" n="$n"
	fi
	( bench_flood_tx "$n" ) || bench_err floodtx
	( bench_flood_rx "$n" ) || bench_err floodrx
	( bench_flood_bulk "$n" ) || bench_err floodbulk
	[ -n "$vif" ] || return 0
	lab_guest_destroy $p
	lab_wait 60 test ! -e "/sys/class/net/$vif" || echo "bench: $vif of g$p still there after its destroy"
}

# --- the scale curve and the 2-queue guest ----------------------------------------
# bench_extra_guests FIRST LAST [VCPUS]: g<FIRST>..g<LAST> up beside the
# cycle's, BENCH_EXTRA_MEM MiB each (small: the lab's 4 GiB host holds
# the cycle's 4 guests, dom0 and these); bench_extra_gone FIRST LAST:
# destroyed again, their vifs gone, so later rows find the cycle's.
bench_extra_guests() {
	LAB_GUEST_MEM=${BENCH_EXTRA_MEM:-128} LAB_GUEST_VCPUS=${3:-1} bench_guests_from "$1" "$2"
}
bench_extra_gone() {
	local i
	for ((i = $1; i <= $2; i++)); do lab_guest_destroy $i; done
	lab_wait 60 bench_guests_gone "$1" "$2"
}
# bench_guests_gone FIRST LAST: none of g<FIRST>..g<LAST> is left.
bench_guests_gone() {
	local i
	for ((i = $1; i <= $2; i++)); do
		[ -z "$(lab_domid $i)" ] || return 1
	done
}

# The scale curve's last point: TCP both ways with BENCH_SCALE guests
# (8), the cycle's BENCH_GUESTS and small ones booted for it.
bench_scale() {
	local n=${BENCH_SCALE:-8} dir
	[ "$n" -gt "$BENCH_GUESTS" ] || return 0
	bench_extra_guests $((BENCH_GUESTS + 1)) "$n"
	for dir in tx rx; do
		( bench_tcp $dir "$n" ) || bench_err "tcp_${dir}_$n"
	done
	bench_extra_gone $((BENCH_GUESTS + 1)) "$n"
}

# The 2-queue guest: g9 with 2 vcpus (so 2 queues), 4 TCP streams each
# way for BENCH_T s; for ours, which group serves each queue.
bench_mq() {
	local g=9 ip dir rev log tag
	bench_extra_guests $g $g 2
	ip=$(lab_guest_ip $g)
	if [ "$NETBACK" = ours ]; then
		for q in 0 1; do
			echo "bench: $(lab_vif_name $g)-q$q in group $(xnb_group_of "$(lab_vif_name $g)-q$q")"
		done
	fi
	for dir in tx rx; do
		rev="" tag=mq$dir log=$LAB_RUN/bench-mq-$dir.log
		[ $dir = tx ] && rev=-R
		load_begin
		timeout -k 5 $((BENCH_T + 30)) iperf3 -c "$ip" $rev -P 4 -t "$BENCH_T" -f m > "$log" 2>&1
		load_end $tag
		if grep -q "SUM.*receiver" "$log"; then
			echo "bench: mq $dir: $(grep "SUM.*receiver" "$log")"
			# The SUM line is the last receiver line: bench_mbps reads it.
			bm "mq_${dir}_gbps" "$(fgbps "$(bench_mbps "$log")")"
		else
			tail -n 3 "$log"
			bench_err "mq_$dir"
		fi
	done
	bench_extra_gone $g $g
}

# Fairness: g2 alone, then g2 while g1 is flooded both ways.
bench_fair() {
	local ip1 ip2 a_t a_p f_t f_p g port
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
	timeout -k 5 $((BENCH_T + 30)) iperf3 -c "$ip2" -t "$BENCH_T" -f m > "$LAB_RUN/bench-fair.log" 2>&1
	a_t=$(fgbps "$(bench_mbps "$LAB_RUN/bench-fair.log")")
	port=$((5400 + RANDOM % 90))
	lab_guest_exec 1 "iperf3 -s -1 -p $port -D" >/dev/null || return 1
	timeout -k 5 $((BENCH_T + 40)) iperf3 -c "$ip1" -P 4 -t $((BENCH_T + 8)) >/dev/null 2>&1 &
	timeout -k 5 $((BENCH_T + 40)) iperf3 -c "$ip1" -p $port -R -P 4 -t $((BENCH_T + 8)) >/dev/null 2>&1 &
	sleep 2
	f_p=$(ping_avg "$ip2")
	timeout -k 5 $((BENCH_T + 30)) iperf3 -c "$ip2" -t "$BENCH_T" -f m > "$LAB_RUN/bench-fair.log" 2>&1
	f_t=$(fgbps "$(bench_mbps "$LAB_RUN/bench-fair.log")")
	wait
	bm fair_alone_gbps "$a_t"
	bm fair_flood_gbps "$f_t"
	bm fair_tput_ratio "$(awk -v a="$a_t" -v f="$f_t" 'BEGIN { if (a > 0) printf "%.3f", f / a }')"
	bm fair_ping_alone_ms "$a_p"
	bm fair_ping_flood_ms "$f_p"
	bm fair_ping_ratio "$(awk -v a="$a_p" -v f="$f_p" 'BEGIN { if (a > 0 && f != "nan") printf "%.3f", f / a }')"
}

# The balancer (ours, module parameter rebalance_ms): g1..gN pinned to
# group 0 with the worker-group key, the keys removed, then TCP dom0->g1..gN
# for 5 s (not counted: iperf3 -O) plus BENCH_T s (counted), to compare
# with the spread bench_tcp rx N of the same cycle.  Also the balancer's
# moves over the run and how many of the queues group 0 serves when the
# load starts and when it ends (with nothing moving them, all N).
# bench_rebal_on says whether this module has the parameter at all.
bench_rebal_on() {
	[ -e /sys/module/xen_netback/parameters/rebalance_ms ] ||
		modinfo -p "$LAB_DIR/xen-netback.ko" 2>/dev/null | grep -q '^rebalance_ms:'
}
# bench_rebal_moves: the rebalance_moves counter(s) of the groups file,
# summed ("rebalance_moves=N" on the first line; also "rebalance_moves N"
# or "rebalance_moves: N"); nothing if the file has none.
bench_rebal_moves() {
	xnb_groups_file 2>/dev/null | awk '{
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^rebalance_moves[:=]?$/ && $(i + 1) ~ /^[0-9]+$/) { s += $(i + 1); f = 1 }
			else if ($i ~ /^rebalance_moves[:=][0-9]+$/) { sub(/^[^:=]*[:=]/, "", $i); s += $i; f = 1 }
		} } END { if (f) print s }'
}
# bench_in_g0 N: how many of g1..gN's first queues group 0 serves;
# bench_all_g0 N: all of them.
bench_in_g0() {
	local i c=0
	for ((i = 1; i <= $1; i++)); do
		xnb_in_group "$(lab_vif_name $i)-q0" 0 && c=$((c + 1))
	done
	echo $c
}
bench_all_g0() { [ "$(bench_in_g0 "$1")" = "$1" ]; }
bench_rebalance() {
	local n=$BENCH_GUESTS i sum=0 m0 m1 log groups
	groups=$(cat /sys/module/xen_netback/parameters/groups 2>/dev/null)
	# BENCH_REBALANCE_ANYWAY=1: the row even without a balancer (what
	# removing the keys alone does; tests the row).
	if ! bench_rebal_on && [ "${BENCH_REBALANCE_ANYWAY:-0}" != 1 ]; then
		bench_skip rebalance "this module has no rebalance_ms parameter"
		return 0
	fi
	if [ "${BENCH_REBALANCE_MS:-0}" = 0 ]; then
		bench_skip rebalance "BENCH_REBALANCE_MS=0"
		return 0
	fi
	if [ "${groups:-1}" -lt 2 ]; then
		bench_skip rebalance "one group: nothing to balance"
		return 0
	fi
	for ((i = 1; i <= n; i++)); do xenstore-write "$(lab_backend_path $i)/worker-group" 0; done
	lab_wait 10 bench_all_g0 "$n" || { echo "bench: pinning to group 0 failed"; return 1; }
	m0=$(bench_rebal_moves)
	for ((i = 1; i <= n; i++)); do xenstore-rm "$(lab_backend_path $i)/worker-group"; done
	bm rebal_g0_start "$(bench_in_g0 "$n")" n="$n"
	for ((i = 1; i <= n; i++)); do
		timeout -k 5 $((BENCH_T + 40)) iperf3 -c "$(lab_guest_ip $i)" -O 5 -t "$BENCH_T" -f m \
			> "$LAB_RUN/bench-rebal-$i.log" 2>&1 &
	done
	wait
	bm rebal_g0_end "$(bench_in_g0 "$n")" n="$n"
	m1=$(bench_rebal_moves)
	for ((i = 1; i <= n; i++)); do
		log=$LAB_RUN/bench-rebal-$i.log
		grep -q receiver "$log" || { tail -n 3 "$log"; bench_err "rebal_g$i"; }
		sum=$(awk -v s="$sum" -v r="$(bench_mbps "$log")" 'BEGIN { print s + r }')
	done
	bm rebal_rx_gbps "$(fgbps "$sum")" n="$n"
	if [ -n "$m0" ] && [ -n "$m1" ]; then
		bm rebal_moves $((m1 - m0)) n="$n"
	else
		bench_skip rebal_moves "no rebalance_moves counter in the groups file"
	fi
}

# The ceiling: TCP over veth between two namespaces (no Xen in the path).
bench_veth() {
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
		> "$LAB_RUN/bench-veth.log" 2>&1
	bm veth_cpu_s "$(fsub "$(bench_dom0_cpu)" "$L_CPU")"
	ip netns del xnbA; ip netns del xnbB
	grep -q receiver "$LAB_RUN/bench-veth.log" || { tail -n 3 "$LAB_RUN/bench-veth.log"; return 1; }
	bm veth_gbps "$(fgbps "$(bench_mbps "$LAB_RUN/bench-veth.log")")"
}

# bench_prof_groups: ours' group counters summed over the groups
# (bench_groups): BENCH_PROF_KEYS.  bench_prof_groups "" BEFORE: the
# change since BEFORE; with a TAG, printed with what it means per pass
# and per batch.
BENCH_PROF_KEYS="passes packets batches ops handoffs busy_ms"
bench_prof_groups() {
	local tag=${1:-} now
	[ "$NETBACK" = ours ] || return 0
	now=$(bench_groups "$BENCH_PROF_KEYS")
	[ $# -ge 2 ] || { echo "$now"; return 0; }
	if [ -z "$tag" ]; then
		echo "$2" "$now" | awk '{ n = NF / 2; for (i = 1; i <= n; i++) printf "%d ", $(i + n) - $i; print "" }'
		return 0
	fi
	echo "$2" | awk -v t="$tag" -v keys="$BENCH_PROF_KEYS" '{
		n = split(keys, k); printf "%s groups in 6 s:", t
		for (i = 1; i <= n; i++) { v[k[i]] = $i; printf " %s %d", k[i], $i }
		p = v["passes"]
		printf "; packets/pass %.1f ops/batch %.1f passes/handoff %.1f us/pass %.0f\n",
			p ? v["packets"] / p : 0, v["batches"] ? v["ops"] / v["batches"] : 0,
			v["handoffs"] ? p / v["handoffs"] : 0, p ? 1000 * v["busy_ms"] / p : 0 }'
}

# bench_load_start LOAD N SECONDS PORT LOG: LOAD with N guests for SECONDS
# s, in the background, the receivers' outputs in LOG-<i>.log: tx/rx, TCP
# like bench_tcp (g1..gN; tcprx is rx); udp, UDP 64 B from g1 to dom0
# like bench_udp; floodtx/floodrx, 64 B UDP from/to all of g1..gN at
# once like bench_flood_tx/rx.  Sets LOAD_LOGS (how many outputs); the
# caller waits.
bench_load_start() {
	local load=$1 n=$2 t=$3 port=$4 log=$5 i
	LOAD_LOGS=$n
	case $load in
	udp|floodtx)
		[ "$load" = udp ] && LOAD_LOGS=1
		bench_flood_servers "$LOAD_LOGS" "$port" || return 1
		for ((i = 1; i <= LOAD_LOGS; i++)); do
			lab_guest_exec $i "iperf3 -c 192.0.2.1 -p $((port + i)) -u -l 64 -b 1G -t $t -f m" $((t + 60)) \
				> "$log-$i.log" 2>&1 &
		done ;;
	floodrx)
		for ((i = 1; i <= n; i++)); do
			lab_guest_exec $i "iperf3 -s -1 -p $((port + i)) -D" > /dev/null || return 1
		done
		sleep 1
		for ((i = 1; i <= n; i++)); do
			timeout -k 5 $((t + 30)) iperf3 -c "$(lab_guest_ip $i)" -p $((port + i)) -u -l 64 -b 1G \
				-t "$t" -f m > "$log-$i.log" 2>&1 &
		done ;;
	tcprx) tcp_clients rx "$n" "$t" "$log" ;;
	*) tcp_clients "$load" "$n" "$t" "$log" ;;
	esac
}
# bench_load_report TAG LOAD SECONDS LOG: what each receiver of
# bench_load_start's load got, as TAG lines.
bench_load_report() {
	local i log
	for ((i = 1; i <= LOAD_LOGS; i++)); do
		log=$4-$i.log
		grep -q receiver "$log" || tail -n 2 "$log"
		case $2 in
		udp|flood*)
			echo "$1 load g$i $(lab_iperf_result udp < "$log") datagrams received in $3 s" ;;
		*)
			echo "$1 load g$i $(awk -v r="$(bench_mbps "$log")" 'BEGIN { printf "%.3f", r }') Mbit/s" ;;
		esac
	done
}

# Profile (LAB_PERF=1 puts perf in $LAB_DIR/perf): while perf samples
# every dom0 vcpu, LOAD with N guests (bench_load_start).  Prints
# the hottest symbols, xentop's CPU per domain and, for ours, what the
# groups did (bench_prof_groups) as bench-prof lines (not metrics).
# A sample in the hypercall stub is named by its caller, so that a vcpu
# idling in Xen (xen_safe_halt) is told apart from grant copies.
bench_profile() {	# LOAD N
	local dir=$1 n=$2 tag grp0
	local perf="env LD_LIBRARY_PATH=$LAB_DIR/perf/lib $LAB_DIR/perf/perf"
	tag="bench-prof $NETBACK $BENCH_CFG $dir n=$n:"
	echo 0 > /proc/sys/kernel/kptr_restrict
	echo -1 > /proc/sys/kernel/perf_event_paranoid
	# 10 s of load: 2 s to ramp up, 6 s recorded, slack.
	bench_load_start "$dir" "$n" 10 $((5600 + RANDOM % 90 * 10)) "$LAB_RUN/bench-prof" || return 1
	sleep 2
	# Xen's view too: perf in a PV dom0 sees little of the time its vcpus
	# spend inside hypercalls (grant copies), and nothing of the guests.
	xentop -b -d 3 -i 2 2>/dev/null | awk '$1 == "NAME" { n++; next } n == 2 { printf "%s %s%% ", $1, $4 }
		END { print "" }' | sed "s/^/$tag xentop cpu: /" &
	grp0=$(bench_prof_groups)
	$perf record -q -a -g -e cpu-clock -F 499 -o "$LAB_RUN/perf.data" -- sleep 6 2>&1 | tail -n 2
	grp0=$(bench_prof_groups "" "$grp0")
	wait
	bench_load_report "$tag" "$dir" 10 "$LAB_RUN/bench-prof"
	bench_prof_groups "$tag" "$grp0"
	$perf script -i "$LAB_RUN/perf.data" -F ip,sym 2>/dev/null | awk -v RS= -F '\n' '
		function name(l) { sub(/^[ \t]*[0-9a-f]+ /, "", l); return l }
		{
			leaf = name($1)
			if (leaf ~ /^xen_hypercall/ && NF > 1) leaf = "hypercall<-" name($2)
			n[leaf]++; all++
		}
		END { for (k in n) printf "%6.2f%% %s\n", 100 * n[k] / all, k }' |
		sort -rn | head -n 25 | sed "s/^ */$tag /"
	rm -f "$LAB_RUN/perf.data"
}


# --- what one packet costs, counted (row count) --------------------------------------
# perf in a PV dom0 sees nothing of Xen: so, for both backends alike,
# under each load of BENCH_COUNT_LOADS with N guests (bench_load_start:
# floodtx, floodrx, tcprx), counted over a window of BENCH_COUNT_WINDOW s
# 2 s into the load, per packet through the vif netdevs: dom0's and the
# guests' hypercalls by kind, from Xen's own trace (xentrace, decoded by
# bench/xentrace_count.py), Xen's switches to dom0 and guest vcpus,
# dom0's context switches and interrupts (/proc/stat), the runs of the
# backend's threads and of ksoftirqd (schedstat), the guests' events
# (as bench_vif_irqs) and for ours the groups' passes.  xentrace and
# the counters' reader (xentrace_count.py --counters, which makes a
# marker hypercall right after each read) start before the load; the
# decoder counts only what lies between the two markers.  Tracing costs
# every hypercall a record: the window is a load of its own, never one
# of the throughput rows'.
BENCH_COUNT_LOADS="floodtx floodrx tcprx"
# Xen's trace: the PV class (hypercalls, their multicall subcalls) and the
# SCHED class (which vcpu runs where, to tell dom0's hypercalls from the
# guests'); BENCH_TRACE_PAGES pages a pcpu (set once per boot: Xen keeps
# the first size until it reboots).
BENCH_TRACE_MASK=0x0022f000
BENCH_TRACE_PIDF=${LAB_RUN:-/run}/bench-xentrace.pid
# The backend's threads (as bench_threads counts them) and the softirq
# threads, by comm.
BENCH_THREADS_RE='^(napi/xnb-g[0-9]|vif[0-9])'
BENCH_KSOFTIRQD_RE='^ksoftirqd/'

# bench_xentrace: the xentrace binary (Debian's wrapper, or the lab's
# PATH, or xen-utils' own directory).
bench_xentrace() {
	local x
	command -v xentrace && return 0
	for x in /usr/lib/xen-*/bin/xentrace; do :; done
	[ -x "$x" ] && echo "$x"
}
# bench_xtc ARGS: bench/xentrace_count.py: beside the library on a real
# host (bench-host.sh stages it), in the lab from /opt/xnb-bench with the
# few modules dom0's python3 lacks (bench.sh stages them there through
# LAB_DOM0_EXTRA_DIR).
bench_xtc() {
	if [ -f "$LAB_DIR/xentrace_count.py" ]; then
		python3 "$LAB_DIR/xentrace_count.py" "$@"
	elif [ -f /opt/xnb-bench/xentrace_count.py ]; then
		PYTHONHOME=/opt/xnb-bench python3 -S /opt/xnb-bench/xentrace_count.py "$@"
	else
		echo "no bench/xentrace_count.py in dom0 (bench/bench.sh stages it)"
		return 2
	fi
}
# bench_trace_start FILE: xentrace writing FILE in the background, its pid
# in XT_PID and BENCH_TRACE_PIDF, once it wrote its first records (at
# most 60 s); fails, with nothing left running, if it does not.
bench_trace_start() {
	local x i
	XT_PID=""
	x=$(bench_xentrace) || { echo "bench: no xentrace in dom0"; return 1; }
	rm -f "$1"
	"$x" -D -S "${BENCH_TRACE_PAGES:-1024}" -e "$BENCH_TRACE_MASK" "$1" 2> "$1.err" &
	XT_PID=$!
	echo "$XT_PID" > "$BENCH_TRACE_PIDF"
	for ((i = 0; i < 600; i++)); do
		[ -s "$1" ] && return 0
		kill -0 "$XT_PID" 2>/dev/null || break
		sleep 0.1
	done
	echo "bench: xentrace wrote nothing: $(tail -n 3 "$1.err" | tr '\n' ' ')"
	bench_trace_stop
	return 1
}
# bench_trace_stop: xentrace reads the buffers a last time, disables
# tracing and exits on SIGINT.
bench_trace_stop() {
	[ -n "${XT_PID:-}" ] || return 0
	kill -INT "$XT_PID" 2>/dev/null
	wait "$XT_PID" 2>/dev/null
	rm -f "$BENCH_TRACE_PIDF"
	XT_PID=""
}
# bench_trace_leftovers: a xentrace of a cycle cut short stopped (before a
# module swap and at the end: tracing left on would tax every later row).
bench_trace_leftovers() {
	local p
	bench_sirq_stacks clear
	p=$(cat "$BENCH_TRACE_PIDF" 2>/dev/null) || return 0
	kill -INT "$p" 2>/dev/null && sleep 2 && kill "$p" 2>/dev/null
	rm -f "$BENCH_TRACE_PIDF"
	return 0
}

# bench_pids RE: the pids of the threads whose comm matches RE, on one
# line, comma-separated.
bench_pids() { ps -e -o pid=,comm= | awk -v re="$1" '$2 ~ re { printf "%s%s", n++ ? "," : "", $1 } END { print "" }'; }
# bench_cnt_helper_start: xentrace_count.py --counters up as coproc XTC,
# before the load (python's start-up in a loaded TCG dom0 takes seconds),
# reading the runs of the threads CNT_BPIDS and CNT_KPIDS; CNT_MARKS=1
# when it makes markers (a privcmd device).
bench_cnt_helper_start() {
	local l=""
	coproc XTC { bench_xtc --counters "$CNT_BPIDS" "$CNT_KPIDS" 2>&1; }
	read -r -t 60 l <&"${XTC[0]}"
	case $l in
	ready) CNT_MARKS=1; return 0 ;;
	"ready nomark") CNT_MARKS=0; echo "bench: count: no privcmd device in dom0: no window markers"; return 0 ;;
	esac
	echo "bench: count: no counters' reader: $l"
	bench_cnt_helper_stop
	return 1
}
# bench_cnt_helper_stop: the helper ends with its input.
bench_cnt_helper_stop() {
	local w=${XTC[1]:-} p=${XTC_PID:-}
	[ -n "$w" ] && exec {w}>&-
	[ -n "$p" ] && wait "$p" 2>/dev/null
	return 0
}
# bench_cnt_window SECONDS: CNT_A and CNT_B, the helper's "time packets
# ctxt intr events backend-runs ksoftirqd-runs passes group-packets" at
# the ends of a window of SECONDS (and a marker after each).
bench_cnt_window() {
	local re='^[0-9.]+( [0-9]+){8}$'
	CNT_A="" CNT_B=""
	[ -n "${XTC_PID:-}" ] || return 1
	{ echo "$1" >&"${XTC[1]}" && read -r -t $(($1 + 120)) CNT_A <&"${XTC[0]}" &&
		read -r -t $(($1 + 120)) CNT_B <&"${XTC[0]}"; } 2>/dev/null
	[[ $CNT_A =~ $re && $CNT_B =~ $re ]] && return 0
	echo "bench: count: the counters' reader said '$CNT_A' '$CNT_B'"
	return 1
}
# bench_cnt_pp WHAT COUNT: bm cnt_WHAT_pp_<load>, COUNT over CNT_PKTS.
bench_cnt_pp() {
	bm "cnt_${1}_pp_$CNT_LOAD" "$(awk -v c="$2" -v p="$CNT_PKTS" 'BEGIN { if (p > 0) printf "%.4g", c / p }')" \
		n="$CNT_N"
}
# bench_cnt_dom0 A B: the figures of dom0's own counters between the
# snapshots A and B; CNT_PKTS and CNT_SECS: the packets and seconds.
bench_cnt_dom0() {
	local t0 p0 c0 i0 e0 b0 k0 s0 g0 t1 p1 c1 i1 e1 b1 k1 s1 g1
	read -r t0 p0 c0 i0 e0 b0 k0 s0 g0 <<< "$1"
	read -r t1 p1 c1 i1 e1 b1 k1 s1 g1 <<< "$2"
	CNT_PKTS=$((p1 - p0)) CNT_SECS=$(fsub "$t1" "$t0")
	bm "cnt_vif_kpps_$CNT_LOAD" "$(awk -v p="$CNT_PKTS" -v t="$CNT_SECS" 'BEGIN { if (t > 0) printf "%.3f", p / t / 1000 }')" \
		n="$CNT_N"
	bench_cnt_pp ctxt $((c1 - c0))
	bench_cnt_pp intr $((i1 - i0))
	bench_cnt_pp wake_backend $((b1 - b0))
	bench_cnt_pp wake_ksoftirqd $((k1 - k0))
	bench_cnt_pp gevents $((e1 - e0))
	[ "$NETBACK" = ours ] || return 0
	bench_cnt_pp passes $((s1 - s0))
	bm "cnt_pkts_per_pass_$CNT_LOAD" "$(awk -v k=$((g1 - g0)) -v p=$((s1 - s0)) 'BEGIN { if (p > 0) printf "%.4g", k / p }')" \
		n="$CNT_N"
}
# bench_cnt_xen OUT: "metric value" lines from xentrace_count.py's OUT:
# dom0's (hc_) and the guests' (ghc_) hypercalls per packet, all and by
# kind (those under 0.0005 a packet left out: the serial log has them
# all), grant-copy ops per copy hypercall, Xen's vcpu switches per
# packet, the lost records and unattributed hypercalls as counts, and the
# time between the markers (TSC at dom0's cpu MHz, the clock Xen gives
# it) over the counters' window: 1 but for a preemption between a read
# and its marker.
bench_cnt_xen() {
	local mhz
	mhz=$(awk -F': *' '/^cpu MHz/ { print $2; exit }' /proc/cpuinfo)
	echo "$1" | awk -v pk="$CNT_PKTS" -v win="$CNT_SECS" -v mhz="${mhz:-0}" '
		$1 == "records" { trunc = $8 }
		$1 == "markers" { cyc = $4 }
		$1 == "lost" { lost = $2 }
		$1 == "hc" {
			d = $2 == "dom0" ? "hc" : $2 == "guest" ? "ghc" : "unknown"
			if (d == "unknown") { unatt += $4; next }
			calls[d, $3] = $4; kinds[d, $3] = 1
			if ($3 !~ /^mc\./) all[d] += $4
			if ($3 == "grant_table_op.copy" || $3 == "mc.grant_table_op.copy") { cc[d] += $4; co[d] += $5 }
		}
		$1 == "switch" { sw[$2] = $3 }
		END {
			if (mhz > 0 && win > 0) printf "cnt_trace_window_ratio %.3f\n", cyc / (mhz * 1e6) / win
			printf "cnt_trace_lost %d\ncnt_hc_unattributed %d\n", lost, unatt
			if (trunc) print "cnt_trace_truncated 1"
			if (pk <= 0) exit
			for (d in all) printf "cnt_%s_pp %.4g\n", d, all[d] / pk
			for (k in kinds) {
				split(k, dk, SUBSEP)
				if (calls[k] / pk >= 0.0005)
					printf "cnt_%s_%s_pp %.4g\n", dk[1], dk[2], calls[k] / pk
			}
			if (cc["hc"] > 0) printf "cnt_gntcopy_ops_per_call %.3g\n", co["hc"] / cc["hc"]
			for (d in sw) printf "cnt_xsw_%s_pp %.4g\n", d, sw[d] / pk
		}'
}
# bench_cnt_trace TRACE: TRACE decoded between its markers, the whole
# output in the log, its figures emitted; what it cannot count is a row
# not measured.
bench_cnt_trace() {
	local out t0 m v
	t0=$EPOCHREALTIME
	if ! out=$(bench_xtc "$1" 2>&1); then
		echo "$out" | tail -n 3
		bench_skip "cnt_hc_$CNT_LOAD" "xentrace_count.py failed: $(echo "$out" | tail -n 1)"
		return 0
	fi
	echo "$out" | sed "s/^/bench: count $CNT_LOAD xentrace ($NETBACK): /"
	echo "bench: count $CNT_LOAD: trace of $(($(stat -c %s "$1") / 1024)) KiB decoded in $(fsub "$EPOCHREALTIME" "$t0") s"
	if [ "$(echo "$out" | awk '$1 == "markers" { print $2 }')" != 2 ]; then
		bench_skip "cnt_hc_$CNT_LOAD" "not 2 window markers in the trace"
		return 0
	fi
	while read -r m v; do
		bm "${m}_$CNT_LOAD" "$v" n="$CNT_N"
	done <<< "$(bench_cnt_xen "$out")"
}
# bench_cnt_softirqs: "NAME count" lines, each softirq's runs summed
# over the CPUs (/proc/softirqs), and "squeeze count", net_rx_action's
# runs that ended with work left (/proc/net/softnet_stat, third column).
bench_cnt_softirqs() {
	awk 'NR > 1 { s = 0; for (i = 2; i <= NF; i++) s += $i; sub(":", "", $1); print $1, s }' /proc/softirqs
	awk 'function hex(x,  i, n) { for (i = 1; i <= length(x); i++) n = n * 16 + index("0123456789abcdef", substr(x, i, 1)) - 1; return n }
		{ s += hex($3) } END { print "squeeze", s + 0 }' /proc/net/softnet_stat
}
# bench_sirq_stacks arm|start|hold|stop|clear: where NET_RX is raised and
# where it runs, by kernel stack (hist triggers on irq:softirq_raise and
# softirq_entry, vec 3): arm, paused, before the load (arming an event
# patches kernel text, which under load can hang the lab's PV dom0:
# bench/README.md, BENCH_KPROBES), start as the window opens, hold
# (pause, then a copy of the counts) as it closes; stop, once the load
# is over, prints each event's 6 commonest stacks with their counts per
# packet (CNT_PKTS) as "bench: count LOAD netrx-raise" and "netrx-entry"
# lines, innermost frame first, and removes the triggers, as clear does
# (what a cycle cut short left).  Only ours are touched (>>, the same
# string): a real host's own triggers on these events stay.
# A trigger is found again by its whole string, filter included.
SIRQ_HIST='hist:keys=stacktrace:vals=hitcount:sort=hitcount.descending:size=256'
SIRQ_IF='if vec == 3'
bench_sirq_stacks() {
	local t e f
	t=$(xnb_tracefs) || return 0
	for e in softirq_raise softirq_entry; do
		f=$t/events/irq/$e/trigger
		case $1 in
		arm)
			echo "!$SIRQ_HIST $SIRQ_IF" >> "$f" 2>/dev/null
			echo "$SIRQ_HIST:pause $SIRQ_IF" >> "$f" 2>/dev/null || return 0 ;;
		start) echo "$SIRQ_HIST:cont $SIRQ_IF" >> "$f" 2>/dev/null ;;
		hold)
			echo "$SIRQ_HIST:pause $SIRQ_IF" >> "$f" 2>/dev/null
			cp "$t/events/irq/$e/hist" "$LAB_RUN/sirq-$e.hist" 2>/dev/null ;;
		stop)
			[ -f "$LAB_RUN/sirq-$e.hist" ] && awk -v p="$CNT_PKTS" -v tag="bench: count $CNT_LOAD netrx-${e#softirq_}" '
				/stacktrace:/ { st = ""; nf = 0; next }
				/^ +[a-z_].*\+0x/ { sub(/^ +/, ""); sub(/\+0x.*/, ""); if (nf++ < 10) st = st (st ? "<" : "") $0; next }
				/^} hitcount:/ { if (p > 0) printf "%s %.4f/pkt %s\n", tag, $NF / p, st }
			' "$LAB_RUN/sirq-$e.hist" | sort -t" " -k5 -rn | head -n 6
			;&
		clear)
			echo "!$SIRQ_HIST $SIRQ_IF" >> "$f" 2>/dev/null
			rm -f "$LAB_RUN/sirq-$e.hist" ;;
		esac
	done
}
# bench_cnt_sirq A B: per packet, each softirq's runs and the squeezes
# between the snapshots A and B.
bench_cnt_sirq() {
	local k v
	while read -r k v; do
		bench_cnt_pp "sirq_${k,,}" "$v"
	done < <(awk 'NR == FNR { a[$1] = $2; next } { print $1, $2 - a[$1] }' <(echo "$1") <(echo "$2"))
}
# bench_count_load LOAD N: one load's counts (the load lasts the window
# and 10 s: 2 s before it, slack for the reader's wake-ups after it).
bench_count_load() {
	local w=${BENCH_COUNT_WINDOW:-4} t0 sq0 sq1 trace=$LAB_RUN/bench-cnt.trace log=$LAB_RUN/bench-cnt
	CNT_LOAD=$1 CNT_N=$2 t0=$EPOCHREALTIME
	CNT_BPIDS=$(bench_pids "$BENCH_THREADS_RE") CNT_KPIDS=$(bench_pids "$BENCH_KSOFTIRQD_RE")
	[ "$NETBACK" = ours ] && xnb_groups_file > /dev/null	# debugfs mounted
	bench_trace_start "$trace" || { bench_skip "cnt_hc_$1" "xentrace did not start"; rm -f "$trace"; }
	bench_cnt_helper_start || { bench_trace_stop; return 1; }
	echo "bench: count $1: xentrace and the counters' reader up in $(fsub "$EPOCHREALTIME" "$t0") s"
	bench_sirq_stacks arm
	bench_load_start "$1" "$2" $((w + 10)) $((6300 + RANDOM % 90 * 10)) "$log" ||
		{ bench_cnt_helper_stop; bench_trace_stop; bench_sirq_stacks stop; return 1; }
	sleep 2
	bench_sirq_stacks start
	sq0=$(bench_cnt_softirqs)
	bench_cnt_window "$w" || { bench_cnt_helper_stop; bench_trace_stop; wait; bench_sirq_stacks stop; return 1; }
	sq1=$(bench_cnt_softirqs)
	bench_sirq_stacks hold
	bench_cnt_helper_stop
	bench_trace_stop
	echo "bench: count $1: window from +$(fsub "${CNT_A%% *}" "$t0") to +$(fsub "${CNT_B%% *}" "$t0") s," \
		"xentrace stopped at +$(fsub "$EPOCHREALTIME" "$t0") s; counters $CNT_A .. $CNT_B"
	wait
	bench_load_report "bench: count $1 n=$2:" "$1" $((w + 10)) "$log"
	bench_cnt_dom0 "$CNT_A" "$CNT_B"
	bench_cnt_sirq "$sq0" "$sq1"
	bench_sirq_stacks stop
	if [ "$CNT_MARKS" = 1 ] && [ -f "$trace" ]; then
		bench_cnt_trace "$trace"
	elif [ -f "$trace" ]; then
		bench_skip "cnt_hc_$1" "no window markers (no privcmd device)"
	fi
	rm -f "$trace" "$trace.err"
}
# bench_count: the count rows of one cycle, g1..gN up (N = BENCH_GUESTS).
bench_count() {
	local l
	for l in ${BENCH_COUNT_LOADS}; do
		( bench_count_load "$l" "$BENCH_GUESTS" ) || bench_err "count_$l"
	done
}
