# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# soak: SOAK_CYCLES hot attach/detach cycles of a vif under traffic, the
# guest destroyed (in mid-traffic, the vif still attached) and created
# again every SOAK_RECREATE cycles; then what dom0 and Xen hold (memory,
# ring mappings, grants, event channels, irqs, threads, timers, netdevs,
# domains, module refcount) must be back where it was.  Run by `make soak`
# (tests/lab/soak.mk) in its own boot; not part of `make check`.
#   SOAK_CYCLES (default 1000), SOAK_RECREATE (default 50),
#   SOAK_MEM_SLACK_KB: allowed growth of unreclaimable slab and vmalloc
#   (default 1024 + 2 per cycle: noise, not a vif's worth per cycle).
. /lab/xnb.sh
SOAK_CYCLES=${SOAK_CYCLES:-1000}
SOAK_RECREATE=${SOAK_RECREATE:-50}
SOAK_MEM_SLACK_KB=${SOAK_MEM_SLACK_KB:-$((1024 + 2 * SOAK_CYCLES))}

mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug

# soak_xen_key KEY: what Xen printed for debug key KEY (without "(XEN) ").
# Only the text after the last "'KEY' pressed" line: the console ring
# holds older dumps and the rest of the scenario's Xen log.
soak_xen_key() {
	xl debug-keys "$1" || return 1
	sleep 1
	xl dmesg | sed 's/^(XEN) //' | awk -v k="'$1' pressed" '
		index($0, k) { n = 0; delete l } { l[n++] = $0 }
		END { for (i = 0; i < n; i++) print l[i] }'
}
meminfo_kb() { awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo; }
# soak_counters: "name value" lines.
soak_counters() {
	sync; echo 3 > /proc/sys/vm/drop_caches
	echo "slab_unreclaim_kb $(meminfo_kb SUnreclaim)"
	echo "slab_kb $(meminfo_kb Slab)"
	echo "vmalloc_used_kb $(meminfo_kb VmallocUsed)"
	# Shared rings are mapped into dom0 by xenbus_map_ring_*.
	echo "ring_mappings $(grep -c xenbus /proc/vmallocinfo)"
	echo "vmalloc_areas $(wc -l < /proc/vmallocinfo)"
	# Grant entries in use (active or shared) in any domain's table.
	echo "grant_entries $(soak_xen_key g | grep -cE '^ *\[0x[0-9a-f]+\] ')"
	# Dom0's allocated event channel ports.
	echo "evtchn_dom0 $(soak_xen_key e | awk '
		/^Event channel information for domain/ { d = ($NF == "0:") }
		d && /^ +[0-9]+ \[/ { n++ } END { print n + 0 }')"
	echo "irqs $(($(wc -l < /proc/interrupts) - 1))"
	echo "irqs_vif $(grep -c 'vif' /proc/interrupts)"
	# kworkers come and go with load: not counted.
	echo "kthreads $(ps -e -o ppid=,comm= | awk '$1 == 2 && $2 !~ /^kworker/' | wc -l)"
	echo "tasks $(ps -e -o comm= | grep -vc '^kworker')"
	echo "hrtimers $(grep -cE '^ #[0-9]+:' /proc/timer_list)"
	echo "hrtimers_netback $(grep -cE 'xnb|xenvif|netback' /proc/timer_list)"
	echo "netdevs $(ls /sys/class/net | wc -l)"
	echo "vifs $(lab_vifs | wc -l)"
	echo "domains $(xl list | awk 'NR > 1' | wc -l)"
	echo "backend_nodes $(xenstore-list /local/domain/0/backend/vif 2>/dev/null | wc -l)"
	echo "module_refcnt $(cat /sys/module/xen_netback/refcnt)"
	if [ "$NETBACK" = ours ]; then
		echo "xnb_queues $(xnb_groups_file | awk '/^group / {
			for (i = 1; i < NF; i++) if ($i == "queues") n += $(i + 1) }
			END { print n + 0 }')"
	fi
}

# Quiet, no guest: the state both counts are taken in.
soak_quiesce() {
	lab_destroy_all
	lab_assert "no vif left" lab_wait 60 lab_no_vifs
	lab_assert "no domain but dom0" lab_wait 60 \
		sh -c '[ "$(xl list | awk "NR > 2" | wc -l)" = 0 ]'
	sleep 3
}

flood=
soak_flood_start() {
	ping -f -q -w 3600 "$1" > /dev/null 2>&1 &
	flood=$!
}
soak_flood_stop() {
	[ -n "$flood" ] || return 0
	kill "$flood" 2>/dev/null; wait "$flood" 2>/dev/null
	flood=
}
trap soak_flood_stop EXIT

# Warm-up: one guest, one attach/detach, so that first-use allocations
# (caches, the hotplug scripts' state) are not counted as a leak.
lab_guest_start 1
lab_net_attach 1 1
lab_net_detach 1 1
soak_quiesce
soak_counters > /run/soak-before
lab_log "before: $(xargs < /run/soak-before)"

lab_guest_start 1
start=$(date +%s)
t_attach=0 t_detach=0 recreated=0
for ((c = 1; c <= SOAK_CYCLES; c++)); do
	t0=$(date +%s%N)
	lab_net_attach 1 1
	t1=$(date +%s%N)
	vif=$(lab_vif_name 1 1) ip=$(lab_guest_ip 1 1)
	soak_flood_start "$ip"
	# A second of TCP through the new vif, the direction alternating.
	dir=; ((c % 2)) && dir=-R
	# shellcheck disable=SC2086
	out=$(lab_iperf "$ip" $dir 1) || lab_fail "cycle $c: ${out##*XNB-FAILREASON }"
	rx=$(lab_vif_bytes "$vif" rx) tx=$(lab_vif_bytes "$vif" tx)
	lab_assert_gt "$rx" 10000 "cycle $c: bytes from the guest on $vif"
	lab_assert_gt "$tx" 10000 "cycle $c: bytes to the guest on $vif"
	t2=$(date +%s%N)
	if ((c % SOAK_RECREATE == 0)); then
		# Destroyed with the vif attached and the flood running.
		lab_log "cycle $c: destroying g1 in mid-traffic"
		lab_guest_destroy 1
		lab_assert "cycle $c: vifs gone with the guest" lab_wait 60 lab_no_vifs
		soak_flood_stop
		((c < SOAK_CYCLES)) && lab_guest_start 1
		recreated=$((recreated + 1))
	else
		lab_net_detach 1 1
		soak_flood_stop
		t_detach=$((t_detach + $(date +%s%N) - t2))
	fi
	t_attach=$((t_attach + t1 - t0))
	if ((c % 10 == 0 || c == SOAK_CYCLES)); then
		echo "XNB-LOG soak: $c/$SOAK_CYCLES cycles, $(($(date +%s) - start)) s"
	fi
done
elapsed=$(($(date +%s) - start))
soak_quiesce
soak_counters > /run/soak-after
lab_log "after: $(xargs < /run/soak-after)"
awk -v n="$SOAK_CYCLES" -v e="$elapsed" -v a="$t_attach" -v d="$t_detach" \
	-v r="$recreated" 'BEGIN {
	printf "XNB-METRIC soak cycles=%d seconds=%d per_cycle_s=%.1f attach_s=%.1f detach_s=%.1f recreated=%d\n",
		n, e, e / n, a / n / 1e9, (n > r ? d / (n - r) / 1e9 : 0), r }'

# Counters that must be back exactly, and the memory ones with a slack.
exact=" ring_mappings grant_entries evtchn_dom0 irqs irqs_vif kthreads hrtimers_netback "
exact+=" netdevs vifs domains backend_nodes module_refcnt xnb_queues "
slack=" slab_unreclaim_kb vmalloc_used_kb "
pass=0 fail=0
while read -r name before; do
	after=$(awk -v k="$name" '$1 == k { print $2 }' /run/soak-after)
	verdict=INFO
	if [[ $exact == *" $name "* ]]; then
		verdict=PASS
		[ "$after" = "$before" ] || verdict=FAIL
	elif [[ $slack == *" $name "* ]]; then
		verdict=PASS
		[ "$((after - before))" -le "$SOAK_MEM_SLACK_KB" ] || verdict=FAIL
	fi
	case $verdict in PASS) pass=$((pass + 1)) ;; FAIL) fail=$((fail + 1)) ;; esac
	echo "XNB-SOAK $name before=$before after=$after delta=$((after - before)) $verdict"
done < /run/soak-before
# Nothing holds the module: it unloads, and loads again for what follows.
if lab_wait 30 rmmod xen-netback; then
	pass=$((pass + 1)); echo "XNB-SOAK module_unload PASS"
	lab_load_backend
else
	fail=$((fail + 1)); echo "XNB-SOAK module_unload FAIL"
fi
echo "XNB-SOAK $pass passed, $fail failed"
[ "$fail" -eq 0 ] || lab_fail "soak: $fail counters not back after $SOAK_CYCLES cycles"
