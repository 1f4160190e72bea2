# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Helpers for lab scenarios; sourced inside dom0 (see README.md for the API).
# Every wait is bounded; a helper that cannot do its job calls lab_fail,
# which ends the scenario with a reason.
#
# Guest N (1..24) is domain "g<N>"; its vif K has MAC 00:16:3e:00:<N>:<K>
# (hex) and address 192.0.2.<10*N+K>; dom0 is 192.0.2.1 on bridge xenbr0.

# One Xen in the image: 4.17 (bookworm) or 4.20 (trixie).
PATH=$(echo /usr/lib/xen-[0-9]*/bin):/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export PATH
# Where things are: the lab's files (scripts, our module, config), the
# guests' kernel and ramdisk, scratch files, the guests' bridge.  The
# lab's dom0 has the defaults; bench/bench-host.sh, which runs the bench
# library on a real host, points them at a directory and a bridge of its
# own (exported: the bench runs each cycle in a bash of its own).
export LAB_DIR=${LAB_DIR:-/lab} LAB_IMAGES=${LAB_IMAGES:-/lab-images}
export LAB_GUEST_KERNEL=${LAB_GUEST_KERNEL:-$LAB_IMAGES/vmlinux}
export LAB_RUN=${LAB_RUN:-/run} LAB_BRIDGE=${LAB_BRIDGE:-xenbr0}
# shellcheck source=/dev/null
[ -r "$LAB_DIR/config" ] && . "$LAB_DIR/config"
# lab_scenario_timeout NAME: NAME's budget (s): its entry in
# LAB_SCENARIO_TIMEOUTS ("hostile=1350 ..."), else LAB_SCENARIO_TIMEOUT.
# A scenario sees its own as LAB_SCENARIO_TIMEOUT (the runner names it in
# LAB_SCENARIO), e.g. to budget itself.
lab_scenario_timeout() {
	local t
	for t in ${LAB_SCENARIO_TIMEOUTS:-}; do
		[ "${t%%=*}" = "$1" ] && { echo "${t#*=}"; return; }
	done
	echo "${LAB_SCENARIO_TIMEOUT:-400}"
}
[ -n "${LAB_SCENARIO:-}" ] && LAB_SCENARIO_TIMEOUT=$(lab_scenario_timeout "$LAB_SCENARIO")
LAB_GUEST_MEM=${LAB_GUEST_MEM:-256}
LAB_GUEST_VCPUS=${LAB_GUEST_VCPUS:-1}

lab_log() { echo "$(cut -d' ' -f1 /proc/uptime) $*"; }
# lab_fail MSG: end the scenario as failed.  Inside a command substitution
# exit ends only that subshell, so the reason also goes to $LAB_FAILED,
# which the runner reads: a failure cannot be swallowed by a caller.
lab_fail() {
	echo "XNB-FAILREASON $*"
	[ -n "${LAB_FAILED:-}" ] && echo "$*" >> "$LAB_FAILED"
	exit 1
}
# lab_skip MSG: end the scenario as skipped (e.g. a feature only our driver has).
lab_skip() { echo "XNB-SKIPREASON $*"; exit 77; }

# lab_assert DESCRIPTION COMMAND [ARGS...]: fail the scenario unless COMMAND succeeds.
lab_assert() {
	local what=$1; shift
	"$@" || lab_fail "assertion failed: $what"
}
# lab_assert_gt A B DESCRIPTION: numeric (float) A > B.
lab_assert_gt() {
	awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 > b + 0) }' ||
		lab_fail "assertion failed: $3 ($1 > $2)"
}
# lab_wait SECONDS COMMAND [ARGS...]: poll COMMAND every 0.5 s until it succeeds.
lab_wait() {
	local n=$(($1 * 2)); shift
	while [ $n -gt 0 ]; do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.5; n=$((n - 1))
	done
	return 1
}

# --- backend module --------------------------------------------------------------
lab_backend_loaded() { [ -d /sys/module/xen_netback ]; }
# lab_load_backend [PARAMS]: (re)load the backend under test with PARAMS
# (default: the run's XNB_PARAMS).  NETBACK=ours insmods
# $LAB_DIR/xen-netback.ko, NETBACK=stock modprobes Debian's module (or
# insmods LAB_STOCK_KO, when bench-host.sh found it shadowed by another
# xen-netback, e.g. ours installed by DKMS).
lab_load_backend() {
	local params=${1-$XNB_PARAMS}
	lab_backend_loaded && lab_unload_backend
	lab_log "loading backend ($NETBACK) params='$params'"
	if [ "$NETBACK" = stock ] && [ -n "${LAB_STOCK_KO:-}" ]; then
		# shellcheck disable=SC2086
		insmod "$LAB_STOCK_KO" $params || lab_fail "insmod $LAB_STOCK_KO $params"
	elif [ "$NETBACK" = stock ]; then
		# shellcheck disable=SC2086
		modprobe xen-netback $params || lab_fail "modprobe xen-netback $params"
	else
		# shellcheck disable=SC2086
		insmod "$LAB_DIR/xen-netback.ko" $params || lab_fail "insmod xen-netback.ko $params"
	fi
}
lab_unload_backend() {
	lab_backend_loaded || return 0
	lab_wait 30 rmmod xen-netback || lab_fail "rmmod xen-netback failed"
}

# --- naming ------------------------------------------------------------------------
lab_guest_ip() { echo "192.0.2.$((10 * $1 + ${2:-0}))"; }
lab_guest_mac() { printf '00:16:3e:00:%02x:%02x\n' "$1" "${2:-0}"; }
lab_domid() { xl domid "g$1" 2>/dev/null; }
lab_vif_name() { echo "vif$(lab_domid "$1").${2:-0}"; }
lab_backend_path() { echo "/local/domain/0/backend/vif/$(lab_domid "$1")/${2:-0}"; }
lab_vif_spec() { echo "mac=$(lab_guest_mac "$1" "$2"),bridge=$LAB_BRIDGE,script=vif-bridge"; }

# The guest ramdisk: cached base image plus LAB_EXTRA_GUEST_DIR, if given,
# for the scenarios in LAB_EXTRA_GUEST_SCENARIOS (default: all).  A boot
# that also runs scenarios without a use for the extras (make check) keeps
# their guests as they are in a boot of their own.
lab_guest_ramdisk() {
	local r=$LAB_RUN/lab-guest.img
	case " ${LAB_EXTRA_GUEST_SCENARIOS:-${LAB_SCENARIO:-}} " in
	*" ${LAB_SCENARIO:-} "*) ;;
	*) echo "$LAB_IMAGES/guest.cpio.gz"; return ;;
	esac
	if [ ! -e "$r" ]; then
		cat "$LAB_IMAGES/guest.cpio.gz" "$LAB_DIR/guest-extra.cpio.gz" > "$r" 2>/dev/null ||
			cp "$LAB_IMAGES/guest.cpio.gz" "$r"
	fi
	echo $r
}

# --- guests --------------------------------------------------------------------------
# lab_guest_create N [NVIFS] [EXTRA_XL_CFG_LINE...]: create g<N> with NVIFS
# vifs (default 1) and return at once (boot several, then lab_guest_wait).
# lab_guest_destroy N: gN gone.  On a real host (bench/bench-host.sh sets
# BENCH_HOST=1) only the gN the bench created, by the domid it recorded
# in BENCH_HOST_DOMIDS: a domain that took the name is someone else's.
lab_guest_destroy() {
	local id
	id=$(lab_domid "$1") || return 0
	if [ "${BENCH_HOST:-0}" = 1 ] && ! grep -qxF "$id g$1" "${BENCH_HOST_DOMIDS:-/dev/null}"; then
		echo "g$1 (domid $id) is not the bench's: left alone" >&2
		return 1
	fi
	xl destroy "$id" >/dev/null 2>&1 || true
}
lab_guest_create() {
	local n=$1 nvifs=${2:-1} cfg=$LAB_RUN/g$1.cfg k vifs="" l
	shift; [ $# -gt 0 ] && shift
	for ((k = 0; k < nvifs; k++)); do vifs="$vifs'$(lab_vif_spec "$n" $k)',"; done
	{
		echo "name='g$n'"
		echo "type='pv'"
		echo "kernel='$LAB_GUEST_KERNEL'"
		echo "ramdisk='$(lab_guest_ramdisk)'"
		echo "extra='console=hvc0 xnb_id=$n quiet'"
		echo "memory=$LAB_GUEST_MEM"
		echo "vcpus=$LAB_GUEST_VCPUS"
		echo "vif=[${vifs%,}]"
		for l in "$@"; do echo "$l"; done
	} > "$cfg"
	lab_guest_destroy "$n" || lab_fail "a domain named g$n exists that the bench did not create"
	lab_log "creating g$n ($nvifs vifs)"
	xl create "$cfg" > "$LAB_RUN/g$n.create.log" 2>&1 ||
		{ cat "$LAB_RUN/g$n.create.log"; lab_fail "xl create g$n"; }
}
# lab_guest_wait N [NVIFS]: every vif Connected and answering ping.
lab_guest_wait() {
	local n=$1 nvifs=${2:-1} k
	for ((k = 0; k < nvifs; k++)); do lab_wait_vif "$n" $k; done
	for ((k = 0; k < nvifs; k++)); do lab_wait_ping "$(lab_guest_ip "$n" $k)" 120; done
	echo "XNB-LOG g$n (domid $(lab_domid "$n")) up, answers ping at dom0 uptime $(cut -d' ' -f1 /proc/uptime)"
}
# lab_guest_start N [NVIFS] [EXTRA_XL_CFG_LINE...]: create and wait.
lab_guest_start() {
	lab_guest_create "$@"
	lab_guest_wait "$1" "${2:-1}"
}

# lab_wait_vif N [K] [TIMEOUT]: backend state 4 (Connected) and netdev present.
lab_vif_connected() {
	[ "$(xenstore-read "$(lab_backend_path "$1" "$2")/state" 2>/dev/null)" = 4 ] &&
		[ -e "/sys/class/net/$(lab_vif_name "$1" "$2")" ]
}
lab_wait_vif() {
	local k=${2:-0} st
	lab_wait "${3:-120}" lab_vif_connected "$1" "$k" && return 0
	st=$(xenstore-read "$(lab_backend_path "$1" "$k")/state" 2>/dev/null)
	lab_fail "vif $k of g$1 not connected (backend state '$st')"
}
# lab_wait_ping IP [TIMEOUT]
lab_wait_ping() {
	lab_wait "${2:-60}" ping -c1 -W1 "$1" || lab_fail "no ping reply from $1"
}
lab_ping() { ping -c"${2:-3}" -W2 "$1"; }
# lab_lean_vif_script PATH: write to PATH a minimal vif hotplug script
# for xl's `script=`: the netdev joins $LAB_BRIDGE (named in the script:
# libxl runs it with an environment of its own) and hotplug-status says
# connected, without vif-bridge's lock and seconds of bash under TCG.
# libxl runs it with $1 online|offline, vif=<netdev>, XENBUS_PATH; offline
# has nothing to do: the port leaves the bridge with the netdev.
lab_lean_vif_script() {
	{
		echo '#!/bin/sh'
		echo "br=$LAB_BRIDGE"
		cat <<'SCRIPT'
case $1 in
online|add)
	ip link set dev "$vif" master "$br" && ip link set dev "$vif" up &&
		exec xenstore-write "$XENBUS_PATH/hotplug-status" connected
	exit 1 ;;
esac
exit 0
SCRIPT
	} > "$1"
	chmod +x "$1"
}
# lab_ping_start NAME IP...: a ping every LAB_PING_INTERVAL s (default
# 0.2) to each IP in the background, each reply stamped with its time
# (-D), into $LAB_RUN/NAME-ping1.log, NAME-ping2.log, ...; their pids in
# LAB_PING_PIDS (for a scenario's EXIT trap), their logs in LAB_PING_LOGS.
LAB_PING_PIDS='' LAB_PING_LOGS=''
lab_ping_start() {
	local name=$1 ip n=0
	shift
	LAB_PING_PIDS='' LAB_PING_LOGS=''
	for ip; do
		n=$((n + 1))
		ping -D -i "${LAB_PING_INTERVAL:-0.2}" -W1 "$ip" >"$LAB_RUN/$name-ping$n.log" 2>&1 &
		LAB_PING_PIDS="$LAB_PING_PIDS $!"
		LAB_PING_LOGS="$LAB_PING_LOGS $LAB_RUN/$name-ping$n.log"
	done
}
# lab_ping_stop: stop lab_ping_start's pings (SIGINT makes ping print its
# summary; should one not stop, TERM); their logs stay.
lab_ping_stop() {
	[ -n "$LAB_PING_PIDS" ] || return 0
	# shellcheck disable=SC2086 # pids, split on purpose
	kill -INT $LAB_PING_PIDS 2>/dev/null
	sleep 1
	# shellcheck disable=SC2086
	kill $LAB_PING_PIDS 2>/dev/null
	# shellcheck disable=SC2086
	wait $LAB_PING_PIDS
	LAB_PING_PIDS=	# reaped: an EXIT trap must not signal them again
}
# lab_ping_loss TAG MAX WHAT [replies]: lab_ping_stop, then judge each
# log: its last lines, "XNB-METRIC TAG NAME-pingN loss_pct=LOSS", and the
# scenario fails unless the log has a summary and LOSS < MAX ("ping loss
# LOSS% WHAT").  With "replies", a log without a summary counts the loss
# from the replies instead (up to the last sequence answered).
lab_ping_loss() {
	local tag=$1 max=$2 what=$3 replies=${4:-} l loss
	lab_ping_stop
	for l in $LAB_PING_LOGS; do
		loss=$(sed -n 's/.* \([0-9.]*\)% packet loss.*/\1/p' "$l")
		[ -n "$loss" ] || [ -z "$replies" ] || loss=$(awk -F'icmp_seq=' '/bytes from/ {
			n++; split($2, a, " "); if (a[1] > m) m = a[1] }
			END { if (m) printf "%.1f\n", 100 * (m - n) / m }' "$l")
		tail -2 "$l"
		echo "XNB-METRIC $tag $(basename "$l" .log) loss_pct=$loss"
		lab_assert "$l has a summary" test -n "$loss"
		awk -v l="$loss" -v max="$max" 'BEGIN { exit !(l < max) }' ||
			lab_fail "ping loss $loss% $what"
	done
}
# lab_ping_gap LOG INTERVAL: the outage a ping log (lab_ping_start's, every
# INTERVAL s) shows: "sent=S received=R lost_run=N gap_ms=G silence_ms=M",
# lost_run the longest run of consecutive sequence numbers without a
# reply (before the first, between two, after the last: sent from the
# summary, else the last sequence answered), gap_ms = lost_run *
# INTERVAL, silence_ms the longest time between two replies by their
# stamps (what the pings' own timing made of the gap).
lab_ping_gap() {
	awk -v iv="$2" '
		/packets transmitted/ { sent = $1 }
		/bytes from/ && /icmp_seq=/ && !/DUP!/ {
			s = $0; sub(/.*icmp_seq=/, "", s); sub(/ .*/, "", s)
			if (!(s in got)) { got[s] = 1; seq[++n] = s + 0 }
			t = $1
			if (t !~ /^\[[0-9.]+\]$/) next
			gsub(/[][]/, "", t)
			if (last != "" && t - last > sil) sil = t - last
			last = t
		}
		END {
			# Sequences in order (insertion sort: replies arrive in
			# order but for the odd one).
			for (i = 2; i <= n; i++) {
				v = seq[i]
				for (j = i - 1; j >= 1 && seq[j] > v; j--) seq[j + 1] = seq[j]
				seq[j + 1] = v
			}
			if (sent == "") sent = n ? seq[n] : 0
			run = n ? seq[1] - 1 : sent
			for (i = 2; i <= n; i++) if (seq[i] - seq[i - 1] - 1 > run) run = seq[i] - seq[i - 1] - 1
			if (n && sent - seq[n] > run) run = sent - seq[n]
			printf "sent=%d received=%d lost_run=%d gap_ms=%d silence_ms=%d\n",
				sent, n, run, run * iv * 1000 + 0.5, sil * 1000 + 0.5
		}' "$1"
}
# lab_ping_reply_since LOG EPOCH: LOG (lab_ping_start's) has a reply
# stamped at or after EPOCH (seconds, as date +%s.%N).
lab_ping_reply_since() {
	awk -v e="$2" '/bytes from/ { t = $1; gsub(/[][]/, "", t); if (t + 0 >= e + 0) f = 1 }
		END { exit !f }' "$1"
}

# lab_net_attach N K: hot-add vif K to g<N>, wait for it and for ping.
lab_net_attach() {
	lab_log "attaching vif $2 to g$1"
	# shellcheck disable=SC2046
	xl network-attach "g$1" $(lab_vif_spec "$1" "$2" | tr , ' ') || lab_fail "network-attach g$1 $2"
	lab_wait_vif "$1" "$2"
	lab_wait_ping "$(lab_guest_ip "$1" "$2")" 60
}
# lab_net_detach N K: hot-remove vif K, wait until its netdev is gone.
lab_net_detach() {
	local vif; vif=$(lab_vif_name "$1" "$2")
	lab_log "detaching vif $2 ($vif) from g$1"
	xl network-detach "g$1" "$2" || lab_fail "network-detach g$1 $2"
	lab_wait 60 test ! -e "/sys/class/net/$vif" || lab_fail "$vif still present after detach"
}

# lab_destroy_all: destroy every guest, wait until the vifs are gone.
lab_destroy_all() {
	local d
	# Never on a real host (bench-host.sh): not every domain is the bench's.
	[ "${BENCH_HOST:-0}" != 1 ] || lab_fail "lab_destroy_all on a real host"
	for d in $(xl list | awk 'NR > 2 {print $1}'); do xl destroy "$d" || true; done
	lab_wait 60 lab_no_vifs
}
lab_vifs() {
	local f
	for f in /sys/class/net/vif*; do [ -e "$f" ] && echo "${f##*/}"; done
	return 0
}
lab_no_vifs() { [ -z "$(lab_vifs)" ]; }

# --- traffic -------------------------------------------------------------------------
# lab_iperf_out TIMEOUT IP ARGS...: `iperf3 -c IP ARGS -f m` from dom0 to
# the guest's server, its output on stdout, its status returned.  A
# refused connection means no server listens (iperf3 -s exits after
# repeated errors): that is the lab's, not the driver's, so the server is
# started again once, and the log says so.
lab_iperf_out() {
	local t=$1 ip=$2 out rc
	shift 2
	out=$(timeout "$t" iperf3 -c "$ip" "$@" -f m 2>&1); rc=$?
	if [ $rc -ne 0 ] && [[ $out == *"Connection refused"* ]]; then
		lab_log "iperf3 server at $ip not listening; restarting it" >&2
		lab_guest_exec $((${ip##*.} / 10)) "iperf3 -s -D" >/dev/null
		sleep 1
		out=$(timeout "$t" iperf3 -c "$ip" "$@" -f m 2>&1); rc=$?
	fi
	echo "$out"
	return $rc
}
# lab_iperf IP [-R] [SECONDS]: TCP between dom0 (client) and the guest's
# iperf3 server.  Without -R dom0 sends (dom0->guest, the backend's RX path
# towards the guest); with -R the guest sends (guest->dom0, TX path).
# Prints the receiver-side rate in Gbit/s.
lab_iperf() {
	local ip=$1 rev=() t=3 out
	[ "${2:-}" = -R ] && { rev=(-R); shift; }
	[ -n "${2:-}" ] && t=$2
	# Mbit/s from iperf3 (Gbit/s rounds a starved TCG run to 0.00).
	out=$(lab_iperf_out $((t + 30)) "$ip" "${rev[@]}" -t "$t") ||
		{ echo "$out" >&2; lab_diag "$ip" >&2; lab_fail "iperf3 -c $ip ${rev[*]} failed"; }
	out=$(echo "$out" | lab_iperf_result tcp) || lab_fail "no iperf3 result for $ip"
	awk -v r="$out" 'BEGIN { printf "%.4f\n", r / 1000 }'
}
# lab_iperf_result tcp|udp: the receiver's summary in iperf3 -f m output
# on stdin (the last "receiver" line: the [SUM] one with -P): tcp Mbit/s,
# udp the datagrams received (total - lost).  Fails if there is none.
# The one iperf3 parser of the lab (text, not --json: dom0 and the guests
# have no JSON tool, and guest command output is cut to 3000 bytes).
lab_iperf_result() {
	awk -v udp="$([ "$1" = udp ] && echo 1)" '/receiver/ {
		for (i = 2; i <= NF; i++) {
			if ($i == "Mbits/sec") r = $(i - 1)
			if (udp != "" && $i ~ /^[0-9]+\/[0-9]+$/) { split($i, a, "/"); r = a[2] - a[1] }
		} }
		END { if (r == "") exit 1; print r }'
}
# lab_diag IP: what dom0 and the guest at IP see, for a stalled transfer.
lab_diag() {
	local n=$(( ${1##*.} / 10 )) v d=/sys/kernel/debug/xen-netback
	echo "--- lab_diag $1 (g$n) ---"
	if [ -r $d/groups ] ||
	   { mount -t debugfs none /sys/kernel/debug 2>/dev/null; [ -r $d/groups ]; }; then
		cat $d/groups $d/vif-*/io_ring_q* 2>/dev/null; sleep 1
		cat $d/groups $d/vif-*/io_ring_q* 2>/dev/null
	fi
	for v in $(lab_vifs); do
		echo "$v:"; ethtool -S "$v" 2>/dev/null | grep -v ': 0$'
	done
	nstat -az 2>/dev/null | grep -E 'TcpRetransSegs|TcpExtTCPTimeouts|TcpInSegs|TcpOutSegs'
	( lab_guest_exec "$n" "cat /proc/net/dev; dmesg | tail -20; grep Tcp /proc/net/snmp" 20 ) 2>&1 || true
	dmesg | tail -20
	echo "--- end lab_diag ---"
}
# lab_vif_bytes VIFNAME rx|tx: dom0-side byte counter of a vif netdev.
lab_vif_bytes() { cat "/sys/class/net/$1/statistics/$2_bytes"; }

# --- commands inside a guest (through xenstore, no network needed) -----------------
# lab_guest_exec N COMMAND [TIMEOUT]: run COMMAND with sh in g<N>; prints its
# output (last 3000 bytes) and returns its exit status.
# No polling: we sleep on a xenstore watch of data/rc.  A watch fires once
# when it is set (then the command goes out, so the answer cannot slip in
# before the watch) and again on each write of the guest's answer.
lab_guest_exec() {
	local d; d=$(lab_domid "$1") || lab_fail "no guest g$1"
	local id=$RANDOM$RANDOM end=$((SECONDS + ${3:-60})) p fd w f rc="" sent=""
	p=/local/domain/$d/data
	xenstore-rm "$p/rc" 2>/dev/null
	# A fifo, not <(...): dom0 has no /dev/fd.
	f=$LAB_RUN/lab-exec.$BASHPID.$id
	mkfifo "$f" || lab_fail "mkfifo $f"
	xenstore-watch "$p/rc" > "$f" 2>/dev/null &
	w=$!
	exec {fd}< "$f"
	rm -f "$f"
	while [ $SECONDS -lt $end ] && read -r -t $((end - SECONDS)) -u "$fd" _; do
		if [ -z "$sent" ]; then
			xenstore-write "$p/cmd" "$id $2"
			sent=1
		fi
		rc=$(xenstore-read "$p/rc" 2>/dev/null)
		[ "${rc%% *}" = "$id" ] && break
	done
	kill "$w" 2>/dev/null
	wait "$w" 2>/dev/null	# reaped here: no "Terminated" on stderr
	exec {fd}<&-
	[ "${rc%% *}" = "$id" ] || lab_fail "guest g$1 did not run: $2"
	# The guest splits its output over two nodes (a node's size limit).
	printf '%s%s\n' "$(xenstore-read "$p/out")" "$(xenstore-read "$p/out1" 2>/dev/null)"
	return "${rc#* }"
}
