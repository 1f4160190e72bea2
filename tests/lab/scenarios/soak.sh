# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# soak: SOAK_VIFS vif lifecycles (hot attach, connect, traffic, teardown)
# with the leak counters around them.  Each cycle hot-attaches up to
# SOAK_VIFS_PER_GUEST vifs to each of two guests, all at once (one xl per
# vif, in the background: concurrent connects, several on one domain),
# checks every one Connected on both ends and answering ping through its
# own vif, runs TCP through one of them every SOAK_TCP_EVERY cycles, then
# detaches them all at once under a light ping (concurrent teardowns) and
# checks they are gone.  Every SOAK_RECREATE lifecycles both guests are
# destroyed instead, in mid-flood with their vifs attached, and created
# again.  Then what dom0 and Xen hold (memory, ring mappings, grants,
# event channels, irqs, threads, timers, netdevs, domains, module refcount)
# must be back where it was.  Run by `make soak` (tests/lab/soak.mk) in
# its own boot; not part of `make check`.
#   SOAK_VIFS (default 1000): vif lifecycles, the unit of the soak.
#   SOAK_VIFS_PER_GUEST (default 8, 1-8): hot vifs per guest and cycle.
#   SOAK_RECREATE (default 200): lifecycles between guest re-creations.
#   SOAK_TCP_EVERY (default 1): cycles between 1 s TCP runs (0: none).
#   SOAK_XL_JOBS (default 4): xl commands running at once in a phase.
#   SOAK_HOTPLUG: lean (default; the hot vifs' hotplug script only makes
#   the bridge port, as the bench's) or vif-bridge (Debian's, seconds of
#   bash per vif under TCG).  The guests' own vif 0 always uses vif-bridge.
#   SOAK_MEM_SLACK_KB: allowed growth of unreclaimable slab and vmalloc
#   (default 1024 + 2 per lifecycle: noise, not a vif's worth each).
. /lab/xnb.sh
SOAK_VIFS=${SOAK_VIFS:-1000}
SOAK_VIFS_PER_GUEST=${SOAK_VIFS_PER_GUEST:-8}
SOAK_RECREATE=${SOAK_RECREATE:-200}
SOAK_TCP_EVERY=${SOAK_TCP_EVERY:-1}
SOAK_HOTPLUG=${SOAK_HOTPLUG:-lean}
SOAK_XL_JOBS=${SOAK_XL_JOBS:-4}
SOAK_MEM_SLACK_KB=${SOAK_MEM_SLACK_KB:-$((1024 + 2 * SOAK_VIFS))}
[ "$SOAK_VIFS" -ge 1 ] || lab_fail "SOAK_VIFS must be at least 1"
# Guest N's vif K has 192.0.2.(10N+K): K stays a digit.
[ "$SOAK_VIFS_PER_GUEST" -ge 1 ] && [ "$SOAK_VIFS_PER_GUEST" -le 8 ] ||
	lab_fail "SOAK_VIFS_PER_GUEST must be 1-8"
[ "$SOAK_RECREATE" -ge 1 ] || lab_fail "SOAK_RECREATE must be at least 1"
[ "$SOAK_XL_JOBS" -ge 1 ] || lab_fail "SOAK_XL_JOBS must be at least 1"

mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
S=/run/soak
rm -rf $S; mkdir -p $S

case $SOAK_HOTPLUG in
lean)
	# The backend goes Connected only once hotplug-status says so.
	soak_script=$S/vif-lean
	lab_lean_vif_script $soak_script ;;
vif-bridge) soak_script='vif-bridge' ;;
*) lab_fail "SOAK_HOTPLUG must be lean or vif-bridge" ;;
esac

# Background pings and floods, stopped by soak_pings_stop (and on exit).
soak_ping_pids=
soak_pings_start() {	# soak_pings_start PING-OPTIONS -- IP...
	local opts=() ip
	while [ "$1" != -- ]; do opts+=("$1"); shift; done
	shift
	for ip; do
		ping "${opts[@]}" -q -w 3600 "$ip" > /dev/null 2>&1 &
		soak_ping_pids+=" $!"
	done
}
soak_pings_stop() {
	[ -n "$soak_ping_pids" ] || return 0
	# shellcheck disable=SC2086 # pids, split on purpose
	kill $soak_ping_pids 2>/dev/null
	# shellcheck disable=SC2086
	wait $soak_ping_pids 2>/dev/null
	soak_ping_pids=
}
trap soak_pings_stop EXIT

# --- the guests and their hot vifs ----------------------------------------------
# dom[G]: g<G>'s domid, read once per guest start (xl domid is a process).
dom=()
soak_guests_start() {
	lab_guest_create 1
	lab_guest_create 2
	lab_guest_wait 1
	lab_guest_wait 2
	dom[1]=$(lab_domid 1) dom[2]=$(lab_domid 2)
}

# Times are microseconds from bash's clock: no process per reading.
soak_now() { now=${EPOCHREALTIME/[.,]/}; }

# soak_xl TAG ARGS...: xl ARGS in the background (output in $S/TAG.log);
# its exit status and start and end times go to $S/TAG.rc, its pid to
# soak_xl_pids and TAG to soak_xl_tags, for soak_xl_wait.
# At most SOAK_XL_JOBS of them run at once: libxl gives a new backend 10 s
# to reach InitWait, and eight xl processes starting together on TCG's two
# dom0 vCPUs can starve the xenwatch thread that probes it, with either
# driver.
soak_xl_pids=() soak_xl_tags=() soak_xl_running=()
soak_xl() {
	local tag=$1 p left
	shift
	while [ ${#soak_xl_running[@]} -ge "$SOAK_XL_JOBS" ]; do
		# bash may already have dropped a finished job from its table
		# ("no such job"): what still runs is what kill -0 finds.
		wait -n "${soak_xl_running[@]}" 2>/dev/null || sleep 0.1
		left=()
		for p in "${soak_xl_running[@]}"; do
			kill -0 "$p" 2>/dev/null && left+=("$p")
		done
		soak_xl_running=("${left[@]}")
	done
	: > "$S/$tag.rc"
	( t0=${EPOCHREALTIME/[.,]/}
	  xl "$@" > "$S/$tag.log" 2>&1
	  echo "$? $t0 ${EPOCHREALTIME/[.,]/}" > "$S/$tag.rc" ) &
	soak_xl_pids+=("$!") soak_xl_tags+=("$tag") soak_xl_running+=("$!")
}
# soak_xl_wait WHAT: wait for every soak_xl job; fail if one failed (with
# its output).  Adds the jobs' own run times to soak_busy: over the
# phase's wall time, how many xl ran at once.
soak_busy=0
soak_xl_wait() {
	local i tag rc t0 t1 bad=""
	for i in "${!soak_xl_pids[@]}"; do
		wait "${soak_xl_pids[$i]}" 2>/dev/null	# (status: the .rc file)
		tag=${soak_xl_tags[$i]}
		read -r rc t0 t1 < "$S/$tag.rc" || rc=missing
		if [ "$rc" = 0 ]; then
			soak_busy=$((soak_busy + t1 - t0))
		else
			cat "$S/$tag.log"
			bad+=" $tag($rc)"
		fi
	done
	soak_xl_pids=() soak_xl_tags=() soak_xl_running=()
	[ -z "$bad" ] || lab_fail "$1: xl failed for$bad"
}

# soak_all_connected N1 N2: vifs 1..N1 of g1 and 1..N2 of g2 are
# Connected (4) on both ends and have their dom0 netdev; one xenstore
# read for all of them.
soak_all_connected() {
	local g k n p=() want="" v
	for g in 1 2; do
		n=${!g}
		for ((k = 1; k <= n; k++)); do
			[ -e "/sys/class/net/vif${dom[$g]}.$k" ] || return 1
			p+=("/local/domain/0/backend/vif/${dom[$g]}/$k/state"
			    "/local/domain/${dom[$g]}/device/vif/$k/state")
			want+="4 4 "
		done
	done
	v=$(xenstore-read "${p[@]}" 2>/dev/null) || return 1
	[ "${v//$'\n'/ } " = "$want" ]
}
# soak_all_gone N1 N2: nothing is left of vifs 1..N1 of g1 and 1..N2 of
# g2, neither dom0 netdev nor backend nor frontend node (vif 0 stays).
soak_all_gone() {
	local g k n
	for g in 1 2; do
		n=${!g}
		[ "$n" -gt 0 ] || continue
		for ((k = 1; k <= n; k++)); do
			[ ! -e "/sys/class/net/vif${dom[$g]}.$k" ] || return 1
		done
		[ "$(xenstore-list "/local/domain/0/backend/vif/${dom[$g]}")" = 0 ] || return 1
		[ "$(xenstore-list "/local/domain/${dom[$g]}/device/vif")" = 0 ] || return 1
	done
}
soak_vif_states() {	# for a failure report
	local g k n d
	for g in 1 2; do
		n=${!g} d=${dom[$g]}
		for ((k = 1; k <= n; k++)); do
			echo "g$g vif $k (vif$d.$k):" \
				"backend $(xenstore-read "/local/domain/0/backend/vif/$d/$k/state" 2>&1)," \
				"frontend $(xenstore-read "/local/domain/$d/device/vif/$k/state" 2>&1)," \
				"hotplug-status $(xenstore-read "/local/domain/0/backend/vif/$d/$k/hotplug-status" 2>&1)," \
				"netdev $([ -e "/sys/class/net/vif$d.$k" ] && echo present || echo absent)"
		done
	done
}

soak_guest_links() {	# for a failure report: what each guest has up
	local g
	for g in 1 2; do
		echo "g$g:"
		( lab_guest_exec $g "ip -o link; ip -o -4 addr" 20 ) || true
	done
}

# soak_vif_of_ip G IP: the devid of g<G> whose MAC answered dom0's ARP for
# IP, i.e. the vif that IP's traffic goes through, from dom0's neighbour
# table in $S/neigh.  The guest names ethK, and so gives it 192.0.2.(10G+K),
# in the order its netfronts probe, which concurrent attaches do not fix.
soak_vif_of_ip() {
	local ip x mac pre
	pre=$(lab_guest_mac "$1" 0) pre=${pre%:*}
	while read -r ip x mac _; do
		[ "$ip" = "$2" ] && [ "$x" = lladdr ] && [ "${mac%:*}" = "$pre" ] || continue
		echo $((16#${mac##*:}))
		return
	done < $S/neigh
}

# soak_attach_verify C N1 N2: attach vifs 1..N1 to g1 and 1..N2 to g2 all
# at once, one xl each; wait until every one is Connected on both ends;
# ping every hot address and check that the vifs behind them are exactly
# the ones attached (each answered its own ARP and ping).
soak_attach_verify() {
	local c=$1 g k n v ips=() pids=() bad="" seen
	soak_now; local t0=$now b=$soak_busy
	for g in 1 2; do
		n=${*:g+1:1}
		for ((k = 1; k <= n; k++)); do
			soak_xl "a$g.$k" network-attach "${dom[$g]}" \
				"mac=$(lab_guest_mac $g $k)" bridge=xenbr0 \
				"script=$soak_script" "devid=$k"
		done
	done
	soak_xl_wait "cycle $c: network-attach"
	soak_now
	t_xl_attach=$((t_xl_attach + now - t0)) busy_attach=$((busy_attach + soak_busy - b))
	lab_wait 120 soak_all_connected "$2" "$3" || {
		soak_vif_states "$2" "$3"
		lab_fail "cycle $c: hot vifs not all Connected within 120 s"
	}
	t_connect=$((t_connect + ${EPOCHREALTIME/[.,]/} - now))
	# Addresses change hands between vifs from one cycle to the next (see
	# soak_vif_of_ip): a stale neighbour entry would send the ping to the
	# MAC an address had last time until it expired.
	ip neigh flush dev xenbr0 to 192.0.2.0/24 2>/dev/null
	for g in 1 2; do
		n=${*:g+1:1}
		for ((k = 1; k <= n; k++)); do
			ips+=("$(lab_guest_ip $g $k)")
			lab_wait 60 ping -c1 -W1 "${ips[-1]}" &
			pids+=("$!")
		done
	done
	for k in "${!pids[@]}"; do
		wait "${pids[$k]}" || bad+=" ${ips[$k]}"
	done
	[ -z "$bad" ] || {
		soak_vif_states "$2" "$3"
		soak_guest_links
		lab_fail "cycle $c: no ping reply from$bad"
	}
	ip neigh show dev xenbr0 > $S/neigh
	for g in 1 2; do
		n=${*:g+1:1} seen=" "
		for ((k = 1; k <= n; k++)); do
			v=$(soak_vif_of_ip $g "$(lab_guest_ip $g $k)")
			[ "$v" = "$k" ] || soak_reordered=1
			if [ -z "$v" ] || [ "$v" -lt 1 ] || [ "$v" -gt "$n" ] || [[ $seen == *" $v "* ]]; then
				cat $S/neigh
				lab_fail "cycle $c: g$g's $(lab_guest_ip $g $k) answered from vif '$v', not from one of its own hot vifs 1-$n alone"
			fi
			seen+="$v "
		done
	done
}

# soak_tcp C G [-R]: a second of TCP through g<G>'s vif behind
# 192.0.2.(10G+1); it must cross that vif both ways: 10 kB of data one
# way and 20 packets (ACKs) the other, more than iperf3's control
# connection alone makes (a stream crawling under TCG sends a few
# hundred kB, acknowledged in 7 kB).  Without -R dom0 sends: the data
# is the vif's tx, what dom0 sent the guest.
soak_tcp() {
	local c=$1 g=$2 dir=${3:-} ip vif out data acks dway=tx away=rx
	[ -z "$dir" ] || dway=rx away=tx
	ip=$(lab_guest_ip "$g" 1)
	vif=vif${dom[$g]}.$(soak_vif_of_ip "$g" "$ip")
	data=$(lab_vif_bytes "$vif" $dway)
	acks=$(cat "/sys/class/net/$vif/statistics/${away}_packets")
	# shellcheck disable=SC2086
	out=$(lab_iperf "$ip" $dir 1) || lab_fail "cycle $c: ${out##*XNB-FAILREASON }"
	data=$(($(lab_vif_bytes "$vif" $dway) - data))
	acks=$(($(cat "/sys/class/net/$vif/statistics/${away}_packets") - acks))
	lab_assert_gt "$data" 10000 "cycle $c: data bytes ($dway) on g$g's $vif"
	lab_assert_gt "$acks" 20 "cycle $c: ACK packets ($away) on g$g's $vif"
}

# soak_detach C N1 N2: detach them all at once, one xl each, while dom0
# pings the first hot address of each guest; then nothing may be left.
soak_detach() {
	local c=$1 g k n ips=()
	for g in 1 2; do
		n=${*:g+1:1}
		((n > 0)) && ips+=("$(lab_guest_ip $g 1)")
	done
	soak_pings_start -i 0.02 -- "${ips[@]}"
	soak_now; local t0=$now b=$soak_busy
	for g in 1 2; do
		n=${*:g+1:1}
		for ((k = 1; k <= n; k++)); do
			soak_xl "d$g.$k" network-detach "${dom[$g]}" "$k"
		done
	done
	soak_xl_wait "cycle $c: network-detach"
	soak_now
	t_xl_detach=$((t_xl_detach + now - t0)) busy_detach=$((busy_detach + soak_busy - b))
	soak_pings_stop
	lab_wait 60 soak_all_gone "$2" "$3" || {
		soak_vif_states "$2" "$3"
		lab_fail "cycle $c: detached vifs not all gone within 60 s"
	}
}

# soak_destroy C: destroy both guests, their hot vifs attached, in
# mid-flood through the first of each; every vif must go with them.
soak_destroy() {
	local c=$1 g ips=()
	for g in 1 2; do
		[ -e "/sys/class/net/vif${dom[$g]}.1" ] && ips+=("$(lab_guest_ip $g 1)")
	done
	soak_pings_start -f -- "${ips[@]}"
	lab_log "cycle $c: destroying g1 and g2 in mid-flood, hot vifs attached"
	soak_xl x1 destroy "${dom[1]}"
	soak_xl x2 destroy "${dom[2]}"
	soak_xl_wait "cycle $c: destroy"
	lab_assert "cycle $c: vifs gone with the guests" lab_wait 60 lab_no_vifs
	soak_pings_stop
}

# soak_cycle C N1 N2 DESTROY TCP: one cycle.  Wall times add up in t_*
# (xl phases, connect wait, verification, teardown by detach or destroy),
# the xl processes' own times in busy_*.
soak_times_reset() {
	t_xl_attach=0 t_connect=0 t_verify=0 t_xl_detach=0 t_detach=0 t_destroy=0
	busy_attach=0 busy_detach=0 tcp_runs=0
}
# The TCP runs (tcp_runs so far) take turns between the guests (g2 when
# it has a hot vif) and the directions.
soak_cycle() {
	local c=$1 n1=$2 n2=$3 t0 t1 g=1 dir=""
	soak_now; t0=$now
	soak_attach_verify "$c" "$n1" "$n2"
	if [ "$5" = 1 ]; then
		((n2 > 0 && tcp_runs % 2)) && g=2
		(((tcp_runs / 2) % 2)) && dir=-R
		soak_tcp "$c" "$g" $dir
		tcp_runs=$((tcp_runs + 1))
	fi
	soak_now; t1=$now
	t_verify=$((t_verify + t1 - t0))
	if [ "$4" = 1 ]; then
		soak_destroy "$c"
		t_destroy=$((t_destroy + ${EPOCHREALTIME/[.,]/} - t1))
	else
		soak_detach "$c" "$n1" "$n2"
		t_detach=$((t_detach + ${EPOCHREALTIME/[.,]/} - t1))
	fi
}

# --- warm-up and the "before" count --------------------------------------------
# One full cycle first, so that first-use allocations (caches, the
# toolstack's and the hotplug scripts' state) are not counted as a leak.
per=$SOAK_VIFS_PER_GUEST
lab_log "soak: $SOAK_VIFS vif lifecycles, up to $per hot vifs per guest and cycle," \
	"hotplug $SOAK_HOTPLUG, guests re-created every $SOAK_RECREATE"
soak_times_reset
soak_guests_start
soak_reordered=0
soak_cycle 0 "$per" "$per" 0 1
xnb_quiesce
xnb_leak_counters > $S/before
lab_log "before: $(xargs < $S/before)"

# --- the cycles --------------------------------------------------------------------
soak_times_reset
soak_guests_start
soak_now; start=$now
lives=0 c=0 recreated=0 t_recreate=0 destroyed=0 destroys=0 reordered=0
while ((lives < SOAK_VIFS)); do
	c=$((c + 1))
	n=$((SOAK_VIFS - lives))
	((n > 2 * per)) && n=$((2 * per))
	# The cycle that reaches a multiple of SOAK_RECREATE ends in a destroy.
	destroy=0
	(((lives + n) / SOAK_RECREATE > lives / SOAK_RECREATE)) && destroy=1
	tcp=0
	((SOAK_TCP_EVERY > 0 && c % SOAK_TCP_EVERY == 0)) && tcp=1
	soak_reordered=0
	soak_cycle "$c" $(((n + 1) / 2)) $((n / 2)) "$destroy" "$tcp"
	reordered=$((reordered + soak_reordered))
	lives=$((lives + n))
	if ((destroy)); then
		destroyed=$((destroyed + n)) destroys=$((destroys + 1))
		if ((lives < SOAK_VIFS)); then
			soak_now; t0=$now
			soak_guests_start
			soak_now; t_recreate=$((t_recreate + now - t0))
			recreated=$((recreated + 1))
		fi
	fi
	if ((c % 10 == 0 || lives == SOAK_VIFS)); then
		soak_now
		echo "XNB-LOG soak: $lives/$SOAK_VIFS lifecycles, $c cycles, $(((now - start) / 1000000)) s"
	fi
done
soak_now; elapsed=$((now - start))
xnb_quiesce
xnb_leak_counters > $S/after
lab_log "after: $(xargs < $S/after)"
# Whole run (re-creations included) per lifecycle; each phase per cycle
# (s); *_par: the xl processes' summed run time over their phase's wall
# time, i.e. how many ran at once on average.
awk -v n="$SOAK_VIFS" -v c="$c" -v e="$elapsed" -v per="$per" -v h="$SOAK_HOTPLUG" \
	-v xa="$t_xl_attach" -v cn="$t_connect" -v v="$t_verify" -v xd="$t_xl_detach" \
	-v d="$t_detach" -v x="$t_destroy" -v xs="$destroys" -v r="$recreated" \
	-v tr="$t_recreate" -v dd="$destroyed" -v ba="$busy_attach" -v bd="$busy_detach" \
	-v ro="$reordered" 'BEGIN {
	dc = c - xs
	printf "XNB-METRIC soak lifecycles=%d cycles=%d seconds=%d per_lifecycle_s=%.2f\n",
		n, c, e / 1e6, e / 1e6 / n
	printf "XNB-METRIC soak per_guest=%d hotplug=%s attach_s=%.1f attach_par=%.1f connect_s=%.1f verify_s=%.1f detach_s=%.1f detach_par=%.1f\n",
		per, h, xa / c / 1e6, (xa ? ba / xa : 0), cn / c / 1e6, (v - xa - cn) / c / 1e6,
		(dc ? d / dc / 1e6 : 0), (xd ? bd / xd : 0)
	printf "XNB-METRIC soak detached=%d destroyed=%d destroy_s=%.1f recreated=%d recreate_s=%.1f reordered_cycles=%d\n",
		n - dd, dd, (xs ? x / xs / 1e6 : 0), r, (r ? tr / r / 1e6 : 0), ro }'

# The counters (xnb.sh): objects back exactly, memory within the slack.
xnb_leak_compare XNB-SOAK "$SOAK_MEM_SLACK_KB" $S/before $S/after
# Nothing holds the module: it unloads, and loads again for what follows.
xnb_leak_unload XNB-SOAK
pass=$XNB_LEAK_PASS fail=$XNB_LEAK_FAIL
echo "XNB-SOAK $pass passed, $fail failed"
[ "$fail" -eq 0 ] || lab_fail "soak: $fail counters not back after $SOAK_VIFS vif lifecycles"
