# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Helpers for scenarios that look at our driver's own state (worker groups,
# debugfs, ethtool counters).  Sourced after lib.sh.

# xnb_ours_only: scenarios about our own features skip on stock.
xnb_ours_only() {
	[ "$NETBACK" = ours ] || lab_skip "a feature of our driver only (NETBACK=$NETBACK)"
}

xnb_groups_file() {
	mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
	cat /sys/kernel/debug/xen-netback/groups
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
