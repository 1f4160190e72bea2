# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# hostile: the hostile-frontend campaign (docs/hostile-catalogue.md).
# Guest g1 is an honest netfront; guest g20 has no netfront and runs
# /bin/hostile (tests/hostile/) as the frontend of a hot-attached
# vif.  All cases play on the same vif, one program invocation each: the
# program takes the vif over from the previous invocation's lingering
# child (which resets the connection: frontend Closing, Closed,
# Initialising; the backend goes back to InitWait) and connects afresh.
# After each case dom0 checks what the program saw and what the backend
# did (log line, carrier, connect state) before the next case reconnects,
# and that g1 still works.  A fresh vif (xl network-attach) only when the
# program could not get the vif back (or for the cases in HOSTILE_FRESH).
# Then a seeded random run, and the memory/thread baseline after the
# hostile guest is destroyed.  Needs LAB_EXTRA_GUEST_DIR from `make hostile`.
#
# Our driver's semantics, as the cases expect them: chain past req_prod =
# fatal; > 18 data slots = drop; >= 20 further slots = fatal; offset+size
# > 4096 = fatal; later slot larger than remaining = drop; len < 14 = drop;
# extra type 0 or > 5 = fatal; > 8 extras = fatal; GSO size 0 or above
# 65481 / unknown type = fatal (13, 42), below 8 raised to 8 (40);
# multicast extras = filter
# requests (OK, a unicast ADD or one past 64 addresses = error);
# checksum/GSO header problems (a TCP GSO type on anything but TCP of its
# IP version, a short TCP header: 41) = error responses; GSO segments
# over the vif's gso_max_segs (40, the limit lowered to 64; 1366 by
# default: 44) = error responses; 64 KiB GSO packets of 48-byte
# segments cut in dom0 for a port without TSO cost their sender's turn,
# not its group's neighbours (44: g1's ping and TCP within a bound of
# alone); invalid grefs = error responses for that packet only;
# RX without buffers: drops after rx_drain_timeout_msecs, carrier off after
# rx_stall_timeout_msecs, back on with buffers; impossible ring indices at
# connect, num-queues 0/>max, request-rx-copy=0, feature-rx-notify absent
# = refused; control requests get stock's statuses (21, 22, 32), a control
# producer a ring ahead = fatal (33), the mapping steers flows (34), a
# storm on the control channel is throttled (37) and, once the ring is
# dead, never EOI'd (38), a control ring kept full is served within its
# budget at a small CPU cost (43);
# xdp-headroom clamped to 2048 (29); RX events with
# nothing queued are spurious (late-EOI throttled), an RX producer index
# more than a ring ahead = fatal even with nothing queued (28); a
# frontend looping on states it may not write (35) or on connects that
# fail (36, which the backend backs off) grows dom0's log by a few lines
# only, and one flooding request-multicast-control (39) queues one watch
# event at most: dom0's slab stays put and another vif still connects.
# 35, 36 and 39 run scaled-down floods; HOSTILE_FULL=1 (make hostile
# HOSTILE_FULL=1) gives them the issue's counts.  A frontend looping on
# connects that succeed (45, 1 and max queues in turn) is held back by
# the reconnect back-off: a bounded number of cycles, g1 answering
# meanwhile, dom0's slab, threads and interrupts back where they were.
# The group "netconsole": dom0 keeps printing through netconsole, across
# the hostile vif, while the program rewrites its hash configuration;
# dom0 must not hang nor log a lockup or stall.  The control ring's
# budget is off for that group (ctrl_rate=0), so that the stream writes
# the hash seqlock as fast as dom0 serves it; restored after.
# Cases 46-48: one grant offered as two rings (TX and RX, two queues',
# control and TX) is connected and served; dom0's copy into an RX buffer
# that is a ring page is one more guest write to that page (the vif goes
# on while the indices it writes are possible, and is disabled once one
# is not: 46, fatal); a guest rewriting rsp_prod, req_event and
# rsp_event under traffic gets at most a notification a packet, at
# little CPU (47); RX buffers withheld and posted as fast as the stall
# detection turns log a few lines and queue a bounded amount (48).
# dom0 sends to the guest all through 47 and 48 (rxflood_start).
H=20
HG=g$H
pass=0 fail=0 failed=""
T_START=$(cut -d. -f1 /proc/uptime)
BUDGET=${LAB_SCENARIO_TIMEOUT:-900}
# Seconds left of this scenario's budget.
left() { echo $((BUDGET - ($(cut -d. -f1 /proc/uptime) - T_START))); }

case_result() { # case_result ID PASS|FAIL REASON
	echo "XNB-CASE $1 $2${3:+ $3}"
	if [ "$2" = PASS ]; then pass=$((pass + 1)); else fail=$((fail + 1)); failed="$failed $1"; fi
}

# Short RX timeouts so case 19 fits (same parameter names in the stock driver).
lab_load_backend "$XNB_PARAMS rx_drain_timeout_msecs=2000 rx_stall_timeout_msecs=4000"

lab_guest_create 1
lab_guest_create $H 0
lab_guest_wait 1
G1IP=$(lab_guest_ip 1 0)
G1VIF=$(lab_vif_name 1 0)
# xenstore-read escapes newlines in the command channel's output.
gexec() { lab_guest_exec "$@" | sed 's/\\n/\n/g'; return "${PIPESTATUS[0]}"; }
conf=$(gexec $H "rmmod xen-netfront 2>/dev/null; ls /dev/xen >&2; cat /etc/hostile.conf; test -x /bin/hostile" 300) ||
	lab_fail "hostile guest not ready (LAB_EXTRA_GUEST_DIR from make hostile?): $conf"
eval "$(echo "$conf" | grep '^HOSTILE_')"
lab_log "hostile guest ready: $(echo "$conf" | tr '\n' ' ')"
HD=$(lab_domid $H)

snapshot() {
	sync
	echo 3 > /proc/sys/vm/drop_caches
	sleep 2
	awk '/^Slab:/ {s = $2} /^VmallocUsed:/ {v = $2} END {print s, v}' /proc/meminfo
	ls -d /proc/[0-9]*/task/[0-9]* 2>/dev/null | wc -l
	lab_vifs | wc -l
}
# (no /dev/fd in dom0: no process substitution)
# shellcheck disable=SC2046 # snapshot prints the fields to split
set -- $(snapshot)
B_SLAB=$1 B_VMALLOC=$2 B_THREADS=$3 B_VIFS=$4
lab_log "baseline: Slab ${B_SLAB} kB, VmallocUsed ${B_VMALLOC} kB, threads $B_THREADS, vif netdevs $B_VIFS"
echo "XNB-METRIC hostile baseline slab_kb=$B_SLAB vmalloc_kb=$B_VMALLOC threads=$B_THREADS vifs=$B_VIFS"

if [ "$NETBACK" = stock ]; then
	FATAL_RE='fatal error; disabling device|broke the protocol'
else
	FATAL_RE='broke the protocol, vif disabled'
fi

# Groups with these cases send hundreds of packets the backend drops:
# dom0 may log at most HOSTILE_LOG_MAX lines while they play (rate-limited
# lines, none per packet), and nothing like a warning.
LOG_QUIET=" 40 41 42 44 "
SPLAT_RE='WARNING:|Call Trace|BUG:|Oops'

carrier() { cat "/sys/class/net/$1/carrier" 2>/dev/null || echo x; }
# kmsg_seq: the number of records the kernel has logged since boot (the
# sequence number of its latest): dmesg | wc -l stops growing once the
# ring buffer is full, this does not.
kmsg_seq() {
	dd if=/dev/kmsg iflag=nonblock bs=8k 2>/dev/null |
		awk -F'[,;]' '/^[0-9]+,[0-9]+,/ { s = $2 } END { print s + 1 }'
}
phase_is() { [ "$(xenstore-read "/local/domain/$HD/data/hostile-phase" 2>/dev/null)" = "$1" ]; }
FULL_OPT=""
[ "${HOSTILE_FULL:-0}" = 1 ] && FULL_OPT=--full
# irqs VIF: interrupts taken so far on all of VIF's event channels.
irqs() {
	awk -v v="$1-" 'index($NF, v) == 1 {
		for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i
	} END { print s + 0 }' /proc/interrupts
}
# ctrl_irqs VIF: interrupts taken so far on VIF's control channel alone
# (the irq named "<vif>-ctrl"); 0 while it has none.
ctrl_irqs() {
	awk -v v="$1-ctrl" '$NF == v {
		for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i
	} END { print s + 0 }' /proc/interrupts
}

# attach K: hot-add a vif to the hostile guest; prints its devid.
attach() {
	local before after d k=$1
	before=$(xenstore-list "/local/domain/0/backend/vif/$HD" 2>/dev/null | tr '\n' ' ')
	timeout 120 xl network-attach "$HG" mac="$(lab_guest_mac $H "$k")" bridge=xenbr0 script=vif-bridge >&2 ||
		return 1
	after=$(xenstore-list "/local/domain/0/backend/vif/$HD" 2>/dev/null)
	for d in $after; do
		case " $before " in *" $d "*) ;; *) echo "$d"; return 0 ;; esac
	done
	return 1
}

detach() {
	local dev=$1 vif=vif$HD.$1
	timeout 90 xl network-detach "$HG" "$dev" >/dev/null 2>&1 ||
		timeout 60 xl network-detach -f "$HG" "$dev" >/dev/null 2>&1
	lab_wait 60 test ! -e "/sys/class/net/$vif" || return 1
	xenstore-rm "/local/domain/0/backend/vif/$HD/$dev" 2>/dev/null
	return 0
}

others_ok() {
	[ "$(carrier "$G1VIF")" = 1 ] || { echo "g1 vif carrier $(carrier "$G1VIF")"; return 1; }
	ping -c2 -W3 "$G1IP" >/dev/null 2>&1 || ping -c3 -W5 "$G1IP" >/dev/null 2>&1 ||
		{ echo "g1 does not answer ping"; return 1; }
	return 0
}

# nc_start: dom0's netconsole for the group "netconsole" (the program's
# --ctrl-stream, which turns Toeplitz hashing on and streams hash key and
# mapping updates while data/hostile-phase is ctrl-stream).  netconsole
# logs through xenbr0 to g1's address with its default, broadcast, MAC,
# so the bridge floods every console line to every port from netpoll,
# IRQs off: through the hostile vif's xnb_start_xmit, which hashes it
# under the seqlock those updates write.  During the stream, printk is
# flooded: lines written to /dev/kmsg, and lines from hard irq on every
# CPU (xnb-irqprintk.ko), so that console lines go out from interrupts
# that cut into the control ring's work on its CPU.  Sets nbg.
NC_SECS=${HOSTILE_NC_SECONDS:-8}
NC_UP=0 NC_N0=0 NC_TX0=0 NC_DEVKMSG=ratelimit
nc_tx() {
	local d=/sys/class/net/$VIF/statistics
	echo $(( $(cat "$d/tx_packets" 2>/dev/null || echo 0) + $(cat "$d/tx_dropped" 2>/dev/null || echo 0) ))
}
nc_start() {
	NC_UP=0 NC_N0=$(dmesg | wc -l) NC_TX0=$(nc_tx)
	NC_DEVKMSG=$(cat /proc/sys/kernel/printk_devkmsg 2>/dev/null || echo ratelimit)
	# By default /dev/kmsg takes a few lines per 5 s from each writer.
	echo on > /proc/sys/kernel/printk_devkmsg
	modprobe netconsole "netconsole=@/xenbr0,6666@$G1IP/" && NC_UP=1
	rm -f /run/nc-lines
	( ph=/local/domain/$HD/data/hostile-phase n=0
	  while [ "$(xenstore-read "$ph" 2>/dev/null)" != ctrl-stream ]; do
		sleep 0.2
	  done
	  [ -f /lab/xnb-irqprintk.ko ] && insmod /lab/xnb-irqprintk.ko seconds="$NC_SECS"
	  while [ "$(xenstore-read "$ph" 2>/dev/null)" = ctrl-stream ]; do
		# One write, one record: 50 lines, then a breath (~500/s).
		for i in 0 1 2 3 4 5 6 7 8 9; do
			for j in 0 1 2 3 4; do
				echo "xnb-netconsole: flood line $n.$i$j"
			done
		done > /dev/kmsg
		n=$((n + 1))
		echo $((n * 50)) > /run/nc-lines
		sleep 0.1
	  done ) &
	nbg=$!
}
nc_stop() {
	kill "$nbg" 2>/dev/null
	wait "$nbg" 2>/dev/null
	rmmod xnb_irqprintk 2>/dev/null
	[ "$NC_UP" = 1 ] && rmmod netconsole
	echo "$NC_DEVKMSG" > /proc/sys/kernel/printk_devkmsg
}
# netconsole_check: the netconsole group's verdict beyond the program's:
# netconsole carried the flood through the hostile vif while the hash
# was rewritten, and dom0 logged no lockup or stall (a reader of the
# hash seqlock spinning with IRQs off, behind a writer it interrupted,
# wedges its CPU: dom0 hangs, or other CPUs report the stall); appends
# to cwhy.
netconsole_check() {
	local log hits lines irq tx req
	log=$(dmesg | tail -n +$((NC_N0 + 1)))
	lines=$(cat /run/nc-lines 2>/dev/null || echo 0)
	irq=$(echo "$log" | sed -n 's/.*xnb-irqprintk: \([0-9]*\) lines printed.*/\1/p' | tail -n1)
	tx=$(($(nc_tx) - NC_TX0))
	req=$(echo "$out" | sed -n 's/^HOSTILE-CTRLSTREAM requests=\([0-9]*\).*/\1/p' | tail -n1)
	lab_log "netconsole: ${req:-0} hash updates streamed; printk flood: $lines lines to /dev/kmsg, ${irq:-0} from hard irq; $VIF sent or dropped $tx packets meanwhile"
	echo "XNB-METRIC hostile netconsole hash_updates=${req:-0} kmsg_lines=$lines irq_lines=${irq:-0} vif_tx=$tx"
	[ "$NC_UP" = 1 ] || cwhy="${cwhy:+$cwhy; }netconsole did not load on xenbr0"
	hits=$(echo "$log" | grep -E 'soft lockup|detected stall|hard LOCKUP|hung task|BUG:|Call Trace' | head -n 2 | tr '\n' ' ')
	[ -z "$hits" ] || cwhy="${cwhy:+$cwhy; }kernel log: $hits"
	[ "${req:-0}" -ge 300 ] || cwhy="${cwhy:+$cwhy; }only ${req:-0} hash updates streamed"
	[ "$lines" -ge 100 ] || cwhy="${cwhy:+$cwhy; }the printk flood did not run ($lines lines)"
	[ "${irq:-0}" -ge 100 ] || cwhy="${cwhy:+$cwhy; }${irq:-0} lines printed from hard irq"
	[ "$tx" -ge 100 ] || cwhy="${cwhy:+$cwhy; }$VIF took $tx packets: netconsole did not go through it"
}

DEV="" VIF="" nextk=0 fresh=1 nattach=0 R_RESERVE=0
# fresh_vif: replace the hostile guest's vif by a newly attached one.
fresh_vif() {
	if [ -n "$DEV" ]; then
		lab_log "detaching $VIF"
		detach "$DEV" || lab_log "$VIF still present after detach"
	fi
	DEV="" VIF=""
	nextk=$(( (nextk % 200) + 1 ))
	# Under a loaded TCG host the vif-bridge hotplug script can hit libxl's
	# timeout: that is the lab, not the backend; try once more.
	DEV=$(attach $nextk) || { lab_log "attach failed, retrying"; nextk=$((nextk + 1)); DEV=$(attach $nextk); } ||
		{ DEV=""; return 1; }
	VIF=vif$HD.$DEV
	nattach=$((nattach + 1))
	lab_log "attached $VIF"
	fresh=0
}

ngroup=0 R_FATALS=0 R_LINE=""
# run_group "ID..." [PRE-HOOK] [ARGS]: play cases in one program
# invocation on the shared vif (a fresh one if needed), then check them
# from dom0: the program's verdict per case, and for the group the log
# lines, carrier and g1.  IDs: case numbers, 27w (case 27 with a wrapping
# rate), "random" or "netconsole" (ARGS are the program's arguments then;
# the program reports them as case 0).
run_group() {
	local ids=$1 hook=${2:-} args=${3:-} out rc final last why="" n0 nf st bg="" samples="" t0 tmo mbg="" nbg=""
	local id cs line res expect cwhy nl a chunk nlog quiet="" xbg="" xsamples="" abg="" attach39="" ks=0 cbg=""
	local rbg="" rsamples=""
	ngroup=$((ngroup + 1))
	for id in $ids; do case " ${HOSTILE_FRESH:-} " in *" $id "*) fresh=1 ;; esac; done
	if [ "$fresh" = 1 ] || [ -z "$DEV" ]; then
		fresh_vif || { for id in $ids; do case_result "$id" FAIL "network-attach failed twice"; done; fresh=1; return; }
	fi
	# The rate limit is read at connect: cases other than 27 run without.
	xenstore-rm "/local/domain/0/backend/vif/$HD/$DEV/rate" 2>/dev/null
	xenstore-rm "/local/domain/$HD/data/hostile-phase" 2>/dev/null
	n0=$(dmesg | wc -l)
	[ -n "$hook" ] && $hook "$DEV" "$VIF"
	case " $ids " in *" netconsole "*) nc_start ;; esac
	case " $ids " in *" 19 "*|*" 26 "*|*" 28 "*|*" 37 "*|*" 38 "*|*" 43 "*)
		# Carrier (19), g1's ping (26, 28, 37, 38, 43), the vif's
		# interrupt count (28) and its control channel's (37, 38)
		# sampled with the program's phase (data/hostile-phase:
		# nobuf, buffers, storm, provoke-a, drain-a, wiggle,
		# provoke-b, drain-b, overflow, after, ctrl-storm,
		# ctrl-flood):
		# phase:carrier:ping:irqs:rtt_ms:uptime:ctrl_irqs
		( while :; do
			ph=$(xenstore-read "/local/domain/$HD/data/hostile-phase" 2>/dev/null || echo -)
			pg=- rtt=-
			case $ph in storm|wiggle|overflow|ctrl-storm|ctrl-flood)
				rtt=$(ping -c1 -W2 "$G1IP" 2>/dev/null | sed -n 's/.* time=\([0-9.]*\) ms.*/\1/p')
				if [ -n "$rtt" ]; then pg=y; else pg=n rtt=-; fi ;;
			esac
			echo "$ph:$(carrier "$VIF"):$pg:$(irqs "$VIF"):$rtt:$(cut -d' ' -f1 /proc/uptime):$(ctrl_irqs "$VIF")"
			sleep 0.5
		  done ) > /run/hostile-samples &
		bg=$! ;;
	esac
	case " $ids " in *" 35 "*|*" 36 "*|*" 39 "*)
		# Cases 35, 36 and 39 (xs_case): the program's phase, g1's
		# ping during the floods (xsflood, badconn, mcflood), the
		# kernel's log records so far, Slab and SUnreclaim (kB):
		# phase:ping:rtt_ms:kmsg:slab:sunreclaim:uptime
		( while :; do
			ph=$(xenstore-read "/local/domain/$HD/data/hostile-phase" 2>/dev/null || echo -)
			pg=- rtt=-
			case $ph in xsflood|badconn|mcflood)
				rtt=$(ping -c1 -W2 "$G1IP" 2>/dev/null | sed -n 's/.* time=\([0-9.]*\) ms.*/\1/p')
				if [ -n "$rtt" ]; then pg=y; else pg=n rtt=-; fi ;;
			esac
			echo "$ph:$pg:$rtt:$(kmsg_seq):$(awk '/^Slab:/ {s = $2} /^SUnreclaim:/ {u = $2} END {print s ":" u}' /proc/meminfo):$(cut -d' ' -f1 /proc/uptime)"
			sleep 0.5
		  done ) > /run/hostile-xs-samples &
		xbg=$! ;;
	esac
	case " $ids " in *" 39 "*)
		# Case 39: 5 s into the program's flood (a backlog in
		# xenwatch would have built up), another vif (g1's vif 1) is
		# attached; the time until its backend is Connected:
		# "<xl's exit status> <backend state> <seconds>".
		( lab_wait 120 phase_is mcflood || exit 0
		  sleep 5
		  a=$(cut -d' ' -f1 /proc/uptime)
		  timeout 120 xl network-attach g1 mac="$(lab_guest_mac 1 1)" bridge=xenbr0 script=vif-bridge >/dev/null 2>&1
		  r=$?
		  if lab_wait 60 lab_vif_connected 1 1; then st=4; else st=$(xenstore-read "$(lab_backend_path 1 1)/state" 2>/dev/null); fi
		  echo "$r ${st:-none} $(awk -v a="$a" -v b="$(cut -d' ' -f1 /proc/uptime)" 'BEGIN {printf "%.1f", b - a}')"
		) > /run/hostile-attach39 &
		abg=$! ;;
	esac
	case " $ids " in *" 45 "*)
		# Case 45: the program's phase (reconn-base, reconn,
		# reconn-after), g1's ping during the loop (reconn), the
		# kernel's log records so far, SUnreclaim (kB), dom0's threads
		# and the lines of /proc/interrupts:
		# phase:ping:rtt_ms:kmsg:sunreclaim:threads:irq_lines:uptime
		( while :; do
			ph=$(xenstore-read "/local/domain/$HD/data/hostile-phase" 2>/dev/null || echo -)
			pg=- rtt=-
			if [ "$ph" = reconn ]; then
				rtt=$(ping -c1 -W2 "$G1IP" 2>/dev/null | sed -n 's/.* time=\([0-9.]*\) ms.*/\1/p')
				if [ -n "$rtt" ]; then pg=y; else pg=n rtt=-; fi
			fi
			echo "$ph:$pg:$rtt:$(kmsg_seq):$(awk '/^SUnreclaim:/ {print $2}' /proc/meminfo):$(ls -d /proc/[0-9]*/task/[0-9]* 2>/dev/null | wc -l):$(wc -l < /proc/interrupts):$(cut -d' ' -f1 /proc/uptime)"
			sleep 0.5
		  done ) > /run/hostile-reconn-samples &
		rbg=$! ;;
	esac
	case " $ids " in *" 43 "*)
		# Case 43: dom0's CPU over the program's ctrl-flood phase,
		# a snapshot (cf_snap) once the phase is seen and another
		# once it is over.
		rm -f /run/hostile-cf0 /run/hostile-cf1
		( lab_wait 120 phase_is ctrl-flood || exit 0
		  cf_snap > /run/hostile-cf0
		  while phase_is ctrl-flood; do sleep 0.2; done
		  cf_snap > /run/hostile-cf1 ) &
		cbg=$! ;;
	esac
	case " $ids " in *" 15 "*|*" 39 "*)
		# Case 15's multicast filter (and case 39's last write): dom0
		# sends to 224.0.0.251 (the program lists 01:00:5e:00:00:fb)
		# and 224.0.0.252 (not listed) while the program's phase is
		# mcast-on or mcast-off.
		( while :; do
			case $(xenstore-read "/local/domain/$HD/data/hostile-phase" 2>/dev/null) in
			mcast-on|mcast-off)
				ping -c1 -W1 -I xenbr0 224.0.0.251 >/dev/null 2>&1
				ping -c1 -W1 -I xenbr0 224.0.0.252 >/dev/null 2>&1 ;;
			*) sleep 0.3 ;;
			esac
		  done ) &
		mbg=$! ;;
	esac
	[ -n "$args" ] || args="case $(echo "$ids" | sed 's/27w/27/g')"
	tmo=${HOSTILE_EXEC_TIMEOUT:-$(($(left) - R_RESERVE - 30))}
	[ "$tmo" -gt 60 ] || tmo=60
	lab_log "group $ngroup ($ids): playing on $VIF"
	t0=$(cut -d' ' -f1 /proc/uptime)
	# The command channel returns 3000 bytes and each round trip costs:
	# one exec returns the verdict lines (HOSTILE-END, failed checks,
	# errors); HOSTILE_FULL_LOG=1 also fetches every line, 16 at a time.
	out=$(gexec $H "hostile --dev $DEV $FULL_OPT $args > /run/h.out 2>&1; rc=\$?; grep -E '^HOSTILE-(END|RANDOM|CTRLSTREAM|CTRLFLOOD|ERROR|WARN)| FAIL|n/a' /run/h.out | tail -c 2700; echo rc=\$rc; wc -l < /run/h.out" "$tmo")
	rc=$(echo "$out" | sed -n 's/^rc=//p')
	nl=$(echo "$out" | tail -n1)
	case $rc:$nl in [0-9]*:[0-9]*) ;; *) rc=${rc:-x}; nl=0 ;; esac
	if [ "${HOSTILE_FULL_LOG:-0}" = 1 ] && [ "$nl" -gt 0 ]; then
		out="" a=1
		while [ "$a" -le "$nl" ]; do
			chunk=$(gexec $H "sed -n '$a,$((a + 15))p' /run/h.out" 60) || break
			out="$out$chunk
"
			a=$((a + 16))
		done
	fi
	[ -n "$bg" ] && { kill "$bg" 2>/dev/null; wait "$bg" 2>/dev/null; }
	[ -n "$mbg" ] && { kill "$mbg" 2>/dev/null; wait "$mbg" 2>/dev/null; }
	if [ -n "$cbg" ]; then
		# The phase ended long before the program did: the second
		# snapshot is there, unless the program died within it.
		lab_wait 5 test -s /run/hostile-cf1
		kill "$cbg" 2>/dev/null
		wait "$cbg" 2>/dev/null
	fi
	if [ -n "$xbg" ]; then
		kill "$xbg" 2>/dev/null
		wait "$xbg" 2>/dev/null
		xsamples=$(tr '\n' ' ' < /run/hostile-xs-samples)
		lab_log "cases 35/36/39 samples (phase:ping:rtt:kmsg:slab:sunreclaim:uptime): $xsamples"
	fi
	if [ -n "$abg" ]; then
		wait "$abg" 2>/dev/null
		attach39=$(cat /run/hostile-attach39 2>/dev/null)
		timeout 90 xl network-detach g1 1 >/dev/null 2>&1 ||
			timeout 60 xl network-detach -f g1 1 >/dev/null 2>&1
		lab_wait 60 test ! -e "/sys/class/net/$(lab_vif_name 1 1)" ||
			why="${why:+$why; }g1's vif 1 (case 39) still there after detach"
	fi
	if [ -n "$rbg" ]; then
		kill "$rbg" 2>/dev/null
		wait "$rbg" 2>/dev/null
		rsamples=$(tr '\n' ' ' < /run/hostile-reconn-samples)
	fi
	[ -n "$nbg" ] && nc_stop
	echo "$out" | grep -E '^HOSTILE|XNB-FAILREASON' | sed "s/^/  [g$H] /"
	last=$(echo "$out" | sed -n 's/.*HOSTILE-END .*final=\([a-z/-]*\).*/\1/p' | tail -n1)
	[ -z "$last" ] && why="${why:+$why; }no verdict from the program (rc $rc)" && fresh=1
	sleep 1
	nf=$(dmesg | tail -n +$((n0 + 1)) | grep -cE "$VIF.*($FATAL_RE)|($FATAL_RE).*$VIF")
	for id in $ids; do case $LOG_QUIET in *" $id "*) quiet=1 ;; esac; done
	if [ -n "$quiet" ]; then
		nlog=$(dmesg | tail -n +$((n0 + 1)) | wc -l)
		lab_log "group $ngroup ($ids): $nlog kernel log lines"
		[ "$nlog" -le "${HOSTILE_LOG_MAX:-40}" ] ||
			why="${why:+$why; }$nlog kernel log lines while it played (max ${HOSTILE_LOG_MAX:-40}: not rate-limited?)"
		dmesg | tail -n +$((n0 + 1)) | grep -qE "$SPLAT_RE" &&
			why="${why:+$why; }a kernel warning while it played"
	fi
	# A hook's changes to the vif end with its group.
	if [ -n "$hook" ] && declare -F "${hook}_undo" > /dev/null; then
		"${hook}_undo" "$DEV" "$VIF"
	fi
	case $ids:$last in
	random:*)
		# Every disable must be one the program saw (it reconnects after
		# each); the log is rate-limited, so fewer lines are allowed.
		R_LINE=$(echo "$out" | grep '^HOSTILE-RANDOM seed' | tail -n1)
		R_FATALS=$(echo "$R_LINE" | sed -n 's/.* fatals=\([0-9]*\).*/\1/p')
		lab_log "random: ${R_FATALS:-?} fatals seen by the program, $nf 'vif disabled' lines"
		[ "$nf" -le "${R_FATALS:-0}" ] || why="${why:+$why; }$nf 'vif disabled' lines but the program saw ${R_FATALS:-0} fatals"
		[ "$last" = up ] && ! lab_wait 5 test "$(carrier "$VIF")" = 1 &&
			why="${why:+$why; }carrier $(carrier "$VIF") after the random run"
		;;
	*:fatal)
		[ "$nf" -ge 1 ] || why="${why:+$why; }no 'vif disabled' log line for $VIF"
		[ "$NETBACK" = ours ] && [ "$nf" -gt 1 ] && why="${why:+$why; }$nf log lines (want 1)"
		[ "$(carrier "$VIF")" = 0 ] || why="${why:+$why; }carrier $(carrier "$VIF") after fatal"
		;;
	*:up)
		[ "$nf" -eq 0 ] || why="${why:+$why; }$nf unexpected 'vif disabled' line(s)"
		lab_wait 5 test "$(carrier "$VIF")" = 1 ||
			why="${why:+$why; }carrier $(carrier "$VIF") on a vif that must stay up"
		;;
	*:refused)
		st=$(xenstore-read "/local/domain/0/backend/vif/$HD/$DEV/state" 2>/dev/null)
		[ "$st" != 4 ] || why="${why:+$why; }backend Connected after a refusal"
		;;
	esac
	[ -n "$bg" ] && samples=$(tr '\n' ' ' < /run/hostile-samples)
	st=$(others_ok) || why="${why:+$why; }$st"
	if [ $((ngroup % 3)) = 0 ]; then
		st=$( (lab_iperf "$G1IP" 2) 2>&1 | tail -n1)
		lab_log "g1 TCP check: $st Gbit/s"
		awk -v a="$st" 'BEGIN { exit !(a + 0 > 0) }' || why="${why:+$why; }g1 TCP run failed: $st"
	fi
	lab_log "group $ngroup ($ids): checked in $(awk -v a="$t0" -v b="$(cut -d' ' -f1 /proc/uptime)" 'BEGIN {printf "%.0f", b - a}') s"
	# Per case: the program's own verdict and expected final state, the
	# case's own dom0 checks, and the group's dom0 checks.
	for id in $ids; do
		cs=${id%w}
		case $id in random|netconsole) cs=0 ;; esac
		line=$(echo "$out" | grep "^HOSTILE-END case=$cs " | head -n1)
		[ "$id" = 27w ] && line=$(echo "$out" | grep "^HOSTILE-END case=27 " | tail -n1)
		res=$(echo "$line" | sed -n 's/.* result=\([A-Z]*\).*/\1/p')
		final=$(echo "$line" | sed -n 's/.* final=\([a-z/-]*\).*/\1/p')
		# The expected final state comes from the program's table
		# of cases (`hostile list`), on the same line.
		expect=$(echo "$line" | sed -n 's/.* expect=\([a-z/-]*\).*/\1/p')
		cwhy=""
		if [ -z "$line" ]; then
			cwhy="no verdict from the program (rc $rc)"
		elif [ "$res" != PASS ]; then
			cwhy="program: $(echo "$out" | grep -E "^HOSTILE case=${cs}[a-z]* .* FAIL" | head -n2 | sed 's/^HOSTILE case=//' | tr '\n' ';')"
		fi
		if [ -n "$line" ] && [ "$id" != random ]; then
			case $expect in
			""|n/a) cwhy="${cwhy:+$cwhy; }no such case in the program" ;;
			"$final") ;;
			*) cwhy="${cwhy:+$cwhy; }final $final, expected $expect" ;;
			esac
		fi
		if [ "$id" = 19 ]; then
			lab_log "case 19 samples (phase:carrier): $samples; $VIF tx_dropped $(cat "/sys/class/net/$VIF/statistics/tx_dropped" 2>/dev/null)"
			case " $samples" in *" nobuf:0:"*) ;; *) cwhy="${cwhy:+$cwhy; }carrier never went off while no RX buffers were posted" ;; esac
			case " $samples" in *" buffers:1:"*) ;; *) cwhy="${cwhy:+$cwhy; }carrier did not come back with buffers" ;; esac
		fi
		if [ "$id" = 26 ]; then
			a=$(echo "$samples" | tr ' ' '\n' | grep -c '^storm:.:y:')
			st=$(echo "$samples" | tr ' ' '\n' | grep -c '^storm:')
			lab_log "case 26: g1 answered $a/$st pings during the event storm"
			[ "$st" -gt 0 ] && [ $((2 * a)) -ge "$st" ] ||
				cwhy="${cwhy:+$cwhy; }dom0/g1 unresponsive during the storm ($a/$st pings)"
		fi
		[ "$id" = 28 ] && case28 "$samples"
		[ "$id" = 44 ] && case44
		[ "$id" = 52 ] && case52
		case $id in 46) case46 ;; 47) case47 ;; 48) case48 ;; esac
		[ "$id" = 40 ] && [ "$GSO_SEGS" != 64 ] &&
			cwhy="${cwhy:+$cwhy; }gso_max_segs of $VIF not lowered to 64: 40b did not test the limit"
		case $id in 35|36|39) xs_case "$id" "$xsamples" "$attach39" ;; esac
		case $id in 37|38) ks=$((ks + 1)); ctrl_storm_check "$id" "$samples" "$ks" ;; esac
		[ "$id" = 43 ] && ctrl_flood_check "$samples"
		[ "$id" = 45 ] && case45 "$rsamples"
		[ "$id" = netconsole ] && netconsole_check
		case $id in 49|50|51) hc2_judge "$id" ;; esac
		[ -n "$why" ] && cwhy="${cwhy:+$cwhy; }group [$ids]: $why"
		if [ -z "$cwhy" ]; then case_result "$id" PASS; else case_result "$id" FAIL "$cwhy"; fi
	done
}

# case28 SAMPLES: per storm phase, the vif's interrupts (late-EOI
# throttling keeps spurious events to a few per second: without it the
# count follows the guest's notification rate) and g1's ping; appends to
# cwhy.  A phase is measured from the last sample before it to the first
# one after it (a sampler starved by the storm still measures it).
# HOSTILE_IRQ_MAX: interrupts allowed per phase.
case28() {
	local ph res n grow secs ans rtt max=${HOSTILE_IRQ_MAX:-150} smp=$1
	lab_log "case 28 samples (phase:carrier:ping:irqs:rtt:uptime): $smp"
	for ph in wiggle overflow; do
		res=$(echo "$smp" | tr ' ' '\n' | awk -F: -v p="$ph" '
			BEGIN { split("provoke-a drain-a wiggle provoke-b drain-b overflow after", o, " ")
				for (j in o) ord[o[j]] = j; want = ord[p] }
			NF >= 6 { k = ($1 in ord) ? ord[$1] : 0
				if (k < want) { i0 = $4; t0 = $6; have0 = 1 }
				if (k == want) { i1 = $4; t1 = $6; n++
					if ($3 == "y") { a++; if ($5 + 0 > mx) mx = $5 + 0 } }
				if (k > want && !after) { i1 = $4; t1 = $6; after = 1 } }
			END {
				if (!have0 || (!n && !after)) { print "0 0 0 0 - 0"; exit }
				printf "%d %d %.1f %d %s 1\n", n, i1 - i0, t1 - t0, a + 0, a ? mx : "-"
			}')
		# shellcheck disable=SC2086
		set -- $res
		n=$1 grow=$2 secs=$3 ans=$4 rtt=$5
		lab_log "case 28 $ph: $VIF took $grow interrupts in $secs s ($n samples in the phase); g1 answered $ans/$n pings, max RTT $rtt ms"
		echo "XNB-METRIC hostile case28 phase=$ph irqs=$grow seconds=$secs pings=$ans/$n max_rtt_ms=$rtt"
		if [ "$6" = 0 ]; then
			cwhy="${cwhy:+$cwhy; }phase $ph not seen by the sampler"
			continue
		fi
		[ "$grow" -le "$max" ] ||
			cwhy="${cwhy:+$cwhy; }$ph: $grow interrupts on $VIF in $secs s (max $max: events not throttled)"
		if [ "$n" -eq 0 ]; then
			cwhy="${cwhy:+$cwhy; }$ph: dom0 took no sample during the phase (starved)"
			continue
		fi
		[ $((2 * ans)) -ge "$n" ] ||
			cwhy="${cwhy:+$cwhy; }$ph: g1 answered $ans/$n pings"
		awk -v r="$rtt" 'BEGIN { exit !(r == "-" || r + 0 <= 1000) }' ||
			cwhy="${cwhy:+$cwhy; }$ph: g1 ping RTT up to $rtt ms"
	done
}

# xs_phase SAMPLES PHASE: PHASE's window in the samples of cases 35, 36
# and 39, from the last sample before it to the first one after it (a
# sampler the flood starves still measures it): "SAMPLES ANSWERED
# MAX_RTT LOG_RECORDS SLAB_KB SUNRECLAIM_KB SECONDS WHOLE", SAMPLES and
# ANSWERED of g1's pings within the phase, the slab figures the peak
# over the window minus its start, WHOLE 0 when the window has no start
# or no end.
xs_phase() {
	echo "$1" | tr ' ' '\n' | awk -F: -v p="$2" '
		NF >= 7 && !done {
			if ($1 != p && !inp) { k0 = $4; s0 = $5; u0 = $6; t0 = $7; have0 = 1; next }
			if ($5 > sm) sm = $5
			if ($6 > um) um = $6
			if ($1 == p) {
				inp = 1; n++
				if ($2 == "y") { a++; if ($3 + 0 > mx) mx = $3 + 0 }
				next
			}
			done = 1; k1 = $4; t1 = $7
		}
		END {
			if (!have0 || !done) { print "0 0 - 0 0 0 0 0"; exit }
			printf "%d %d %s %d %d %d %.1f 1\n", n, a + 0, a ? mx : "-", k1 - k0, sm - s0, um - u0, t1 - t0
		}'
}

# ping_judge PHASE ANSWERED SENT MAX_RTT: g1's pings sampled over PHASE,
# at least half answered and none slower than a second; appends to cwhy.
ping_judge() {
	if [ "$3" -eq 0 ]; then
		cwhy="${cwhy:+$cwhy; }$1: dom0 took no sample during the phase (starved)"
		return
	fi
	[ $((2 * $2)) -ge "$3" ] || cwhy="${cwhy:+$cwhy; }$1: g1 answered $2/$3 pings"
	awk -v r="$4" 'BEGIN { exit !(r == "-" || r + 0 <= 1000) }' ||
		cwhy="${cwhy:+$cwhy; }$1: g1 ping RTT up to $4 ms"
}

# xs_case ID SAMPLES ATTACH: dom0's checks of case 35, 36 or 39 over the
# program's flood phase; appends to cwhy.  During the flood g1 answers
# at least half of dom0's pings, within 1 s each.  35 and 36: the
# kernel log grows by 20 records plus one a second of the flood at most
# (HOSTILE_XS_LOG_MAX; before the budget and the back-off, one or two per
# write).  39: SUnreclaim, where
# queued watch events live, grows by HOSTILE_SLAB_MAX_KB at most (1024),
# and the vif attached to g1 meanwhile (ATTACH: "<xl status> <state>
# <seconds>") connects within HOSTILE_ATTACH_MAX seconds (45).
xs_case() {
	local id=$1 ph n a rtt lines slab sunr secs whole att attach lmax
	case $id in 35) ph=xsflood ;; 36) ph=badconn ;; *) ph=mcflood ;; esac
	# shellcheck disable=SC2046 # xs_phase prints the fields to split
	set -- "$3" $(xs_phase "$2" "$ph")
	attach=$1 n=$2 a=$3 rtt=$4 lines=$5 slab=$6 sunr=$7 secs=$8 whole=$9
	att=""
	[ "$id" = 39 ] && att=" attach=$(echo "${attach:-none}" | tr ' ' /)"
	lab_log "case $id ($ph, $secs s): kernel log $lines records, Slab $slab kB, SUnreclaim $sunr kB more; g1 answered $a/$n pings, max RTT $rtt ms$att"
	echo "XNB-METRIC hostile case$id phase=$ph seconds=$secs log_records=$lines slab_kb=$slab sunreclaim_kb=$sunr pings=$a/$n max_rtt_ms=$rtt$att"
	if [ "$whole" != 1 ]; then
		cwhy="${cwhy:+$cwhy; }phase $ph not seen whole by the sampler"
		return
	fi
	ping_judge "$ph" "$a" "$n" "$rtt"
	case $id in
	35|36)
		# The driver's budget is per time (5 lines per 10 s, then a
		# "suppressed" line; one mapping failure per connect hold): 20
		# records plus one a second of flood, HOSTILE_XS_LOG_MAX to
		# override.  Unbounded, the flood logs a line a write.
		lmax=${HOSTILE_XS_LOG_MAX:-$(awk -v s="$secs" 'BEGIN { printf "%d", 20 + s }')}
		[ "$lines" -le "$lmax" ] ||
			cwhy="${cwhy:+$cwhy; }$ph: dom0's kernel log grew by $lines records in $secs s (max $lmax)" ;;
	39)
		[ "$sunr" -le "${HOSTILE_SLAB_MAX_KB:-1024}" ] ||
			cwhy="${cwhy:+$cwhy; }$ph: SUnreclaim grew by $sunr kB (max ${HOSTILE_SLAB_MAX_KB:-1024}: watch events queued)"
		# shellcheck disable=SC2086 # the three fields
		set -- $attach
		if [ "${1:-x}" != 0 ] || [ "${2:-x}" != 4 ]; then
			cwhy="${cwhy:+$cwhy; }$ph: g1's vif 1 did not connect during the flood (xl status ${1:-none}, backend state ${2:-none})"
		elif ! awk -v s="$3" -v m="${HOSTILE_ATTACH_MAX:-45}" 'BEGIN { exit !(s + 0 <= m + 0) }'; then
			cwhy="${cwhy:+$cwhy; }$ph: g1's vif 1 took $3 s to connect (max ${HOSTILE_ATTACH_MAX:-45})"
		fi ;;
	esac
}

# case45 SAMPLES: dom0's checks of case 45 (a loop of connects that
# succeed, one queue and the most in turn, held back by the reconnect
# back-off) from its sampler's lines
# (phase:ping:rtt:kmsg:sunreclaim:threads:irq_lines:uptime); appends to
# cwhy.  During the loop (phase reconn) g1 answers at least half of
# dom0's pings, within 1 s each, and dom0's log grows by 20 records plus
# 2 a second at most (HOSTILE_RECONN_LOG_MAX; each cycle logs the
# bridge port's states).  From the last sample before the loop
# (reconn-base, a one-queue connection) to the last after it
# (reconn-after, one queue again): SUnreclaim grows by
# HOSTILE_RECONN_SLAB_KB at most (1024), the threads by
# HOSTILE_RECONN_THREADS (4: a group gets its NAPI thread with its first
# queue and keeps it, kworkers linger), and /proc/interrupts has as many
# lines give or take HOSTILE_RECONN_IRQ_SLACK (0: every channel the
# loop bound is unbound again).
case45() {
	local res n a rtt lines secs slab thr irq whole lmax
	lab_log "case 45 samples (phase:ping:rtt:kmsg:sunreclaim:threads:irq_lines:uptime): $1"
	res=$(echo "$1" | tr ' ' '\n' | awk -F: '
		NF >= 8 {
			# The base: its first sample, once connected (the last
			# may see the first disconnect of the loop); the start
			# of the loop: its last.
			if ($1 == "reconn-base") {
				if (!hb) { b5 = $5; b6 = $6; b7 = $7 }
				k0 = $4; t0 = $8; hb = 1
			}
			if ($1 == "reconn" && hb) {
				n++; k1 = $4; t1 = $8
				if ($2 == "y") { a++; if ($3 + 0 > mx) mx = $3 + 0 }
			}
			if ($1 == "reconn-after" && hb) {
				if (!ha) { k1 = $4; t1 = $8 }
				a5 = $5; a6 = $6; a7 = $7; ha = 1
			}
		}
		END {
			if (!hb || !ha) { printf "%d %d - 0 0 0 0 0 0\n", n, a + 0; exit }
			printf "%d %d %s %d %.1f %d %d %d 1\n", n, a + 0, a ? mx : "-", k1 - k0, t1 - t0, a5 - b5, a6 - b6, a7 - b7
		}')
	# shellcheck disable=SC2086 # the fields
	set -- $res
	n=$1 a=$2 rtt=$3 lines=$4 secs=$5 slab=$6 thr=$7 irq=$8 whole=$9
	lab_log "case 45 (reconn, $secs s): kernel log $lines records; from before the loop to after it SUnreclaim $slab kB, threads $thr, interrupt lines $irq; g1 answered $a/$n pings, max RTT $rtt ms"
	echo "XNB-METRIC hostile case45 seconds=$secs log_records=$lines sunreclaim_kb=$slab threads=$thr irq_lines=$irq pings=$a/$n max_rtt_ms=$rtt"
	if [ "$whole" != 1 ]; then
		cwhy="${cwhy:+$cwhy; }the sampler did not see the phases reconn-base and reconn-after"
		return
	fi
	ping_judge reconn "$a" "$n" "$rtt"
	lmax=${HOSTILE_RECONN_LOG_MAX:-$(awk -v s="$secs" 'BEGIN { printf "%d", 20 + 2 * s }')}
	[ "$lines" -le "$lmax" ] ||
		cwhy="${cwhy:+$cwhy; }reconn: dom0's kernel log grew by $lines records in $secs s (max $lmax)"
	[ "$slab" -le "${HOSTILE_RECONN_SLAB_KB:-1024}" ] ||
		cwhy="${cwhy:+$cwhy; }reconn: SUnreclaim grew by $slab kB (max ${HOSTILE_RECONN_SLAB_KB:-1024})"
	[ "$thr" -le "${HOSTILE_RECONN_THREADS:-4}" ] ||
		cwhy="${cwhy:+$cwhy; }reconn: $thr more threads after the loop (max ${HOSTILE_RECONN_THREADS:-4})"
	[ "${irq#-}" -le "${HOSTILE_RECONN_IRQ_SLACK:-0}" ] ||
		cwhy="${cwhy:+$cwhy; }reconn: /proc/interrupts changed by $irq lines over the loop (slack ${HOSTILE_RECONN_IRQ_SLACK:-0})"
}

# ctrl_storm_check ID SAMPLES K: the interrupts on the vif's control
# channel ("<vif>-ctrl") during the program's K-th ctrl-storm phase of
# the group (cases 37 and 38, K-th of them in the group), from the last
# sample before the phase to the first after it; appends to cwhy.
# Spurious events on a live control ring must be held back as on the
# data channels (the driver's back-off: a few dozen in 8 s; Linux's own
# lateeoi back-off alone lets ~1,000 through), and a dead ring's channel
# must stay masked: not one interrupt.
# HOSTILE_IRQ_MAX: interrupts allowed in the storm (150);
# HOSTILE_DEAD_IRQ_MAX: on a dead ring (2, the sampler's slack).
ctrl_storm_check() {
	local id=$1 res n grow secs ans max=${HOSTILE_IRQ_MAX:-150}
	lab_log "case $id samples (phase:carrier:ping:irqs:rtt:uptime:ctrl_irqs): $2"
	res=$(echo "$2" | tr ' ' '\n' | awk -F: -v k="$3" '
		NF >= 7 {
			if ($1 == "ctrl-storm" && prev != "ctrl-storm") occ++
			prev = $1
			if (occ < k) { i0 = $7; t0 = $6; have0 = 1; next }
			if (occ == k && $1 == "ctrl-storm") {
				n++; i1 = $7; t1 = $6; if ($3 == "y") a++; next
			}
			if (!after) { i1 = $7; t1 = $6; after = 1 }
		}
		END {
			if (!have0 || !n) { print "0 0 0 0"; exit }
			printf "%d %d %.1f %d\n", n, i1 - i0, t1 - t0, a + 0
		}')
	# shellcheck disable=SC2086
	set -- $res
	n=$1 grow=$2 secs=$3 ans=$4
	lab_log "case $id: $VIF-ctrl took $grow interrupts in $secs s ($n samples in the storm); g1 answered $ans/$n pings"
	echo "XNB-METRIC hostile case$id ctrl_irqs=$grow seconds=$secs pings=$ans/$n"
	if [ "$n" -eq 0 ]; then
		cwhy="${cwhy:+$cwhy; }the sampler saw no ctrl-storm phase"
		return
	fi
	# A count that fell: the irq was bound anew meanwhile.
	[ "$grow" -ge 0 ] || cwhy="${cwhy:+$cwhy; }$VIF-ctrl rebound during the storm"
	[ "$grow" -le "$max" ] ||
		cwhy="${cwhy:+$cwhy; }$grow interrupts on $VIF-ctrl in $secs s (max $max: events not throttled)"
	if [ "$id" = 38 ] && [ "$grow" -gt "${HOSTILE_DEAD_IRQ_MAX:-2}" ]; then
		cwhy="${cwhy:+$cwhy; }$grow interrupts on the dead control ring's channel (max ${HOSTILE_DEAD_IRQ_MAX:-2}: EOI'd after it died)"
	fi
}

# cf_snap: for case 43, the uptime, /proc/stat's cpu line, then every
# kworker's "pid ticks" (utime + stime so far, in clock ticks).  The
# driver's workqueue is unbound: its workers share pools with other
# unbound workqueues, so all kworkers are counted, an upper bound.
# (cat: a process may go between the glob and the read.)
cf_snap() {
	cut -d' ' -f1 /proc/uptime
	head -n1 /proc/stat
	cat /proc/[0-9]*/stat 2>/dev/null | awk '{
		n = split($0, a, ") ")
		if (n < 2 || index(a[1], "(kworker/") == 0) next
		split(a[n], r, " ")
		print $1, r[12] + r[13]
	}'
}

# ctrl_flood_check SAMPLES: case 43's dom0 checks over the program's
# ctrl-flood phase (a control ring kept full for 30 s), from cf_snap's
# two snapshots; appends to cwhy.  dom0's kworkers together (the
# control ring's work among them) use at most HOSTILE_CTRL_CPU_MAX
# percent of one CPU (10: the budget's 64 requests a second and a few
# runs cost a fraction of that; a ring served as fast as the guest
# fills it costs a whole CPU).  dom0's busy share of all its CPUs is
# logged.  g1 answers at least half of dom0's pings, within 1 s each.
ctrl_flood_check() {
	local res tck max=${HOSTILE_CTRL_CPU_MAX:-10} secs kw busy ncpu n a rtt served
	lab_log "case 43 samples (phase:carrier:ping:irqs:rtt:uptime:ctrl_irqs): $1"
	if [ ! -s /run/hostile-cf0 ] || [ ! -s /run/hostile-cf1 ]; then
		cwhy="${cwhy:+$cwhy; }dom0 did not see the ctrl-flood phase start and end"
		return
	fi
	tck=$(getconf CLK_TCK 2>/dev/null || echo 100)
	ncpu=$(grep -c '^cpu[0-9]' /proc/stat)
	# seconds, kworker % of one CPU, dom0 busy % of all its CPUs
	res=$(awk -v tck="$tck" '
		FNR == 1 { f = (FILENAME ~ /cf1$/); up[f] = $1; next }
		FNR == 2 {
			tot = 0
			for (i = 2; i <= 9 && i <= NF; i++) tot += $i
			total[f] = tot; busy[f] = $2 + $3 + $4 + $7 + $8; next
		}
		f == 0 { k0[$1] = $2; next }
		{ d = $2 - k0[$1]; if (d > 0) kw += d }
		END {
			s = up[1] - up[0]; dt = total[1] - total[0]
			if (s <= 0 || dt <= 0) { print "0 0 0"; exit }
			printf "%.1f %.1f %.1f\n", s, 100 * kw / tck / s, 100 * (busy[1] - busy[0]) / dt
		}' /run/hostile-cf0 /run/hostile-cf1)
	# shellcheck disable=SC2086 # the three fields
	set -- $res "$1"
	secs=$1 kw=$2 busy=$3
	# shellcheck disable=SC2046 # the three fields
	set -- $(echo "$4" | tr ' ' '
' | awk -F: '$1 == "ctrl-flood" {
		n++; if ($3 == "y") { a++; if ($5 + 0 > mx) mx = $5 + 0 } }
		END { printf "%d %d %s\n", n, a + 0, a ? mx : "-" }')
	n=$1 a=$2 rtt=$3
	served=$(echo "$out" | sed -n 's/^HOSTILE-CTRLFLOOD served=\([0-9]*\).*/\1/p' | tail -n1)
	lab_log "case 43 (ctrl-flood, $secs s): kworkers used $kw % of one CPU (max $max), dom0 busy $busy % of its $ncpu CPUs; ${served:-?} requests served; g1 answered $a/$n pings, max RTT $rtt ms"
	echo "XNB-METRIC hostile case43 seconds=$secs kworker_pct=$kw dom0_busy_pct=$busy cpus=$ncpu served=${served:-0} pings=$a/$n max_rtt_ms=$rtt"
	if [ "$secs" = 0 ]; then
		cwhy="${cwhy:+$cwhy; }dom0's ctrl-flood snapshots are unusable"
		return
	fi
	awk -v k="$kw" -v m="$max" 'BEGIN { exit !(k + 0 <= m + 0) }' ||
		cwhy="${cwhy:+$cwhy; }kworkers used $kw % of a CPU during the control ring flood (max $max)"
	ping_judge ctrl-flood "$a" "$n" "$rtt"
}

rate_small() { xenstore-write "/local/domain/0/backend/vif/$HD/$1/rate" "1000,100000"; }
rate_wrap() { xenstore-write "/local/domain/0/backend/vif/$HD/$1/rate" "4294967295,1"; }
# Case 40: the vif takes GSO packets of at most 64 segments, and the
# program reads the limit from the guest's data/hostile-gso-max-segs.
GSO_SEGS="" GSO_SEGS_WAS=""
gso_segs_64() {
	GSO_SEGS=""
	GSO_SEGS_WAS=$(ip -d link show dev "$2" | sed -n 's/.* gso_max_segs \([0-9]*\).*/\1/p')
	if ip link set dev "$2" gso_max_segs 64 &&
		xenstore-write "/local/domain/$HD/data/hostile-gso-max-segs" 64; then
		GSO_SEGS=$(ip -d link show dev "$2" | sed -n 's/.* gso_max_segs \([0-9]*\).*/\1/p')
	fi
	lab_log "$2: gso_max_segs ${GSO_SEGS:-not set}"
}
gso_segs_64_undo() {
	ip link set dev "$2" gso_max_segs "${GSO_SEGS_WAS:-65535}" ||
		lab_log "$2: gso_max_segs not restored"
	xenstore-rm "/local/domain/$HD/data/hostile-gso-max-segs" 2>/dev/null
}

# The group "netconsole": no control-ring budget (ctrl_rate=0) while it
# streams hash updates, so that the budget does not cap the writes of the
# hash seqlock it hammers; the value before is written back after.
P_CTRL_RATE=/sys/module/xen_netback/parameters/ctrl_rate
CTRL_RATE_WAS=""
ctrl_rate_off() {
	CTRL_RATE_WAS=""
	if [ ! -w "$P_CTRL_RATE" ]; then
		lab_log "no ctrl_rate parameter: the stream runs within the driver's own limits"
		return 0
	fi
	CTRL_RATE_WAS=$(cat "$P_CTRL_RATE")
	echo 0 > "$P_CTRL_RATE" || lab_log "ctrl_rate=0 refused"
	lab_log "ctrl_rate $(cat "$P_CTRL_RATE") (was $CTRL_RATE_WAS)"
}
ctrl_rate_off_undo() {
	[ -n "$CTRL_RATE_WAS" ] || return 0
	echo "$CTRL_RATE_WAS" > "$P_CTRL_RATE" || lab_log "ctrl_rate $CTRL_RATE_WAS not restored"
}

# sink_veth NS CASE [FEATURE on|off ...]: case CASE's sink on the
# bridge: veth NSa, whose peer NSb sits in the namespace NS (nothing
# there routes or answers), with ethtool -K's FEATUREs, known to the
# bridge by a static entry, so that what the program sends to it
# reaches no other port.  Its MAC in SINK_MAC; 1, logged, if it could
# not be made.  sink_veth_undo NS removes it.
SINK_MAC=""
sink_veth() {
	local ns=$1 cs=$2 mac br=${LAB_BRIDGE:-xenbr0}
	shift 2
	SINK_MAC=""
	modprobe veth 2>/dev/null
	ip netns add "$ns" 2>/dev/null
	if ! { ip link add "${ns}a" type veth peer name "${ns}b" netns "$ns" &&
		{ [ $# -eq 0 ] || ethtool -K "${ns}a" "$@" >/dev/null; } &&
		ip link set "${ns}a" master "$br" && ip link set "${ns}a" up &&
		ip netns exec "$ns" ip link set "${ns}b" up; }; then
		lab_log "case $cs: no sink"
		return 1
	fi
	mac=$(ip netns exec "$ns" ip -o link show "${ns}b" | sed -n 's/.*link\/ether \([0-9a-f:]*\).*/\1/p')
	bridge fdb replace "$mac" dev "${ns}a" master static ||
		{ lab_log "case $cs: no static entry for $mac on $br"; return 1; }
	lab_wait 30 test "$(cat "/sys/class/net/${ns}a/brport/state" 2>/dev/null)" = 3 ||
		lab_log "case $cs: ${ns}a not forwarding"
	SINK_MAC=$mac
}
sink_veth_undo() {
	ip link del "${1}a" 2>/dev/null
	ip netns del "$1" 2>/dev/null
}
# Case 44: g1's vif and the hostile one pinned to group 0 (our driver),
# and a sink_veth without TSO (xnbgso), so that the program's GSO
# packets to it are cut into their segments in the pass of the group.
# Its MAC goes to the guest's data/hostile-gso-sink; gso_measure
# measures g1 in each phase.
GSO_BG="" GSO_GROUP=""
gso_sink() {
	GSO_BG="" GSO_GROUP=""
	rm -f /run/hostile-gso
	xenstore-rm "/local/domain/$HD/data/hostile-gso-ack" 2>/dev/null
	if [ "$NETBACK" = ours ]; then
		xenstore-write "$(lab_backend_path 1)/worker-group" 0
		xenstore-write "/local/domain/0/backend/vif/$HD/$1/worker-group" 0
		GSO_GROUP=0
	fi
	sink_veth xnbgso 44 tso off || return 0
	xenstore-write "/local/domain/$HD/data/hostile-gso-sink" "$SINK_MAC"
	lab_log "case 44: sink $SINK_MAC on ${LAB_BRIDGE:-xenbr0}, $(ethtool -k xnbgsoa | grep '^tcp-segmentation-offload:')"
	gso_measure > /run/hostile-gso 2>/dev/null &
	GSO_BG=$!
}
gso_sink_undo() {
	[ -n "$GSO_BG" ] && { kill "$GSO_BG" 2>/dev/null; wait "$GSO_BG" 2>/dev/null; }
	sink_veth_undo xnbgso
	xenstore-rm "$(lab_backend_path 1)/worker-group" 2>/dev/null
	xenstore-rm "/local/domain/0/backend/vif/$HD/$1/worker-group" 2>/dev/null
	xenstore-rm "/local/domain/$HD/data/hostile-gso-sink" 2>/dev/null
	xenstore-rm "/local/domain/$HD/data/hostile-gso-ack" 2>/dev/null
}
# gso_q0_group VIF: the group of VIF's first queue (ethtool -S), or -.
gso_q0_group() {
	ethtool -S "$1" 2>/dev/null | awk '$1 == "q0_group:" { g = $2 } END { print g == "" ? "-" : g }'
}
# pass_reset GROUP: GROUP's longest pass and most slots back to 0 (no
# GROUP, the stock driver: nothing).
pass_reset() {
	[ -n "$1" ] || return 0
	echo 0 > "/sys/module/xen_netback/groups/$1/max_pass_us"
	echo 0 > "/sys/module/xen_netback/groups/$1/max_pass_slots"
}
# g1_line PHASE SECONDS GROUP GROUPS: g1 measured in PHASE of case 44 or
# 52, a line: PHASE SENT RECEIVED AVG_RTT_MS MAX_RTT_MS DOM0_TO_G1_MBPS
# G1_TO_DOM0_MBPS MAX_PASS_US MAX_PASS_SLOTS GROUPS, from g1's ping (10,
# 0.2 s apart), a SECONDS s TCP run each way and GROUP's longest pass
# and most slots since pass_reset ("- -" without a GROUP).
g1_line() {
	local g=/sys/module/xen_netback/groups/$3 p rx tx mp=- msl=-
	p=$(ping -c 10 -i 0.2 -W 2 "$G1IP" 2>/dev/null | awk '/bytes from/ && /time=/ {
		t = $0; sub(/.*time=/, "", t); sub(/ .*/, "", t)
		n++; s += t; if (t + 0 > m) m = t + 0 }
		END { if (n) printf "10 %d %.2f %.2f\n", n, s / n, m; else print "10 0 - -" }')
	rx=$(lab_iperf_out 40 "$G1IP" -t "$2" | lab_iperf_result tcp) || rx=0
	tx=$(lab_iperf_out 40 "$G1IP" -R -t "$2" | lab_iperf_result tcp) || tx=0
	if [ -n "$3" ]; then
		mp=$(cat "$g/max_pass_us") msl=$(cat "$g/max_pass_slots")
	fi
	echo "$1 $p $rx $tx $mp $msl $4"
}
# gso_measure: in each phase of case 44 (the program's data/hostile-phase
# gso-alone, gso-tiny, gso-48), g1_line with a 4 s TCP run each way and
# group GSO_GROUP, its GROUPS G1_GROUP HOSTILE_GROUP (each vif's first
# queue's); then it acknowledges the phase (data/hostile-gso-ack), which
# ends it.
gso_measure() {
	local ph gg hg
	for ph in gso-alone gso-tiny gso-48; do
		lab_wait 300 phase_is "$ph" || { echo "$ph missing"; return; }
		gg=$(gso_q0_group "$G1VIF") hg=$(gso_q0_group "$VIF")
		pass_reset "$GSO_GROUP"
		sleep 1
		g1_line "$ph" 4 "$GSO_GROUP" "$gg $hg"
		xenstore-write "/local/domain/$HD/data/hostile-gso-ack" "$ph"
	done
}
# case44: g1 beside the GSO flood (gso_measure's lines): in each flood
# phase 9 of its 10 pings answered, their mean RTT at most
# HOSTILE_GSO_RTT_X (4) times alone's plus 20 ms, with our driver both
# vifs in group 0 throughout; beside the refused sizes (gso-tiny) TCP
# each way at least HOSTILE_GSO_TPUT_PCT (40) % of g1's alone (its half
# of a group of two busy vifs, less the noise of its alone run); beside
# 48-byte segments (legal, cut in dom0) at least HOSTILE_GSO48_PCT (3)
# %: not starved, which it was before a packet's charge past its turn's
# share was owed by the sender's next turns; not its fair half either,
# the pass sharing slots, not dom0's time (design.md, "Known
# weaknesses").  The passes' worst is reported.  Appends to cwhy.
case44() {
	local lines alone l ph res pct=${HOSTILE_GSO_TPUT_PCT:-40} x=${HOSTILE_GSO_RTT_X:-4}
	local pct48=${HOSTILE_GSO48_PCT:-3}
	lines=$(cat /run/hostile-gso 2>/dev/null)
	lab_log "case 44 (phase pings answered avg_rtt max_rtt dom0->g1 g1->dom0 Mbit/s max_pass_us max_pass_slots groups): $(echo "$lines" | tr '\n' ';')"
	alone=$(echo "$lines" | grep '^gso-alone ')
	if [ -z "$alone" ]; then
		cwhy="${cwhy:+$cwhy; }g1 not measured alone (no sink?)"
		return
	fi
	echo "XNB-METRIC hostile case44 $alone"
	for ph in gso-tiny gso-48; do
		l=$(echo "$lines" | grep "^$ph ")
		if [ -z "$l" ]; then
			cwhy="${cwhy:+$cwhy; }g1 not measured in $ph"
			continue
		fi
		echo "XNB-METRIC hostile case44 $l"
		res=$(awk -v a="$alone" -v l="$l" -v pct="$pct" -v x="$x" -v ours="$GSO_GROUP" -v pct48="$pct48" 'BEGIN {
			split(a, A, " "); split(l, L, " ")
			if (L[3] < 9) print "g1 answered " L[3] "/10 pings"
			if (A[4] != "-" && L[4] != "-" && L[4] + 0 > x * A[4] + 20)
				print "g1 mean ping RTT " L[4] " ms (alone " A[4] ")"
			if (L[1] == "gso-48")
				pct = pct48
			if (L[6] + 0 < A[6] * pct / 100)
				print "g1 dom0->g1 " L[6] " Mbit/s (alone " A[6] ")"
			if (L[7] + 0 < A[7] * pct / 100)
				print "g1 g1->dom0 " L[7] " Mbit/s (alone " A[7] ")"
			if (ours != "" && (L[10] != ours || L[11] != ours))
				print "groups " L[10] "/" L[11] ", not both " ours
		}')
		[ -z "$res" ] || cwhy="${cwhy:+$cwhy; }$ph: $(echo "$res" | tr '\n' ';')"
	done
}

# ---- cases 49, 50, 51: churn on a live connection ------------------------
# Each case's hook (hc49, hc50, hc51) starts hc2_start's sampler, which
# writes the fields of cases 35/36/39's (phase:ping:rtt:kmsg:slab:
# sunreclaim:uptime, for xs_phase) to /run/hostile-hc2-samples and
# pings g1 in the case's phases; the hook's _undo stops it and whatever
# else the hook started; hc2_judge judges the case from dom0's side.
HC2_BG="" HC2_JOB="" HC2_N0=0 HC2_IFINDEX="" HC2_PHASES=""
# What dom0's log must not show while one of these cases plays.
HC2_BAD_RE='WARNING:|Call Trace|BUG:|Oops|soft lockup|hard LOCKUP|rcu.*stall|hung task'
# hc2_sample PHASES: one sample; g1 is pinged in PHASES (a regex).
hc2_sample() {
	local ph pg=- rtt=-
	ph=$(xenstore-read "/local/domain/$HD/data/hostile-phase" 2>/dev/null || echo -)
	if [[ $ph =~ ^($1)$ ]]; then
		rtt=$(ping -c1 -W2 "$G1IP" 2>/dev/null | sed -n 's/.* time=\([0-9.]*\) ms.*/\1/p')
		if [ -n "$rtt" ]; then pg=y; else pg=n rtt=-; fi
	fi
	echo "$ph:$pg:$rtt:$(kmsg_seq):$(awk '/^Slab:/ {s = $2} /^SUnreclaim:/ {u = $2} END {print s ":" u}' /proc/meminfo):$(cut -d' ' -f1 /proc/uptime)"
}
# hc2_start PHASES: the sampler, a sample every 0.5 s past the last.
hc2_start() {
	HC2_N0=$(dmesg | wc -l) HC2_JOB="" HC2_PHASES=$1
	( while :; do hc2_sample "$1"; sleep 0.5; done ) > /run/hostile-hc2-samples &
	HC2_BG=$!
}
# hc2_stop: the sampler and the hook's job stopped, then one more sample:
# a sample takes seconds on a slow host, and the loop may have missed the
# phase's end, which the judge needs.
hc2_stop() {
	local p
	for p in $HC2_BG $HC2_JOB; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	[ -z "$HC2_BG" ] || hc2_sample "$HC2_PHASES" >> /run/hostile-hc2-samples
	HC2_BG="" HC2_JOB=""
}
# Case 49: dom0 sends to 224.0.0.251 (listed) and 224.0.0.252 while the
# program's phase is mcast-on, as for case 15.
hc49() {
	hc2_start mcchurn
	( while :; do
		case $(xenstore-read "/local/domain/$HD/data/hostile-phase" 2>/dev/null) in
		mcast-on)
			ping -c1 -W1 -I xenbr0 224.0.0.251 >/dev/null 2>&1
			ping -c1 -W1 -I xenbr0 224.0.0.252 >/dev/null 2>&1 ;;
		*) sleep 0.3 ;;
		esac
	  done ) &
	HC2_JOB=$!
}
hc49_undo() { hc2_stop; }
# Case 50: the netdev's ifindex, which a device unregistered (and made
# anew) would not keep.
hc50() {
	hc2_start badstate
	HC2_IFINDEX=$(cat "/sys/class/net/$2/ifindex" 2>/dev/null || echo none)
}
hc50_undo() { hc2_stop; }
# Case 51: dom0 knows the program's address (192.0.2.99) as the hostile
# vif's MAC, so that it can send to it without ARP (the program answers
# none); hc51_job does dom0's side of the program's phases.
HC51_IP=192.0.2.99
hc51() {
	local mac
	rm -f /run/hostile-hc51-snd
	: > /run/hostile-hc51
	hc2_start 'mq-.*'
	mac=$(xenstore-read "/local/domain/0/backend/vif/$HD/$1/mac" 2>/dev/null)
	ip neigh replace "$HC51_IP" lladdr "$mac" dev "${LAB_BRIDGE:-xenbr0}" nud permanent ||
		lab_log "case 51: no neighbour entry for $HC51_IP ($mac)"
	command -v tc >/dev/null || lab_log "case 51: no tc: qdisc backlogs read as 0"
	hc51_job "$2" > /dev/null 2>&1 &
	HC2_JOB=$!
}
hc51_undo() {
	hc2_stop
	if [ -s /run/hostile-hc51-snd ]; then
		kill "$(cat /run/hostile-hc51-snd)" 2>/dev/null
		rm -f /run/hostile-hc51-snd
	fi
	ip neigh del "$HC51_IP" dev "${LAB_BRIDGE:-xenbr0}" 2>/dev/null
	xenstore-rm "/local/domain/$HD/data/hostile-mq-ack" 2>/dev/null
	xenstore-rm "/local/domain/$HD/data/hostile-mq-top" 2>/dev/null
}
# hc51_qdisc VIF: "<tx queue> <packets queued>" for each child qdisc of
# VIF's root (mq: parent :1 for tx queue 0, in hex).
hc51_qdisc() {
	tc -s qdisc show dev "$1" 2>/dev/null | awk '
		function hex(s,   i, v) {
			v = 0; s = tolower(s)
			for (i = 1; i <= length(s); i++)
				v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
			return v
		}
		/^qdisc / { p = ""; for (i = 1; i < NF; i++) if ($i == "parent") p = $(i + 1) }
		/^ *backlog / && p ~ /^:[0-9a-f]+$/ { v = $3; sub(/p$/, "", v); print hex(substr(p, 2)) - 1, v + 0 }'
}
# hc51_job VIF: from the program's first mq-fill phase until its phases
# end, dom0 pings the program's address every 2 ms (1000-octet packets:
# the Toeplitz table steers them all to the queue it names).  In each
# mq-fill phase, once dom0 sees packets wait for the queue the program
# names (data/hostile-mq-top) in our driver's queue (debugfs) and, the
# netdev queue stopped, in its qdisc (stock: the qdisc), or after 3 s,
# it writes the most it saw of each to data/hostile-mq-ack and
# /run/hostile-hc51 ("fill QUEUE RX_SKBS BACKLOG"); 1-2 s into each
# mq-flow phase (after a reconnect), the real tx queue count and the
# packets left in the qdiscs of the queues beyond it ("flow REAL STALE").
hc51_job() {
	local vif=$1 ph last="" t0=0 done_=0 top rx bl mrx=- mbl=0 dbg="" snd real stale
	local dp=/local/domain/$HD/data
	if [ "$NETBACK" = ours ]; then
		mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
		dbg=/sys/kernel/debug/xen-netback/$(basename "$(readlink -f "/sys/class/net/$vif/device")")
	fi
	lab_wait 120 phase_is mq-fill || return 0
	ping -q -i 0.002 -s 1000 -W 1 "$HC51_IP" >/dev/null 2>&1 &
	snd=$!
	echo "$snd" > /run/hostile-hc51-snd
	while ph=$(xenstore-read "$dp/hostile-phase" 2>/dev/null); do
		case $ph in mq-*) ;; *) break ;; esac
		[ "$ph" = "$last" ] || { t0=$SECONDS done_=0 last=$ph mrx=- mbl=0; }
		if [ "$ph" = mq-fill ] && [ "$done_" = 0 ]; then
			top=$(xenstore-read "$dp/hostile-mq-top" 2>/dev/null || echo 0)
			rx=-
			[ -n "$dbg" ] && rx=$(sed -n 's/.* rx_skbs \([0-9]*\).*/\1/p' "$dbg/io_ring_q$top" 2>/dev/null)
			bl=$(hc51_qdisc "$vif" | awk -v q="$top" '$1 == q { s = $2 } END { print s + 0 }')
			# The most seen of each: the drain and the stall timers
			# empty both, so one late sample can read nothing.
			case ${rx:--} in -) ;; *) [ "$rx" -le "${mrx/-/0}" ] || mrx=$rx ;; esac
			[ "$bl" -le "$mbl" ] || mbl=$bl
			# Both the driver's queue and the qdisc behind it (ours),
			# or 3 s: whatever waited by then.
			if { [ "${mrx/-/0}" -gt 0 ] || [ -z "$dbg" ]; } && [ "$mbl" -gt 0 ] ||
				[ $((SECONDS - t0)) -ge 3 ]; then
				echo "fill $top $mrx $mbl" >> /run/hostile-hc51
				xenstore-write "$dp/hostile-mq-ack" "queue $top: rx_skbs $mrx, qdisc backlog $mbl (the most seen)"
				done_=1
			fi
		elif [ "$ph" = mq-flow ] && [ "$done_" = 0 ] && [ $((SECONDS - t0)) -ge 2 ]; then
			real=$(find "/sys/class/net/$vif/queues" -maxdepth 1 -name 'tx-*' | wc -l)
			stale=$(hc51_qdisc "$vif" | awk -v r="$real" '$1 >= r { s += $2 } END { print s + 0 }')
			echo "flow $real $stale" >> /run/hostile-hc51
			done_=1
		fi
		sleep 0.2
	done
	kill "$snd" 2>/dev/null
	wait "$snd" 2>/dev/null
	rm -f /run/hostile-hc51-snd
}
# hc2_judge ID: dom0's checks of case 49, 50 or 51; appends to cwhy.
# All three: dom0 logs no warning, oops, lockup or RCU stall while the
# case plays, and g1 answers at least half of dom0's pings in the
# case's phases, each within 1 s (ping_judge).
# 49 (phase mcchurn): SUnreclaim, where the list's entries and those
# freed after a grace period live, grows by HOSTILE_CHURN_SLAB_MAX_KB
# at most (2048) over the phase; the log by 20 records plus 3 a second
# (HOSTILE_CHURN_LOG_MAX: the vif's budget for its "flooding multicast"
# line is 10 per 5 s).
# 50 (phase badstate): the log grows as in 35 (20 records plus one a
# second, HOSTILE_XS_LOG_MAX); the netdev is the one the case began with
# (same ifindex: never unregistered) and the backend ends Connected.
# 51 (phases mq-*): dom0 saw packets wait for the last queue before each
# reconnect (our driver: its queue in debugfs or the qdisc; stock: the
# qdisc, reported only); after each, no packet is left in the qdisc of
# a queue beyond the real count; no "selects TX queue" (the core
# capping a queue the driver chose) or "Invalid queue" line; SUnreclaim
# at the end within HOSTILE_CHURN_SLAB_MAX_KB of its start.
hc2_judge() {
	local id=$1 samples hits n a mx lines slab sunr secs whole lmax now st l top rx bl
	samples=$(tr '\n' ' ' < /run/hostile-hc2-samples 2>/dev/null)
	lab_log "case $id samples (phase:ping:rtt:kmsg:slab:sunreclaim:uptime): $samples"
	hits=$(dmesg | tail -n +$((HC2_N0 + 1)) | grep -E "$HC2_BAD_RE" | head -n 2 | tr '\n' ' ')
	[ -z "$hits" ] || cwhy="${cwhy:+$cwhy; }kernel log: $hits"
	case $id in
	49|50)
		l=mcchurn
		[ "$id" = 50 ] && l=badstate
		# shellcheck disable=SC2046 # xs_phase prints the fields to split
		set -- $(xs_phase "$samples" "$l")
		n=$1 a=$2 mx=$3 lines=$4 slab=$5 sunr=$6 secs=$7 whole=$8
		lab_log "case $id ($l, $secs s): kernel log $lines records, Slab $slab kB, SUnreclaim $sunr kB more; g1 answered $a/$n pings, max RTT $mx ms"
		echo "XNB-METRIC hostile case$id phase=$l seconds=$secs log_records=$lines slab_kb=$slab sunreclaim_kb=$sunr pings=$a/$n max_rtt_ms=$mx"
		if [ "$whole" != 1 ]; then
			cwhy="${cwhy:+$cwhy; }phase $l not seen whole by the sampler"
		else
			ping_judge "$l" "$a" "$n" "$mx"
		fi
		;;
	esac
	case $id in
	49)
		[ "$whole" != 1 ] || [ "$sunr" -le "${HOSTILE_CHURN_SLAB_MAX_KB:-2048}" ] ||
			cwhy="${cwhy:+$cwhy; }mcchurn: SUnreclaim grew by $sunr kB (max ${HOSTILE_CHURN_SLAB_MAX_KB:-2048})"
		lmax=${HOSTILE_CHURN_LOG_MAX:-$(awk -v s="$secs" 'BEGIN { printf "%d", 20 + 3 * s }')}
		[ "$lines" -le "$lmax" ] ||
			cwhy="${cwhy:+$cwhy; }mcchurn: dom0's kernel log grew by $lines records in $secs s (max $lmax)" ;;
	50)
		lmax=${HOSTILE_XS_LOG_MAX:-$(awk -v s="$secs" 'BEGIN { printf "%d", 20 + s }')}
		[ "$lines" -le "$lmax" ] ||
			cwhy="${cwhy:+$cwhy; }badstate: dom0's kernel log grew by $lines records in $secs s (max $lmax)"
		now=$(cat "/sys/class/net/$VIF/ifindex" 2>/dev/null || echo none)
		st=$(xenstore-read "/local/domain/0/backend/vif/$HD/$DEV/state" 2>/dev/null)
		lab_log "case 50: $VIF ifindex $HC2_IFINDEX -> $now, backend state ${st:-none}"
		if [ "$now" != "$HC2_IFINDEX" ] || [ "$st" != 4 ]; then
			cwhy="${cwhy:+$cwhy; }$VIF ifindex $HC2_IFINDEX -> $now, backend state ${st:-none} (want the same netdev, Connected)"
			# The next group needs a vif that works.
			fresh=1
		fi ;;
	51)
		# shellcheck disable=SC2046 # the three fields
		set -- $(echo "$samples" | tr ' ' '\n' | awk -F: '$1 ~ /^mq-/ {
			n++; if ($2 == "y") { a++; if ($3 + 0 > mx) mx = $3 + 0 } }
			END { printf "%d %d %s\n", n, a + 0, a ? mx : "-" }')
		n=$1 a=$2 mx=$3
		# shellcheck disable=SC2046 # first and last SUnreclaim
		set -- $(echo "$samples" | tr ' ' '\n' | awk -F: 'NF >= 7 { if (!h) { f = $6; h = 1 } l = $6 } END { print f + 0, l + 0 }')
		sunr=$(($2 - $1))
		lab_log "case 51: $(tr '\n' ';' < /run/hostile-hc51 2>/dev/null) SUnreclaim $sunr kB more at the end; g1 answered $a/$n pings, max RTT $mx ms"
		echo "XNB-METRIC hostile case51 sunreclaim_kb=$sunr pings=$a/$n max_rtt_ms=$mx $(tr ' \n' '_ ' < /run/hostile-hc51 2>/dev/null)"
		ping_judge mq "$a" "$n" "$mx"
		[ "$sunr" -le "${HOSTILE_CHURN_SLAB_MAX_KB:-2048}" ] ||
			cwhy="${cwhy:+$cwhy; }SUnreclaim $sunr kB above its start after the reconnects (max ${HOSTILE_CHURN_SLAB_MAX_KB:-2048})"
		grep -q '^fill ' /run/hostile-hc51 2>/dev/null ||
			cwhy="${cwhy:+$cwhy; }dom0 saw no mq-fill phase"
		grep -q '^flow ' /run/hostile-hc51 2>/dev/null ||
			cwhy="${cwhy:+$cwhy; }dom0 saw no mq-flow phase"
		# "fill QUEUE RX_SKBS BACKLOG" and "flow REAL STALE"
		while read -r l top rx bl; do
			case $l:$rx in
			fill:|fill:-) rx=0 ;;
			esac
			case $l in
			fill)
				if [ "$NETBACK" = ours ] && [ "$rx" = 0 ] && [ "${bl:-0}" = 0 ]; then
					cwhy="${cwhy:+$cwhy; }nothing waited for queue $top before the reconnect: the removal went untested"
				fi ;;
			flow)
				[ "${rx:-0}" = 0 ] ||
					cwhy="${cwhy:+$cwhy; }$rx packets left in the qdiscs of tx queues $top and up after the reconnect" ;;
			esac
		done < /run/hostile-hc51
		hits=$(dmesg | tail -n +$((HC2_N0 + 1)) | grep -E 'selects TX queue|Invalid queue' | head -n 2 | tr '\n' ' ')
		[ -z "$hits" ] || cwhy="${cwhy:+$cwhy; }kernel log: $hits" ;;
	esac
}
# Case 52: valid 64-byte UDP frames flooded on every queue of the
# hostile vif beside g1 in the same worker group.  The hostile vif is
# replaced by one made while max_queues is 4 (a vif's queues are fixed
# when it is made; restored after), it and g1's vif are pinned to group
# 0 (our driver), and a sink_veth goes on the bridge (xnbfld; no
# address: dom0 drops the frames there).  Its MAC goes to the guest's
# data/hostile-flood-sink; flood_measure measures g1 in each phase.
P_MAX_QUEUES=/sys/module/xen_netback/parameters/max_queues
FLOOD_BG="" FLOOD_GROUP="" MQ_WAS=""
flood_sink() {
	FLOOD_BG="" FLOOD_GROUP="" MQ_WAS=""
	rm -f /run/hostile-flood
	xenstore-rm "/local/domain/$HD/data/hostile-flood-ack" 2>/dev/null
	if [ -w "$P_MAX_QUEUES" ]; then
		MQ_WAS=$(cat "$P_MAX_QUEUES")
		echo 4 > "$P_MAX_QUEUES" || lab_log "case 52: max_queues 4 refused"
		# run_group goes on with the new DEV and VIF.
		fresh_vif || { lab_log "case 52: no vif of 4 queues"; fresh=1; return 0; }
	fi
	if [ "$NETBACK" = ours ]; then
		xenstore-write "$(lab_backend_path 1)/worker-group" 0
		xenstore-write "/local/domain/0/backend/vif/$HD/$DEV/worker-group" 0
		FLOOD_GROUP=0
	fi
	sink_veth xnbfld 52 || return 0
	xenstore-write "/local/domain/$HD/data/hostile-flood-sink" "$SINK_MAC"
	lab_log "case 52: $VIF made with max_queues $(cat "$P_MAX_QUEUES" 2>/dev/null), sink $SINK_MAC on ${LAB_BRIDGE:-xenbr0}"
	flood_measure > /run/hostile-flood 2>/dev/null &
	FLOOD_BG=$!
}
flood_sink_undo() {
	[ -n "$FLOOD_BG" ] && { kill "$FLOOD_BG" 2>/dev/null; wait "$FLOOD_BG" 2>/dev/null; }
	sink_veth_undo xnbfld
	[ -n "$MQ_WAS" ] && { echo "$MQ_WAS" > "$P_MAX_QUEUES" || lab_log "max_queues $MQ_WAS not restored"; }
	xenstore-rm "$(lab_backend_path 1)/worker-group" 2>/dev/null
	xenstore-rm "/local/domain/0/backend/vif/$HD/$DEV/worker-group" 2>/dev/null
	xenstore-rm "/local/domain/$HD/data/hostile-flood-sink" 2>/dev/null
	xenstore-rm "/local/domain/$HD/data/hostile-flood-ack" 2>/dev/null
}
# flood_groups VIF: the groups of VIF's queues (ethtool -S), "0/0/0/0",
# or -.
flood_groups() {
	ethtool -S "$1" 2>/dev/null | awk '$1 ~ /^q[0-9]+_group:$/ { g = g (g == "" ? "" : "/") $2 }
		END { print g == "" ? "-" : g }'
}
# flood_measure: in each phase of case 52 (the program's data/hostile-
# phase flood-alone, flood-64), as gso_measure does for case 44:
# g1_line with a 3 s TCP run each way and group FLOOD_GROUP, its GROUPS
# G1_GROUPS HOSTILE_GROUPS (every queue's); then it acknowledges the
# phase (data/hostile-flood-ack), which ends it.
flood_measure() {
	local ph gg hg
	for ph in flood-alone flood-64; do
		lab_wait 300 phase_is "$ph" || { echo "$ph missing"; return; }
		pass_reset "$FLOOD_GROUP"
		sleep 1
		gg=$(flood_groups "$G1VIF") hg=$(flood_groups "$VIF")
		g1_line "$ph" 3 "$FLOOD_GROUP" "$gg $hg"
		xenstore-write "/local/domain/$HD/data/hostile-flood-ack" "$ph"
	done
}
# case52: g1 beside the flood (flood_measure's lines): 9 of its 10 pings
# answered, their mean RTT at most HOSTILE_FLOOD_RTT_X (4) times alone's
# plus 20 ms, and its TCP each way at least HOSTILE_FLOOD_TPUT_PCT (20)
# % of alone: below its fair half, which the lab's run-to-run spread
# would make a coin toss, far above starvation (design.md, "Known
# weaknesses"); with our driver every queue of both vifs
# in group 0 throughout, the hostile one with two queues at least.  The
# passes' worst is reported.  Appends to cwhy.
case52() {
	local lines alone l res pct=${HOSTILE_FLOOD_TPUT_PCT:-20} x=${HOSTILE_FLOOD_RTT_X:-4}
	lines=$(cat /run/hostile-flood 2>/dev/null)
	lab_log "case 52 (phase pings answered avg_rtt max_rtt dom0->g1 g1->dom0 Mbit/s max_pass_us max_pass_slots groups): $(echo "$lines" | tr '\n' ';')"
	alone=$(echo "$lines" | grep '^flood-alone ')
	l=$(echo "$lines" | grep '^flood-64 ')
	if [ -z "$alone" ] || [ -z "$l" ]; then
		cwhy="${cwhy:+$cwhy; }g1 not measured alone and beside the flood (no sink?)"
		return
	fi
	echo "XNB-METRIC hostile case52 $alone"
	echo "XNB-METRIC hostile case52 $l"
	res=$(awk -v a="$alone" -v l="$l" -v pct="$pct" -v x="$x" -v ours="$FLOOD_GROUP" 'BEGIN {
		split(a, A, " "); split(l, L, " ")
		if (L[3] < 9) print "g1 answered " L[3] "/10 pings"
		if (A[4] != "-" && L[4] != "-" && L[4] + 0 > x * A[4] + 20)
			print "g1 mean ping RTT " L[4] " ms (alone " A[4] ")"
		if (L[6] + 0 < A[6] * pct / 100)
			print "g1 dom0->g1 " L[6] " Mbit/s (alone " A[6] ", want " pct " %)"
		if (L[7] + 0 < A[7] * pct / 100)
			print "g1 g1->dom0 " L[7] " Mbit/s (alone " A[7] ", want " pct " %)"
		if (ours != "") {
			n = split(L[10] "/" L[11], G, "/")
			for (i = 1; i <= n; i++)
				if (G[i] != ours) bad = 1
			if (bad)
				print "groups " L[10] " and " L[11] ", not all " ours
			if (n < 3)
				print "the hostile vif had " n - 1 " queue(s), not several"
		}
	}')
	[ -z "$res" ] || cwhy="${cwhy:+$cwhy; }flood-64: $(echo "$res" | tr '\n' ';')"
}

# splat_since_group: a warning, oops or BUG in dom0's log since the
# group began (run_group's n0) fails the case; appends to cwhy.
splat_since_group() {
	dmesg | tail -n +$((n0 + 1)) | grep -qE "$SPLAT_RE" &&
		cwhy="${cwhy:+$cwhy; }a kernel warning while it played"
}

# case46: beyond its final state (fatal: one "vif disabled" line, carrier
# off), no warning while one grant served as two rings and dom0's copies
# landed on ring pages.
case46() {
	splat_since_group
}

# Cases 47 and 48: dom0 sends to the hostile guest all through the
# group: pings to 192.0.2.99 (every HOSTILE_RXFLOOD_INTERVAL s, 0.005),
# which a permanent neighbour entry gives the vif's MAC and a static
# bridge entry sends to the vif alone (to nothing while its carrier is
# off).
RXF_BG="" RXF_MAC=""
rxflood_start() { # DEV VIF
	local br=${LAB_BRIDGE:-xenbr0} iv=${HOSTILE_RXFLOOD_INTERVAL:-0.005}
	RXF_BG=""
	RXF_MAC=$(xenstore-read "/local/domain/0/backend/vif/$HD/$1/mac" 2>/dev/null)
	if [ -z "$RXF_MAC" ]; then
		lab_log "$2: no mac in its backend node: no traffic to the guest"
		return 0
	fi
	bridge fdb replace "$RXF_MAC" dev "$2" master static ||
		lab_log "$2: no static entry for $RXF_MAC on $br"
	ip neigh replace 192.0.2.99 lladdr "$RXF_MAC" dev "$br" nud permanent ||
		lab_log "no neighbour entry 192.0.2.99 -> $RXF_MAC"
	ping -q -i "$iv" -s 200 192.0.2.99 >/dev/null 2>&1 &
	RXF_BG=$!
	lab_log "$2: dom0 pings 192.0.2.99 ($RXF_MAC) every $iv s"
}
rxflood_stop() { # DEV VIF
	if [ -n "$RXF_BG" ]; then
		kill "$RXF_BG" 2>/dev/null
		wait "$RXF_BG" 2>/dev/null
	fi
	ip neigh del 192.0.2.99 dev "${LAB_BRIDGE:-xenbr0}" 2>/dev/null
	[ -z "$RXF_MAC" ] || bridge fdb del "$RXF_MAC" dev "$2" master 2>/dev/null
	RXF_BG="" RXF_MAC=""
}

# Case 47 (hook rwring): rxflood, and every 0.5 s a sample with the
# program's phase (rw-honest: the fields left to dom0; rw-hostile: the
# guest rewrites rsp_prod, req_event and rsp_event of both rings):
# phase:ping:rtt_ms:irqs:rx_notify:packets:errors:busy:total:uptime,
# g1's ping in those two phases, the vif's interrupts, ethtool's
# rx_notify ("-" without: stock), the packets dom0 gave the guest and
# those it answered with an error (the vif's tx_packets and tx_errors),
# /proc/stat's busy and total jiffies.
RW_BG=""
rw_sample() { # VIF
	local ph pg rtt nt st=/sys/class/net/$1/statistics
	while :; do
		ph=$(xenstore-read "/local/domain/$HD/data/hostile-phase" 2>/dev/null || echo -)
		pg=- rtt=-
		case $ph in rw-honest|rw-hostile)
			rtt=$(ping -c1 -W2 "$G1IP" 2>/dev/null | sed -n 's/.* time=\([0-9.]*\) ms.*/\1/p')
			if [ -n "$rtt" ]; then pg=y; else pg=n rtt=-; fi ;;
		esac
		nt=$(ethtool -S "$1" 2>/dev/null | awk '$1 == "rx_notify:" { n = $2 } END { print (n == "" ? "-" : n) }')
		echo "$ph:$pg:$rtt:$(irqs "$1"):$nt:$(cat "$st/tx_packets" 2>/dev/null || echo 0):$(cat "$st/tx_errors" 2>/dev/null || echo 0):$(awk '$1 == "cpu" { print ($2 + $3 + $4 + $7 + $8) ":" ($2 + $3 + $4 + $5 + $6 + $7 + $8 + $9) }' /proc/stat):$(cut -d' ' -f1 /proc/uptime)"
		sleep 0.5
	done
}
rwring() {
	rxflood_start "$1" "$2"
	rw_sample "$2" > /run/hostile-rw-samples 2>/dev/null &
	RW_BG=$!
}
rwring_undo() {
	if [ -n "$RW_BG" ]; then
		kill "$RW_BG" 2>/dev/null
		wait "$RW_BG" 2>/dev/null
	fi
	RW_BG=""
	rxflood_stop "$1" "$2"
}
# rw_window SAMPLES PHASE: case 47's PHASE, from the last sample before
# it to the first after it: "SAMPLES ANSWERED MAX_RTT IRQS NOTIFY
# PACKETS ERRORS BUSY_PCT SECONDS WHOLE", NOTIFY "-" without rx_notify,
# WHOLE 0 when the window has no start or no end.
rw_window() {
	echo "$1" | tr ' ' '\n' | awk -F: -v p="$2" '
		NF >= 10 && !done {
			if ($1 != p && !inp) { i0 = $4; n0 = $5; k0 = $6; e0 = $7; b0 = $8; t0 = $9; u0 = $10; have0 = 1; next }
			if ($1 == p) {
				inp = 1; n++
				if ($2 == "y") { a++; if ($3 + 0 > mx) mx = $3 + 0 }
				next
			}
			done = 1; i1 = $4; n1 = $5; k1 = $6; e1 = $7; b1 = $8; t1 = $9; u1 = $10
		}
		END {
			if (!have0 || !done) { print "0 0 - 0 - 0 0 0 0 0"; exit }
			nt = (n0 == "-" || n1 == "-") ? "-" : n1 - n0
			bp = t1 > t0 ? 100 * (b1 - b0) / (t1 - t0) : 0
			printf "%d %d %s %d %s %d %d %.1f %.1f 1\n", n, a + 0, a ? mx : "-", i1 - i0, nt, k1 - k0, e1 - e0, bp, u1 - u0
		}'
}
# case47: dom0's side of case 47 (rw_window over its samples): while the
# guest rewrites the fields (rw-hostile) dom0 still gives it packets,
# sends it at most one notification a response with our driver
# (ethtool's rx_notify at most the vif's tx_packets + tx_errors, plus
# HOSTILE_RW_NOTIFY_SLACK, 5, for counters read at different moments),
# is at most HOSTILE_RW_CPU_PTS (35) points busier than while the guest
# left the fields alone (rw-honest: a dom0 CPU spinning on them would
# add 50 on the lab's two), and g1 answers at least half of its pings,
# each within 1 s; no warning.  Appends to cwhy.
case47() {
	local smp ph honest_busy="" slack=${HOSTILE_RW_NOTIFY_SLACK:-5} pts=${HOSTILE_RW_CPU_PTS:-35}
	smp=$(tr '\n' ' ' < /run/hostile-rw-samples 2>/dev/null)
	lab_log "case 47 samples (phase:ping:rtt:irqs:rx_notify:packets:errors:busy:total:uptime): $smp"
	for ph in rw-honest rw-hostile; do
		# shellcheck disable=SC2046 # rw_window prints the fields to split
		set -- $(rw_window "$smp" "$ph")
		lab_log "case 47 $ph ($9 s): $6 packets to the guest, $7 answered with an error, $5 notifications, $4 interrupts from it; dom0 busy $8 %; g1 answered $2/$1 pings, max RTT $3 ms"
		echo "XNB-METRIC hostile case47 phase=$ph seconds=$9 packets=$6 errors=$7 rx_notify=$5 irqs=$4 dom0_busy_pct=$8 pings=$2/$1 max_rtt_ms=$3"
		if [ "${10}" != 1 ]; then
			cwhy="${cwhy:+$cwhy; }phase $ph not seen whole by the sampler"
			continue
		fi
		if [ "$ph" = rw-honest ]; then
			honest_busy=$8
			continue
		fi
		ping_judge "$ph" "$2" "$1" "$3"
		[ "$6" -gt 0 ] || cwhy="${cwhy:+$cwhy; }$ph: dom0 gave the guest no packet"
		if [ "$5" != - ] && [ "$5" -gt $(($6 + $7 + slack)) ]; then
			cwhy="${cwhy:+$cwhy; }$ph: $5 notifications for $6 packets and $7 errors (more than one a response)"
		fi
		if [ -n "$honest_busy" ] &&
			! awk -v h="$honest_busy" -v b="$8" -v m="$pts" 'BEGIN { exit !(b + 0 <= h + m) }'; then
			cwhy="${cwhy:+$cwhy; }$ph: dom0 busy $8 % against $honest_busy % with the fields left alone (max +$pts)"
		fi
	done
	splat_since_group
}

# Case 48 (hook rxflap): rxflood; the guest learns dom0's
# rx_stall_timeout_msecs (data/hostile-rx-stall-ms); every 0.25 s a
# sample with the program's phase (flap-fast: a buffer at a time, each
# as soon as the last is filled; flap-stall: none for longer than the
# stall timeout, then a few, three times):
# phase:carrier:ping:rtt_ms:queued:uptime, queued the bytes (truesize)
# the vif's queues hold for the guest (our debugfs io_ring files; "-"
# without).  SUnreclaim before the group, and after the flood stopped.
FLAP_BG="" FLAP_SUNR0=0 FLAP_END=""
flap_queued() { # DEV
	cat "/sys/kernel/debug/xen-netback/vif-$HD-$1"/io_ring_q* 2>/dev/null | awk '
		{ for (i = 1; i < NF; i++) if ($i == "rx_bytes_queued") { s += $(i + 1); n++ } }
		END { print (n ? s : "-") }'
}
rxflap() {
	local ms
	ms=$(cat /sys/module/xen_netback/parameters/rx_stall_timeout_msecs 2>/dev/null || echo 4000)
	xenstore-write "/local/domain/$HD/data/hostile-rx-stall-ms" "$ms"
	mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug 2>/dev/null
	FLAP_SUNR0=$(awk '/^SUnreclaim:/ { print $2 }' /proc/meminfo)
	FLAP_END=""
	rxflood_start "$1" "$2"
	( while :; do
		ph=$(xenstore-read "/local/domain/$HD/data/hostile-phase" 2>/dev/null || echo -)
		pg=- rtt=-
		case $ph in flap-fast|flap-stall)
			rtt=$(ping -c1 -W2 "$G1IP" 2>/dev/null | sed -n 's/.* time=\([0-9.]*\) ms.*/\1/p')
			if [ -n "$rtt" ]; then pg=y; else pg=n rtt=-; fi ;;
		esac
		echo "$ph:$(carrier "$2"):$pg:$rtt:$(flap_queued "$1"):$(cut -d' ' -f1 /proc/uptime)"
		sleep 0.25
	  done ) > /run/hostile-flap-samples &
	FLAP_BG=$!
}
rxflap_undo() {
	if [ -n "$FLAP_BG" ]; then
		kill "$FLAP_BG" 2>/dev/null
		wait "$FLAP_BG" 2>/dev/null
	fi
	FLAP_BG=""
	rxflood_stop "$1" "$2"
	xenstore-rm "/local/domain/$HD/data/hostile-rx-stall-ms" 2>/dev/null
	# The program's lingering child posts buffers: what the flood left
	# queued is the guest's within a moment.
	sleep 2
	FLAP_END="$(flap_queued "$1") $(awk '/^SUnreclaim:/ { print $2 }' /proc/meminfo)"
}
# case48: dom0's side of case 48 (its samples, its log since the group
# began): in flap-fast the carrier never went off (a queue that blocks
# and unblocks every few ms is no stall); in flap-stall it went off and
# came back; the stall and unstall lines (ours and stock's, and our
# "suppressed" ones) number HOSTILE_FLAP_LOG_MAX (16) at most: two a
# round, three rounds, and slack, where a line a transition would be
# hundreds; with our driver, the bytes queued for the guest never passed
# rx_queue_bytes by more than 64 KiB and were none once the flood
# stopped; SUnreclaim grew by HOSTILE_SLAB_MAX_KB (1024) at most; g1
# answered at least half of its pings, each within 1 s; no warning.
# Appends to cwhy.
case48() {
	local smp n a rtt nfast fastoff off on maxq lines endq endsu limit lmax=${HOSTILE_FLAP_LOG_MAX:-16}
	smp=$(tr '\n' ' ' < /run/hostile-flap-samples 2>/dev/null)
	lab_log "case 48 samples (phase:carrier:ping:rtt:queued:uptime): $smp"
	# shellcheck disable=SC2046 # the fields to split
	set -- $(echo "$smp" | tr ' ' '\n' | awk -F: '
		NF >= 6 && $1 ~ /^flap-/ {
			n++
			if ($3 == "y") { a++; if ($4 + 0 > mx) mx = $4 + 0 }
			if ($1 == "flap-fast") { nf++; if ($2 == "0") fo++ }
			if ($1 == "flap-stall") { if ($2 == "0") off++; if ($2 == "1") on++ }
			if ($5 != "-") { hq = 1; if ($5 + 0 > mq) mq = $5 + 0 }
		}
		END { printf "%d %d %s %d %d %d %d %s\n", n, a + 0, a ? mx : "-", nf + 0, fo + 0, off + 0, on + 0, hq ? mq + 0 : "-" }')
	n=$1 a=$2 rtt=$3 nfast=$4 fastoff=$5 off=$6 on=$7 maxq=$8
	lines=$(dmesg | tail -n +$((n0 + 1)) | grep -F "$VIF" |
		grep -cE 'guest posts no RX buffers|RX buffers back|messages about the guest suppressed|Guest Rx stalled|Guest Rx ready')
	endq=${FLAP_END%% *} endsu=${FLAP_END##* }
	lab_log "case 48: carrier off in $fastoff/$nfast flap-fast samples, off $off and on $on in flap-stall's; $lines stall/unstall log lines; most bytes queued $maxq, $endq after; SUnreclaim ${FLAP_SUNR0} -> $endsu kB; g1 answered $a/$n pings, max RTT $rtt ms"
	echo "XNB-METRIC hostile case48 fast_off=$fastoff/$nfast stall_off=$off stall_on=$on log_lines=$lines max_queued=$maxq end_queued=$endq sunreclaim_kb=$((${endsu:-0} - FLAP_SUNR0)) pings=$a/$n max_rtt_ms=$rtt"
	[ "$nfast" -gt 0 ] || cwhy="${cwhy:+$cwhy; }the sampler saw no flap-fast phase"
	[ "$fastoff" -eq 0 ] ||
		cwhy="${cwhy:+$cwhy; }carrier off in $fastoff flap-fast samples: a queue given a buffer every few ms was taken for stalled"
	[ "$off" -gt 0 ] || cwhy="${cwhy:+$cwhy; }carrier never off in flap-stall: no stall seen"
	[ "$on" -gt 0 ] || cwhy="${cwhy:+$cwhy; }carrier never on in flap-stall"
	[ "$lines" -le "$lmax" ] ||
		cwhy="${cwhy:+$cwhy; }$lines stall/unstall log lines (max $lmax: not bounded by the stall timeout or the budget)"
	limit=$(cat /sys/module/xen_netback/parameters/rx_queue_bytes 2>/dev/null)
	if [ "$maxq" != - ] && [ -n "$limit" ] && [ "$maxq" -gt $((limit + 65536)) ]; then
		cwhy="${cwhy:+$cwhy; }$maxq bytes queued for the guest (rx_queue_bytes $limit)"
	fi
	if [ -n "$endq" ] && [ "$endq" != - ] && [ "$endq" -ne 0 ]; then
		cwhy="${cwhy:+$cwhy; }$endq bytes still queued for the guest after the flood"
	fi
	[ $((${endsu:-0} - FLAP_SUNR0)) -le "${HOSTILE_SLAB_MAX_KB:-1024}" ] ||
		cwhy="${cwhy:+$cwhy; }SUnreclaim grew by $((${endsu:-0} - FLAP_SUNR0)) kB (max ${HOSTILE_SLAB_MAX_KB:-1024})"
	ping_judge flap "$a" "$n" "$rtt"
	splat_since_group
}

# Time kept back for the random run and the baseline comparison.
R_RESERVE=${HOSTILE_RANDOM_RESERVE:-$((90 + ${HOSTILE_COUNT:-100000} / 1000))}
# Groups: cases that leave the vif up, then at most one fatal case last.
# HOSTILE_CASES picks groups for a debug run ("5 7,8": 5 alone, then 7
# and 8 in one invocation).
if [ -n "${HOSTILE_CASES:-}" ]; then
	GROUPS_=$HOSTILE_CASES
else
	GROUPS_="1 2,3 4 5,6 7,8,9,10,11 12 13 14,15 16,17,18,19,20,21,22,23,24,25,26,29,32,34,37 netconsole 43 35,36,39 45 27 27w 28 33 38 40 44 41,42 46 47 48 49 50 51 52"
fi
for g in $GROUPS_; do
	ids=$(echo "$g" | tr ',' ' ')
	if [ "$(left)" -lt $((R_RESERVE + 60)) ]; then
		for c in $ids; do case_result "$c" FAIL "not run: out of time ($(left) s left of ${BUDGET} s)"; done
		continue
	fi
	case $ids in
	27) run_group 27 rate_small ;;
	27w) run_group 27w rate_wrap ;;
	40) run_group 40 gso_segs_64 ;;
	44) run_group 44 gso_sink ;;
	47) run_group 47 rwring ;;
	48) run_group 48 rxflap ;;
	49) run_group 49 hc49 ;;
	50) run_group 50 hc50 ;;
	51) run_group 51 hc51 ;;
	52) run_group 52 flood_sink ;;
	netconsole) run_group netconsole ctrl_rate_off "--ctrl-stream $NC_SECS" ;;
	*) run_group "$ids" ;;
	esac
done

# Seeded random requests, CI-sized by default.
# Keep 60 s for the baseline comparison; without 30 s more, do not start.
t0=$(cut -d' ' -f1 /proc/uptime)
if [ "$(left)" -lt 90 ]; then
	case_result random FAIL "not run: out of time ($(left) s left of ${BUDGET} s)"
else
	HOSTILE_EXEC_TIMEOUT=${HOSTILE_RANDOM_TIMEOUT:-$(($(left) - 60))} run_group random "" \
		"--random ${HOSTILE_SEED:-1} --count ${HOSTILE_COUNT:-100000}"
fi
t1=$(cut -d' ' -f1 /proc/uptime)
echo "XNB-METRIC hostile random seed=${HOSTILE_SEED:-1} count=${HOSTILE_COUNT:-100000} seconds=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.0f", b - a}') ${R_LINE#HOSTILE-RANDOM }"
lab_log "vif attaches: $nattach"

# Leaks: the hostile guest goes, memory and threads return to the baseline.
lab_guest_destroy $H
lab_wait 60 sh -c "! ls /sys/class/net | grep -q '^vif$HD\\.'"
# shellcheck disable=SC2046 # snapshot prints the fields to split
set -- $(snapshot)
A_SLAB=$1 A_VMALLOC=$2 A_THREADS=$3 A_VIFS=$4
echo "XNB-METRIC hostile after slab_kb=$A_SLAB vmalloc_kb=$A_VMALLOC threads=$A_THREADS vifs=$A_VIFS"
why=""
[ $((A_SLAB - B_SLAB)) -le 2048 ] || why="Slab grew $((A_SLAB - B_SLAB)) kB"
[ $((A_VMALLOC - B_VMALLOC)) -le 2048 ] || why="${why:+$why; }VmallocUsed grew $((A_VMALLOC - B_VMALLOC)) kB"
[ $((A_THREADS - B_THREADS)) -le 2 ] || why="${why:+$why; }threads $B_THREADS -> $A_THREADS"
[ "$A_VIFS" -le "$B_VIFS" ] || why="${why:+$why; }vif netdevs $B_VIFS -> $A_VIFS"
if [ -z "$why" ]; then case_result leaks PASS; else case_result leaks FAIL "$why"; fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] || lab_fail "hostile cases failed:$failed"
