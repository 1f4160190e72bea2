# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# reload-race: rmmod and insmod while root writes the groups parameter.
# A writer loops over groups=1 2 3 0 as fast as the module takes them
# while the module is unloaded and loaded again RELOAD_RACE_CYCLES times
# (default 20), no guest.  The sysfs file outlives module exit until the
# module is freed and exists before module init runs, so writes land
# before, during and after both.  Every unload must complete, no splat
# (the runner checks dmesg), and after the last rmmod no group thread
# ("napi/xnb-g<N>-0") may be left.  Each write is accepted, refused with
# EBUSY once exit began, or fails for the file being gone; the counts go
# out as an XNB-METRIC line.  Time: RELOAD_RACE_BUDGET s (default 90),
# after which the cycles stop early (at least 5 must have run).
. /lab/xnb.sh
xnb_ours_only
P=/sys/module/xen_netback/parameters
cycles=${RELOAD_RACE_CYCLES:-20}
budget=${RELOAD_RACE_BUDGET:-90}
errs=/run/reload-race.err
stats=/run/reload-race.stats
rm -f "$errs" "$stats"

# writer: write groups while the file exists; on TERM, print the counts.
writer() {
	local ok=0 bad=0 n
	trap 'echo "$ok $bad" > $stats; exit 0' TERM
	while :; do
		for n in 1 2 3 0; do
			if [ -e $P/groups ]; then
				if { echo $n > $P/groups; } 2>>"$errs"; then
					ok=$((ok + 1))
				else
					bad=$((bad + 1))
				fi
			else
				sleep 0.05
			fi
		done
	done
}
# The counts are printed by the TERM trap: wait for the file.
writer_stop() {
	kill -TERM "$wpid" 2>/dev/null
	wait "$wpid" 2>/dev/null
	wpid=
}

lab_unload_backend
writer &
wpid=$!
trap '[ -n "$wpid" ] && kill "$wpid" 2>/dev/null' EXIT
start=$SECONDS
done_cycles=0
for ((i = 1; i <= cycles; i++)); do
	lab_load_backend
	# Let a few writes through: the next rmmod then meets one in flight
	# as often as not (each holds the assign mutex while it starts the
	# new groups).
	sleep 0.3
	lab_unload_backend
	lab_assert "cycle $i: module gone" test ! -d /sys/module/xen_netback
	done_cycles=$i
	if [ $((SECONDS - start)) -ge "$budget" ] && [ "$i" -lt "$cycles" ]; then
		lab_log "time budget ${budget} s spent: stopping after $i of $cycles cycles"
		break
	fi
done
writer_stop
lab_assert "at least 5 cycles ($done_cycles)" test "$done_cycles" -ge 5
read -r ok bad < "$stats" || lab_fail "no counts from the writer"
busy=$(grep -c 'busy' "$errs" || true)
echo "XNB-METRIC reload-race cycles=$done_cycles writes_ok=$ok writes_failed=$bad ebusy=$busy seconds=$((SECONDS - start))"
sort "$errs" | uniq -c | sort -rn | head -5
lab_assert "some writes reached a loaded module" test "$ok" -gt 0
threads=$(xnb_threads)
lab_assert "no group thread left after the last rmmod ($threads)" test "$threads" = 0
lab_load_backend
