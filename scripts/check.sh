#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: every test stage in turn, each with its own log under
# build/check/.  A stage that fails does not stop the others, so one run
# shows everything that is broken.  The last line sums the stages'
# "N passed, N failed" lines (a stage without one counts as one test).
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
logs=$top/build/check
mkdir -p "$logs"
pass=0 fail=0 failed=()

stage() {	# NAME COMMAND...
	local name=$1 rc line p f
	shift
	echo "=== check: $name: $*"
	"$@" 2>&1 | tee "$logs/$name.log"
	rc=${PIPESTATUS[0]}
	line=$(grep -aE '^[0-9]+ passed, [0-9]+ failed' "$logs/$name.log" | tail -1)
	if [ -n "$line" ]; then
		p=${line%% passed*}; f=${line#*passed, }; f=${f%% failed*}
	elif [ "$rc" -eq 0 ]; then
		p=1 f=0
	else
		p=0 f=1
	fi
	# A stage that exits non-zero has failed whatever it counted.
	[ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1
	pass=$((pass + p)) fail=$((fail + f))
	[ "$f" -ne 0 ] && failed+=("$name")
	echo "=== check: $name: exit $rc ($p passed, $f failed)"
}

# NETBACK=stock make check: only what tests Debian's module or the lab
# itself (the reference run); the stages about our driver are left out.
netback=${NETBACK:-ours}
case $netback in
ours|stock) ;;
*) echo "check: NETBACK must be ours or stock, not '$netback'" >&2; exit 2 ;;
esac
unset NETBACK

# Fast and first: every shell file passes shellcheck.
stage shellcheck make shellcheck
stage unit make unit
stage fuzz-smoke make fuzz-smoke
# checkpatch --strict; sparse and W=1 builds against 6.1 and 6.12.
stage lint make lint
stage build-matrix make build-matrix
# The lab must fail a run in which a module WARNs (one short boot).
stage lab-selftest scripts/lab-selftest.sh
# Whole-run caps (s) so that a wedged dom0 cannot eat CI's 90 minutes;
# on an idle 2-core host the stages take well under half of these.
if [ "$netback" = ours ]; then
	stage lab-ours env LAB_TIMEOUT=2700 LAB_SCENARIO_TIMEOUT=600 make lab NETBACK=ours SCENARIOS="$CHECK_OURS"
fi
stage lab-stock env LAB_TIMEOUT=900 make lab NETBACK=stock SCENARIOS="$CHECK_STOCK"
# The hostile campaign (every catalogue case, 100,000 random requests) and
# the bench smoke (results under build/, never asserted).  CHECK_HOSTILE=0
# or CHECK_BENCH=0 skips one when iterating locally.
if [ "$netback" = ours ] && [ "${CHECK_HOSTILE:-1}" = 1 ]; then
	stage hostile env LAB_TIMEOUT=1500 make hostile
fi
if [ "$netback" = ours ] && [ "${CHECK_BENCH:-1}" = 1 ]; then
	stage bench-quick env BENCH_RESULTS="$top/build/bench-results" make bench QUICK=1
fi
[ "$netback" = stock ] && echo "check: NETBACK=stock: lab-ours, hostile and bench-quick (our driver) not run"

[ ${#failed[@]} -gt 0 ] && echo "check: failed stages: ${failed[*]}"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
