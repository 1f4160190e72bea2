# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Helpers for scenarios that look at our driver's own state (worker groups,
# debugfs, ethtool counters).  Sourced after lib.sh.

# xnb_ours_only: scenarios about our own features skip on stock.
xnb_ours_only() {
	[ "$NETBACK" = ours ] || lab_skip "a feature of our driver only (NETBACK=$NETBACK)"
}

xnb_debugfs() {
	mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
	echo /sys/kernel/debug/xen-netback
}

xnb_groups_file() { cat "$(xnb_debugfs)/groups"; }

# xnb_vif_debugfs VIF: VIF's debugfs directory, named as its xenbus
# device (vif-<domid>-<devid>), whatever the netdev's name.
xnb_vif_debugfs() { echo "$(xnb_debugfs)/$(basename "$(readlink -f "/sys/class/net/$1/device")")"; }
# xnb_io_ring VIF Q: the debugfs ring dump of VIF's queue Q.
xnb_io_ring() { cat "$(xnb_vif_debugfs "$1")/io_ring_q$2"; }
# xnb_rx_drained: every connected queue's ring dump shows nothing queued
# for its guest ("rx_skbs 0 rx_bytes_queued 0"); fails without a queue.
xnb_rx_drained() {
	cat "$(xnb_debugfs)"/vif-*/io_ring_q* 2>/dev/null | awk '
		$5 == "rx_skbs" { n++; if ($6 != 0 || $8 != 0) bad = 1 }
		END { exit bad || !n }'
}

# xnb_group_of QUEUE: index of the group serving QUEUE (e.g. vif1.0-q0).
xnb_group_of() {
	xnb_groups_file | awk -v q="$1" '
		/^group / { g = $2; sub(":", "", g) }
		$1 == q { print g; found = 1 }
		END { exit !found }'
}

# xnb_in_group QUEUE GROUP: QUEUE is served by GROUP now.
xnb_in_group() { [ "$(xnb_group_of "$1")" = "$2" ]; }

# xnb_group_batch GROUP: the copy ops GROUP's batch holds (0: it has none,
# serving no queue; group 0 always has one).
xnb_group_batch() {
	xnb_groups_file | awk -v g="$1" '
		$1 == "group" && $2 == g ":" {
			for (i = 3; i < NF; i++) if ($i == "batch") print $(i + 1)
		}'
}

# xnb_threads: our groups' threaded-NAPI kthreads, "napi/xnb-g<N>-0"
# (comm is cut at 15 characters; none under worker=tasklet).
xnb_threads() { ps -e -o comm= | grep -c '^napi/xnb-g[0-9]' || true; }

# xnb_ethtool VIF NAME: one counter of ethtool -S.
xnb_ethtool() {
	ethtool -S "$1" | awk -v k="$2:" '$1 == k { print $2; f = 1 } END { exit !f }'
}

# The interface for scripts (docs/admin.md): a directory per group.
XNB_SYSFS=/sys/module/xen_netback/groups

# xnb_sysfs GROUP FILE: one value of a group's directory.
xnb_sysfs() { cat "$XNB_SYSFS/$1/$2"; }

# xnb_sysfs_sum FILE: FILE summed over every group's directory.
xnb_sysfs_sum() {
	local d s=0
	for d in "$XNB_SYSFS"/*/; do s=$((s + $(cat "$d$1"))); done
	echo "$s"
}

# xnb_queue_groups VIF: the q<i>_group rows of ethtool -S, in queue order.
xnb_queue_groups() {
	ethtool -S "$1" | awk '$1 ~ /^q[0-9]+_group:$/ { print $2 }'
}

# xnb_queue_sum VIF COUNTER: ethtool -S's q<i>_COUNTER rows of VIF summed
# over its queues (0 without such rows).
xnb_queue_sum() {
	ethtool -S "$1" | awk -v c="_$2:" '
		$1 ~ /^q[0-9]+_/ && substr($1, length($1) - length(c) + 1) == c { s += $2 }
		END { print s + 0 }'
}

# xnb_queue_rows VIF: how many q<i>_* rows ethtool -S shows for VIF.
xnb_queue_rows() {
	ethtool -S "$1" | awk '$1 ~ /^q[0-9]+_[a-z_]+:$/ { n++ } END { print n + 0 }'
}

# xnb_channels VIF max|current: ethtool -l's combined channels of VIF, the
# maximum or the current count.
xnb_channels() {
	ethtool -l "$1" | awk -v want="$2" '
		/^Pre-set maximums:/ { s = "max" } /^Current hardware settings:/ { s = "current" }
		$1 == "Combined:" && s == want { print $2; f = 1 } END { exit !f }'
}

# xnb_tracefs: the tracefs mount (/sys/kernel/tracing, mounted if need
# be, else debugfs's tracing); fails without one.
xnb_tracefs() {
	local t=/sys/kernel/tracing
	[ -d $t/events ] || mount -t tracefs nodev $t 2>/dev/null
	[ -d $t/events ] || { mountpoint -q /sys/kernel/debug ||
		mount -t debugfs none /sys/kernel/debug; t=/sys/kernel/debug/tracing; }
	[ -d $t/events ] && echo $t
}

# xnb_traffic N [K]: ping and a short TCP run each way through vif K of
# g<N>; prints "<guest->dom0 Gbit/s> <dom0->guest Gbit/s>", logs to stderr.
xnb_traffic() {
	local ip tx rx
	ip=$(lab_guest_ip "$1" "${2:-0}")
	lab_assert "ping $ip" lab_ping "$ip" 2 >&2
	tx=$(lab_iperf "$ip" -R 2)
	rx=$(lab_iperf "$ip" 2)
	lab_log "$ip guest->dom0 $tx Gbit/s, dom0->guest $rx Gbit/s" >&2
	lab_assert_gt "$tx" 0 "guest->dom0 throughput via $ip"
	lab_assert_gt "$rx" 0 "dom0->guest throughput via $ip"
	echo "$tx $rx"
}

# --- leak counters (soak, migrate) ------------------------------------------------
# What dom0 and Xen hold for guests, taken with no guest before and after a
# run: xnb_leak_counters > before ... xnb_leak_counters > after, then
# xnb_leak_compare.

# xnb_xen_key KEY: what Xen printed for debug key KEY (without "(XEN) ").
# Only the text after the last "'KEY' pressed" line: the console ring
# holds older dumps and the rest of the scenario's Xen log.
xnb_xen_key() {
	xl debug-keys "$1" || return 1
	sleep 1
	xl dmesg | sed 's/^(XEN) //' | awk -v k="'$1' pressed" '
		index($0, k) { n = 0; delete l } { l[n++] = $0 }
		END { for (i = 0; i < n; i++) print l[i] }'
}
xnb_meminfo_kb() { awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo; }
# xnb_leak_counters: "name value" lines.
xnb_leak_counters() {
	sync; echo 3 > /proc/sys/vm/drop_caches
	echo "slab_unreclaim_kb $(xnb_meminfo_kb SUnreclaim)"
	echo "slab_kb $(xnb_meminfo_kb Slab)"
	echo "vmalloc_used_kb $(xnb_meminfo_kb VmallocUsed)"
	# Shared rings are mapped into dom0 by xenbus_map_ring_*.
	echo "ring_mappings $(grep -c xenbus /proc/vmallocinfo)"
	echo "vmalloc_areas $(wc -l < /proc/vmallocinfo)"
	# Grant entries in use (active or shared) in any domain's table.
	echo "grant_entries $(xnb_xen_key g | grep -cE '^ *\[0x[0-9a-f]+\] ')"
	# Dom0's allocated event channel ports.
	echo "evtchn_dom0 $(xnb_xen_key e | awk '
		/^Event channel information for domain/ { d = ($NF == "0:") }
		d && /^ +[0-9]+ \[/ { n++ } END { print n + 0 }')"
	echo "irqs $(($(wc -l < /proc/interrupts) - 1))"
	echo "irqs_vif $(grep -c 'vif' /proc/interrupts)"
	# kworkers come and go with load: not counted.  Nor our groups'
	# threads, which start with a group's first queue and stay with the
	# set (docs/design.md, "Memory"): a scenario's first guests may add
	# them; shown apart (INFO), one per group at most.
	echo "kthreads $(ps -e -o ppid=,comm= | awk '$1 == 2 && $2 !~ /^kworker/ && $2 !~ /^napi\/xnb-g/' | wc -l)"
	echo "group_threads $(xnb_threads)"
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

# xnb_quiesce: no guest, no vif, settled: the state the counters are taken in.
xnb_quiesce() {
	lab_destroy_all
	lab_assert "no vif left" lab_wait 60 lab_no_vifs
	lab_assert "no domain but dom0" lab_wait 60 \
		sh -c '[ "$(xl list | awk "NR > 2" | wc -l)" = 0 ]'
	sleep 3
}

# xnb_leak_compare TAG SLACK_KB BEFORE AFTER: one "TAG name before=B
# after=A delta=D PASS|FAIL|INFO" line per counter of the files BEFORE and
# AFTER.  Counters of objects must be back exactly; unreclaimable slab and
# vmalloc may grow by SLACK_KB; the rest (INFO) vary with anything.  Adds
# to XNB_LEAK_PASS and XNB_LEAK_FAIL.
XNB_LEAK_PASS=0 XNB_LEAK_FAIL=0
xnb_leak_compare() {
	local tag=$1 slack_kb=$2 name before after verdict exact slack
	exact=" ring_mappings grant_entries evtchn_dom0 irqs irqs_vif kthreads hrtimers_netback "
	exact+=" netdevs vifs domains backend_nodes module_refcnt xnb_queues "
	slack=" slab_unreclaim_kb vmalloc_used_kb "
	while read -r name before; do
		after=$(awk -v k="$name" '$1 == k { print $2 }' "$4")
		verdict=INFO
		if [[ $exact == *" $name "* ]]; then
			verdict=PASS
			[ "$after" = "$before" ] || verdict=FAIL
		elif [[ $slack == *" $name "* ]]; then
			verdict=PASS
			[ "$((after - before))" -le "$slack_kb" ] || verdict=FAIL
		fi
		case $verdict in
		PASS) XNB_LEAK_PASS=$((XNB_LEAK_PASS + 1)) ;;
		FAIL) XNB_LEAK_FAIL=$((XNB_LEAK_FAIL + 1)) ;;
		esac
		echo "$tag $name before=$before after=$after delta=$((after - before)) $verdict"
	done < "$3"
}

# xnb_leak_unload TAG: nothing holds the module: it unloads ("TAG
# module_unload PASS|FAIL", counted as above), and loads again for what
# follows.
xnb_leak_unload() {
	if lab_wait 30 rmmod xen-netback; then
		XNB_LEAK_PASS=$((XNB_LEAK_PASS + 1))
		echo "$1 module_unload PASS"
		lab_load_backend
	else
		XNB_LEAK_FAIL=$((XNB_LEAK_FAIL + 1))
		echo "$1 module_unload FAIL"
	fi
}
