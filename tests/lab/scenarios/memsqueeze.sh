# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# memsqueeze: a guest floods dom0 (TCP, guest -> dom0: the backend's TX
# path allocates an skb and pages per packet) while dom0's free memory is
# held just above the min watermark (the lab kernel has no fault
# injection).  The driver allocates with GFP_NOWAIT in every worker mode:
# it must not stall in reclaim (allocstall), must not be what invokes the
# OOM killer (oom_driver), must count what it drops in `ethtool -S`
# (tx_alloc_failed), and once the squeeze ends the vif carries traffic
# again with no further failures.
#
# Under TCG a process faults its memory in at ~16 MB/s, so the bulk goes
# first into a tmpfs file (fallocate), leaving 64 MiB above the target.
# The rest of the squeeze is a perl process that allocates memory in 512
# KiB chunks while MemFree is above the zones' min watermark plus
# MEMSQUEEZE_MARGIN_KB (and 2 MiB of slack) and frees chunks when it falls
# below that.  Everything else in dom0 gets oom_score_adj -1000 meanwhile
# (the harness survives whatever happens); the squeezer +1000 (if
# anything is killed, it is).  It runs once per worker type with ours.
#
#   MEMSQUEEZE_SECONDS (20)  MEMSQUEEZE_MARGIN_KB (1024)
#   MEMSQUEEZE_MIN_FREE_KB (unset: vm.min_free_kbytes as booted)
#   MEMSQUEEZE_WORKERS ("kthread tasklet" with ours)
SQ_SECS=${MEMSQUEEZE_SECONDS:-20}
# OOM reports are expected and judged here (oom_driver), not by the
# runner's splat check; a WARN or BUG still fails the run.
touch /run/memsqueeze.oom-ok
SQ_MARGIN=${MEMSQUEEZE_MARGIN_KB:-1024}
if [ "$NETBACK" = ours ]; then
	SQ_WORKERS=${MEMSQUEEZE_WORKERS:-kthread tasklet}
else
	SQ_WORKERS=default
fi
ip=$(lab_guest_ip 1)

# min_wmark_kb: the zones' min watermarks, summed.
min_wmark_kb() {
	awk '$1 == "min" && NF == 2 { s += $2 } END { print s * 4 }' /proc/zoneinfo
}
memfree_kb() { awk '$1 == "MemFree:" { print $2 }' /proc/meminfo; }
vmstat_of() { awk -v k="$1" '$1 == k { print $2; f = 1 } END { if (!f) print 0 }' /proc/vmstat; }
# alloc_counters VIF: "name=value ..." of ethtool counters about allocations.
alloc_counters() {
	ethtool -S "$1" 2>/dev/null | awk '$1 ~ /alloc/ { sub(":", "", $1); printf "%s=%s ", $1, $2 }'
}
alloc_sum() {
	ethtool -S "$1" 2>/dev/null | awk '$1 ~ /alloc/ { s += $2 } END { print s + 0 }'
}

# The squeeze holds MemFree a megabyte above the min watermark, so a page
# fault of the harness itself (a ping, iperf3) may invoke the OOM killer,
# which then kills the squeezer (oom_score_adj 1000).  That is the lab's
# doing.  The driver's data path allocates with GFP_NOWAIT: it must never
# be what invokes the OOM killer or warns of a failed allocation, and no
# process but the squeezer may die.
# oom_driver < DMESG: what of that the kernel log shows, one line each.
oom_driver() {
	awk '
		/invoked oom-killer|page allocation failure/ {
			t = 1; what = $0
			if (/xnb/) { bad = bad "; " what; t = 0 }
			next
		}
		t && /xnb_|\[xen_netback\]/ { bad = bad "; " what " (from the driver)"; t = 0 }
		/Mem-Info|oom-kill:/ { t = 0 }
		/Killed process/ && !/\(perl\)/ { bad = bad "; " $0 }
		END { sub(/^; /, "", bad); print bad }'
}
# oom_harness < DMESG: the OOM killer's invocations, for the log.
oom_harness() {
	grep -E 'invoked oom-killer|Killed process' | sed 's/^\[ *[0-9.]*\] //' | paste -sd ';' -
}

# Everything that runs now is protected from the OOM killer; the old
# values come back at the end.
SAVED_ADJ=""
protect_all() {
	local p a
	for p in /proc/[0-9]*; do
		a=$(cat "$p/oom_score_adj" 2>/dev/null) || continue
		echo -1000 > "$p/oom_score_adj" 2>/dev/null &&
			SAVED_ADJ="$SAVED_ADJ ${p#/proc/}:$a"
	done
}
unprotect_all() {
	local e
	for e in $SAVED_ADJ; do
		echo "${e#*:}" > "/proc/${e%%:*}/oom_score_adj" 2>/dev/null
	done
	SAVED_ADJ=""
}

# squeeze SECONDS TARGET_KB LOG: hold MemFree near TARGET_KB; the log gets
# "chunks=N min_free_seen=KB" lines, the last one when it ends.
squeeze() {
	# glibc would otherwise move the mmap threshold up and keep freed
	# chunks in the heap.
	MALLOC_MMAP_THRESHOLD_=65536 perl -e '
		my ($secs, $target, $log) = @ARGV;
		my $adj;
		if (open($adj, ">", "/proc/self/oom_score_adj")) {
			print $adj "1000\n";
			close($adj);
		}
		my @hog; my $lo = 1 << 40; my $end = time + $secs; my $last = 0;
		sub memfree {
			open(my $m, "<", "/proc/meminfo") or return 0;
			while (<$m>) { return $1 if /^MemFree:\s+(\d+)/; }
			return 0;
		}
		while (time < $end) {
			my $f = memfree();
			$lo = $f if $f < $lo;
			if ($f > $target + 2048) {
				push @hog, "x" x (512 << 10);
				next;
			}
			pop @hog if $f < $target && @hog;
			if (time != $last) {
				$last = time;
				open(my $l, ">>", $log);
				printf $l "chunks=%d free=%d min_free_seen=%d\n", scalar @hog, $f, $lo;
				close($l);
			}
			select(undef, undef, undef, 0.02);
		}
		open(my $l, ">>", $log);
		printf $l "end chunks=%d min_free_seen=%d\n", scalar @hog, $lo;
		close($l);
	' "$1" "$2" "$3"
}

fails=""
run_mode() {
	local mode=$1 vif n0 wm target a0 a1 s0 s1 st0 st1 log=/run/memsqueeze.log
	local ipid ppid pings=0 ok=0 mbps line res oom a2 rx0

	if [ "$mode" = default ]; then
		lab_load_backend "$XNB_PARAMS"
	else
		lab_load_backend "$XNB_PARAMS worker=$mode"
	fi
	lab_guest_start 1
	vif=$(lab_vif_name 1)
	lab_assert "ping g1 before the squeeze" lab_ping "$ip" 2
	if [ -n "${MEMSQUEEZE_MIN_FREE_KB:-}" ]; then
		old_minfree=$(cat /proc/sys/vm/min_free_kbytes)
		echo "$MEMSQUEEZE_MIN_FREE_KB" > /proc/sys/vm/min_free_kbytes
	fi
	wm=$(min_wmark_kb)
	target=$((wm + SQ_MARGIN))
	lab_log "[$mode] MemFree $(memfree_kb) kB, min watermarks $wm kB, min_free_kbytes $(cat /proc/sys/vm/min_free_kbytes): holding MemFree near $target kB for $SQ_SECS s"
	lab_log "[$mode] $vif alloc counters before: $(alloc_counters "$vif")"
	n0=$(dmesg | wc -l)
	a0=$(alloc_sum "$vif")
	s0=$(vmstat_of allocstall_normal)
	st0=$(vmstat_of pgscan_kswapd)
	rx0=$(lab_vif_bytes "$vif" rx)

	protect_all
	rm -f "$log"
	mkdir -p /run/msq
	mount -t tmpfs -o size=95% none /run/msq || fails="$fails; [$mode] tmpfs mount failed"
	fallocate -l "$(( $(memfree_kb) - target - 65536 ))K" /run/msq/fill ||
		fails="$fails; [$mode] fallocate failed"
	lab_log "[$mode] tmpfs fill $(du -k /run/msq/fill | cut -f1) kB, MemFree now $(memfree_kb) kB"
	# The flood starts first and outlasts the squeeze.
	timeout $((SQ_SECS + 60)) iperf3 -c "$ip" -R -t $((SQ_SECS + 10)) -f m > /run/memsqueeze.iperf 2>&1 &
	ipid=$!
	sleep 3
	squeeze "$SQ_SECS" "$target" "$log" &
	ppid=$!
	# g1 over the squeeze: ping once a second.
	while kill -0 "$ppid" 2>/dev/null; do
		pings=$((pings + 1))
		ping -c1 -W2 "$ip" >/dev/null 2>&1 && ok=$((ok + 1))
		sleep 1
	done
	wait "$ppid"
	rm -f /run/msq/fill
	umount /run/msq
	wait "$ipid"
	unprotect_all
	[ -n "${old_minfree:-}" ] && echo "$old_minfree" > /proc/sys/vm/min_free_kbytes

	a1=$(alloc_sum "$vif")
	s1=$(vmstat_of allocstall_normal)
	st1=$(vmstat_of pgscan_kswapd)
	line=$(tail -n1 "$log" 2>/dev/null)
	mbps=$(awk '/receiver/ { for (i = 1; i < NF; i++) if ($(i + 1) == "Mbits/sec") r = $i } END { print r + 0 }' /run/memsqueeze.iperf)
	lab_log "[$mode] squeezer: ${line:-no log}; g1 answered $ok/$pings pings; flood ${mbps} Mbit/s, $(( ($(lab_vif_bytes "$vif" rx) - rx0) / 1024 )) KiB from g1"
	lab_log "[$mode] direct reclaim stalls +$((s1 - s0)), kswapd scanned +$((st1 - st0)) pages; $vif alloc counters after: $(alloc_counters "$vif")"
	echo "XNB-METRIC memsqueeze mode=$mode target_kb=$target ${line#end } pings=$ok/$pings flood_mbps=$mbps allocstall=$((s1 - s0)) alloc_counter_delta=$((a1 - a0))"

	dmesg | tail -n +$((n0 + 1)) > /run/memsqueeze.dmesg
	oom=$(oom_harness < /run/memsqueeze.dmesg)
	[ -z "$oom" ] || lab_log "[$mode] the squeeze drove a userspace fault into the OOM killer (the lab's doing): $oom"
	oom=$(oom_driver < /run/memsqueeze.dmesg)
	[ -z "$oom" ] || fails="$fails; [$mode] $oom"
	# Killed early by the OOM killer (see oom_driver), the squeezer has
	# still squeezed if the driver counted failed allocations.
	[ -n "$line" ] || [ $((a1 - a0)) -gt 0 ] ||
		fails="$fails; [$mode] the squeezer did not run"
	# Traffic resumes once the memory is back.
	if lab_wait 30 lab_ping "$ip" 1; then
		res=$(lab_iperf "$ip" -R 2)
		lab_log "[$mode] after the squeeze: guest->dom0 $res Gbit/s"
		awk -v a="$res" 'BEGIN { exit !(a + 0 > 0) }' || fails="$fails; [$mode] no TCP after the squeeze"
		res=$(lab_iperf "$ip" 2)
		lab_log "[$mode] after the squeeze: dom0->guest $res Gbit/s"
		awk -v a="$res" 'BEGIN { exit !(a + 0 > 0) }' || fails="$fails; [$mode] no TCP dom0->guest after the squeeze"
	else
		fails="$fails; [$mode] g1 does not answer ping after the squeeze"
	fi
	# Where the driver counts allocation failures: they were the
	# squeeze's doing only.
	if [ -n "$(alloc_counters "$vif")" ]; then
		a2=$(alloc_sum "$vif")
		lab_log "[$mode] alloc counters: +$((a1 - a0)) during the squeeze, +$((a2 - a1)) after"
		[ "$a2" -eq "$a1" ] || fails="$fails; [$mode] $((a2 - a1)) allocation failures counted after the squeeze"
	else
		lab_log "[$mode] no alloc counter in ethtool -S $vif"
	fi
	lab_destroy_all
}

for m in $SQ_WORKERS; do
	run_mode "$m"
done
[ -z "$fails" ] || lab_fail "memsqueeze:${fails#;}"
