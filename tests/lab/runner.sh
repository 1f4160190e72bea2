#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Lab runner, started by dom0's /init: runs each scenario in /lab/config's
# SCENARIOS with a time limit, then checks the kernel and Xen logs of that
# scenario for oopses/warnings.  Reports "XNB-RESULT <name> PASS|FAIL [why]"
# on the console and "XNB-DONE" at the end; the host parses those.
. /lab/lib.sh

BAD='Oops|\<BUG\>|WARNING:|soft lockup|hung task|general protection|Call Trace'

# Everything that follows on the console belongs to one scenario.
run_scenario() {
	local s=$1 rc mark why="" hits skip="" tmo
	tmo=$(lab_scenario_timeout "$s")
	mark="XNB-MARK-$s-$RANDOM"
	echo "$mark" > /dev/kmsg
	xl dmesg -c > /dev/null 2>&1
	echo "XNB-START $s"
	# Guest console logs of this scenario only (names are reused).
	rm -f /var/log/xen/console/guest-*.log /run/$s.failed
	# The backend is (re)loaded with the run's parameters when a previous
	# scenario left it unloaded; scenarios may reload it themselves.
	# Output is shown live (prefixed) and kept for the failure reason.
	# (A subshell: lab_fail exits.)
	( { lab_backend_loaded || lab_load_backend; } &&
		LAB_FAILED=/run/$s.failed LAB_SCENARIO=$s exec timeout -k 10 "$tmo" bash -c ". /lab/lib.sh; . /lab/scenarios/$s.sh" ) 2>&1 |
		tee /run/$s.log | sed -u "s/^/[$s] /"
	rc=${PIPESTATUS[0]}
	[ $rc -eq 124 ] || [ $rc -eq 137 ] && why="timed out after ${tmo}s"
	if [ $rc -eq 77 ]; then   # lab_skip
		skip=$(grep -o 'XNB-SKIPREASON .*' /run/$s.log | tail -n1 | cut -d' ' -f2-)
		skip=${skip:-skipped} rc=0
	fi
	# A lab_fail in a command substitution ended only its subshell.
	if [ $rc -eq 0 ] && [ -s /run/$s.failed ]; then
		rc=1 skip="" why="$(head -n1 /run/$s.failed) (in a subshell)"
	fi
	[ $rc -ne 0 ] && [ -z "$why" ] && why=$(grep -o 'XNB-FAILREASON .*' /run/$s.log | tail -n1 | cut -d' ' -f2-)
	[ $rc -ne 0 ] && [ -z "$why" ] && why="exit status $rc"
	if [ $rc -ne 0 ]; then
		for f in /var/log/xen/console/guest-*.log; do
			[ -f "$f" ] && tail -n 15 "$f" | sed "s|^|[$s] ${f##*/}: |"
		done
	fi
	# Leave no guests behind for the next scenario (part of this one, so a
	# splat during the teardown is blamed on it).
	lab_destroy_all > /dev/null 2>&1
	# A scenario that provokes the OOM killer on purpose (memsqueeze)
	# creates /run/<scenario>.oom-ok and judges the reports itself: the
	# stack dump of an OOM report is not a splat there.
	hits=$(dmesg | sed -n "/$mark/,\$p" |
		if [ -e "/run/$s.oom-ok" ]; then
			awk '/invoked oom-killer/ { o = 1 } /Mem-Info:/ { o = 0 } !o'
		else
			cat
		fi | grep -E "$BAD" | head -n 5)
	if [ -n "$hits" ]; then
		echo "$hits" | sed "s/^/[$s] dmesg: /"
		why="${why:+$why; }kernel log: $(echo "$hits" | head -n1 | cut -c1-100)"
	fi
	hits=$(xl dmesg 2>/dev/null | grep -E "$BAD" | head -n 5)
	if [ -n "$hits" ]; then
		echo "$hits" | sed "s/^/[$s] xl dmesg: /"
		why="${why:+$why; }xen log: $(echo "$hits" | head -n1 | cut -c1-100)"
	fi
	if [ -z "$why" ] && [ -n "$skip" ]; then
		echo "XNB-RESULT $s SKIP $skip"
	elif [ -z "$why" ]; then
		echo "XNB-RESULT $s PASS"
	else
		echo "XNB-RESULT $s FAIL $why"
	fi
}

echo "XNB-CONFIG NETBACK=$NETBACK XNB_PARAMS='$XNB_PARAMS' SCENARIOS='$SCENARIOS'"
for s in $SCENARIOS; do
	run_scenario "$s"
done
echo "XNB-DONE"
