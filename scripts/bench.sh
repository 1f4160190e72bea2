#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make bench [QUICK=1]`: boot the lab once with our module (reloaded with
# groups=1 and groups=<dom0 vcpus>, worker=kthread and tasklet) and once
# with Debian's stock module, run the bench scenario in each, aggregate.
#
#   scripts/bench.sh            full: 3 repetitions, 10 s iperf runs
#   QUICK=1 scripts/bench.sh    smoke: 1 repetition, 2 s runs, 2 guests,
#                               2 of our configurations (make check)
#
# Writes bench/results/<YYYY-MM-DD-HHMM>.{md,csv,png} (BENCH_RESULTS=dir to
# put them elsewhere) and, for a full run into bench/results, a short
# summary of it between README.md's bench markers; the lab runs (serial
# logs) stay in build/bench/<stamp>/.  Reports targets, asserts none:
# exits non-zero only when the harness broke (a boot yielded no figure at
# all, or the results could not be written).  BENCH_BACKENDS="ours stock" picks the boots.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
QUICK=${QUICK:-0}
[ "$QUICK" = 1 ] || QUICK=0
stamp=$(date +%Y-%m-%d-%H%M)
results=${BENCH_RESULTS:-$top/bench/results}
work=$top/build/bench/$stamp
mkdir -p "$results" "$work"

# The configurations and the knobs come from the library the scenarios
# use (in a subshell: the knobs are not exported to the lab from here).
# shellcheck source=tests/lab/bench-lib.sh
. "$top/tests/lab/bench-lib.sh"
set=full
[ "$QUICK" = 1 ] && set=quick
scenario=bench-$set
read -r reps cycle <<< "$(bench_knobs $set; echo "$BENCH_REPS $BENCH_CYCLE_TIMEOUT")"

info=$work/info.env
"$top/scripts/bench-info.sh" "$QUICK" > "$info"

status=0
logs=()
for b in ${BENCH_BACKENDS:-ours stock}; do
	ncfg=$(bench_selected $set "$b" 2 | wc -l)
	# Every cycle is bounded inside dom0; these only catch a wedged dom0.
	sto=$((reps * (ncfg * (cycle + 30) + 120)))
	echo "LOAD_$b=$(cut -d' ' -f1 /proc/loadavg)" >> "$info"
	# pgrep -c prints 0 and fails when there is none.
	echo "OTHERQEMU_$b=$(pgrep -c qemu-system || true)" >> "$info"
	echo "bench: $b boot, scenario $scenario (budget $((sto + 300)) s), log $work/$b.out"
	t0=$(date +%s)
	NETBACK=$b SCENARIOS=$scenario LAB_SCENARIO_TIMEOUT=$sto LAB_TIMEOUT=$((sto + 300)) \
		LAB_RESULTS=$work/$b "$top/scripts/lab-run.sh" 2>&1 | tee "$work/$b.out"
	rc=${PIPESTATUS[0]}
	echo "SECS_$b=$(($(date +%s) - t0))" >> "$info"
	case $rc in
	0) echo "RC_$b=completed" >> "$info" ;;
	*) echo "RC_$b=\"FAILED (lab-run exit $rc: $(grep -m1 -o 'FAIL .*' "$work/$b.out" | cut -c1-80 | tr -d '"'))\"" >> "$info" ;;
	esac
	logs+=("$work/$b/serial.log")
	if ! tr -d '\r' < "$work/$b/serial.log" 2>/dev/null | grep -ac "XNB-METRIC bench b=$b " >/dev/null; then
		echo "bench: the $b boot produced no figures" >&2
		status=1
	fi
done
# info.env values with spaces are quoted for the shell; the helper reads raw.
sed -i 's/="\(.*\)"$/=\1/' "$info"

out=$results/$stamp
# A full run into bench/results is the latest: the README's bench section
# (between its markers) becomes a short summary pointing at it.
readme=()
[ "$QUICK" = 0 ] && [ -z "${BENCH_RESULTS:-}" ] && readme=(--readme "$top/README.md")
if ! python3 "$top/bench/aggregate.py" --info "$info" --workdir "$work" --out "$out" \
		"${readme[@]}" "${logs[@]}"; then
	echo "bench: aggregation failed" >&2
	exit 1
fi
[ -s "$out.md" ] && [ -s "$out.csv" ] || { echo "bench: no results written" >&2; exit 1; }
[ -s "$out.png" ] || echo "bench: no plot (is gnuplot installed?)" >&2
echo "bench: results in $out.md, $out.csv${out:+, $out.png}; lab logs in $work"
exit $status
