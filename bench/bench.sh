#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make bench [QUICK=1]`: boot the lab once and run the bench scenario
# (tests/lab/scenarios/bench-full.sh) there: every repetition runs one
# cycle per configuration, ours and Debian's stock module switched in the
# same dom0 (stock is in every lab image), in an order reversed every
# other repetition, so that drift of the host hits both alike.  Then
# aggregate.
#
#   bench/bench.sh              full: 5 repetitions of our default
#                               configuration and stock, 10 s iperf runs
#   BENCH_SET=wide bench/bench.sh   the same with all four of ours
#   QUICK=1 bench/bench.sh      smoke: 1 repetition, 2 s runs, 2 guests,
#                               the default configuration and stock
#   BENCH_ROWS="flood floodping" bench/bench.sh
#                               some groups of rows only (bench/README.md)
#
# Writes bench/results/<YYYY-MM-DD-HHMM>.{md,csv,png} (BENCH_RESULTS=dir to
# put them elsewhere) and, for a full run into bench/results, a short
# summary of it between README.md's bench markers; the lab run (serial
# log) stays in build/bench/<stamp>/.  Reports targets, asserts none:
# exits non-zero only when the harness broke (the boot yielded no figure
# at all, or the results could not be written; with bench-host below,
# also when that scenario failed).  BENCH_BACKENDS="ours
# stock" picks the backends (stock alone boots without our module);
# BENCH_SCENARIO=bench-host runs bench/bench-host.sh in dom0 instead, as
# on a real host (the proof of `make bench-host`: its figures are
# aggregated here, dom0 has no python3); the other knobs are in
# bench/README.md.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
QUICK=${QUICK:-0}
[ "$QUICK" = 1 ] || QUICK=0
stamp=$(date +%Y-%m-%d-%H%M)
results=${BENCH_RESULTS:-$top/bench/results}
work=$top/build/bench/$stamp
mkdir -p "$results" "$work"

# The configurations and the knobs come from the library the scenario
# uses (in a subshell: the knobs are not exported to the lab from here).
# shellcheck source=tests/lab/bench-lib.sh
. "$top/tests/lab/bench-lib.sh"
set=${BENCH_SET:-full}
[ "$QUICK" = 1 ] && set=quick
backends=${BENCH_BACKENDS:-ours stock}
scenario=${BENCH_SCENARIO:-bench-full}
case $scenario in
bench-full|bench-host) ;;
*) echo "bench: BENCH_SCENARIO must be bench-full or bench-host" >&2; exit 1 ;;
esac
read -r reps cycle rows <<< "$(bench_knobs "$set"; echo "$BENCH_REPS $BENCH_CYCLE_TIMEOUT ${BENCH_ROWS// /,}")"
bad=$(bench_rows_bad)
[ -z "$bad" ] || { echo "bench: BENCH_ROWS: no such rows: ${bad//$'\n'/ } (rows: $BENCH_ROW_NAMES)" >&2; exit 1; }
ncfg=0
for b in $backends; do ncfg=$((ncfg + $(bench_selected "$set" "$b" 2 | wc -l))); done
[ "$ncfg" -gt 0 ] || { echo "bench: no configuration selected (BENCH_ONLY, BENCH_BACKENDS)" >&2; exit 1; }
# Our module unless only stock is measured.
netback=stock
case " $backends " in *" ours "*) netback=ours ;; esac

# The count rows decode Xen's trace in dom0 (bench/xentrace_count.py) on
# dom0's python3, whose standard library the lab's image leaves out: the
# decoder and the few modules it needs, from the lab's own Debian base
# (the same python), go to dom0's /opt/xnb-bench (LAB_DOM0_EXTRA_DIR,
# added to whatever it already names).  Checked here with that python.
stage_decoder() {
	local extra=$work/dom0-extra d base py lib
	d=$extra/opt/xnb-bench
	mkdir -p "$d"
	[ -z "${LAB_DOM0_EXTRA_DIR:-}" ] || cp -a "$LAB_DOM0_EXTRA_DIR/." "$extra/" || return 1
	export LAB_DOM0_EXTRA_DIR=$extra
	# shellcheck source=tests/lab/host/lab-env.sh
	. "$top/tests/lab/host/lab-env.sh"
	for base in "$LAB_CACHE"/base-*; do :; done
	py=$(readlink "$base/usr/bin/python3") && lib=$base/usr/lib/$py || return 1
	mkdir -p "$d/lib/$py/encodings" &&
		cp "$lib/encodings/__init__.py" "$lib/encodings/aliases.py" "$lib/encodings/utf_8.py" \
			"$d/lib/$py/encodings/" &&
		cp "$lib/struct.py" "$d/lib/$py/" && cp "$here/xentrace_count.py" "$d/" || return 1
	# fcntl (the marker's ioctl) where it is no builtin.
	if compgen -G "$lib/lib-dynload/fcntl*.so" > /dev/null; then
		mkdir -p "$d/lib/$py/lib-dynload" && cp "$lib"/lib-dynload/fcntl*.so "$d/lib/$py/lib-dynload/"
	fi
	env -i PYTHONHOME="$d" "$base/usr/bin/$py" -S "$d/xentrace_count.py" /dev/null > /dev/null ||
		echo "bench: the trace decoder did not run on the lab's $py here: the hypercall rows may be missing" >&2
}
if [ "$scenario" = bench-full ] && [[ ,$rows, == *,count,* ]]; then
	stage_decoder || echo "bench: could not stage the trace decoder for dom0: no hypercall rows" >&2
fi

info=$work/info.env
"$here/bench-info.sh" "$QUICK" > "$info"
echo "SCENARIO=$scenario" >> "$info"
# The host's load and other QEMUs (pgrep -c prints 0 and fails when there
# is none), before and after: a busy host shows in every figure.
hostload() {
	echo "LOAD_$1=\"$(cut -d' ' -f1-3 /proc/loadavg)\""
	echo "OTHERQEMU_$1=$(pgrep -c qemu-system || true)"
}
hostload start >> "$info"

# Every cycle is bounded inside dom0; these only catch a wedged dom0.
sto=$((reps * ncfg * (cycle + 30) + 300))
echo "bench: one boot, $ncfg configuration(s) x $reps repetition(s), set $set," \
	"budget $((sto + 300)) s, log $work/lab.out"
t0=$(date +%s)
NETBACK=$netback BENCH_SET=$set BENCH_BACKENDS=$backends SCENARIOS=$scenario \
	LAB_SCENARIO_TIMEOUT=$sto LAB_TIMEOUT=$((sto + 300)) \
	LAB_RESULTS=$work/lab "$top/tests/lab/host/lab-run.sh" 2>&1 | tee "$work/lab.out"
rc=${PIPESTATUS[0]}
hostload end >> "$info"
echo "SECS=$(($(date +%s) - t0))" >> "$info"
case $rc in
0) echo "RC=completed" >> "$info" ;;
*) echo "RC=\"FAILED (lab-run exit $rc: $(grep -m1 -o 'FAIL .*' "$work/lab.out" | cut -c1-80 | tr -d '"'))\"" >> "$info" ;;
esac
status=0
# bench-host asserts (refusal, cleanup, the module restored): its verdict counts.
[ "$scenario" = bench-host ] && [ "$rc" != 0 ] && { echo "bench: scenario bench-host failed" >&2; status=1; }
log=$work/lab/serial.log
for b in $backends; do
	# Not through a pipe into grep -q (SIGPIPE under pipefail).
	if ! tr -d '\r' < "$log" 2>/dev/null | grep -ac "XNB-METRIC bench b=$b " >/dev/null; then
		echo "bench: no figures of $b" >&2
		status=1
	fi
done
# info.env values with spaces are quoted for the shell; the helper reads raw.
sed -i 's/="\(.*\)"$/=\1/' "$info"

out=$results/$stamp
# A full run into bench/results is the latest: the README's bench section
# (between its markers) becomes a short summary pointing at it.  A run of
# some rows only (BENCH_ROWS) is not.
readme=()
[ "$QUICK" = 0 ] && [ -z "${BENCH_RESULTS:-}" ] && [ -z "${BENCH_ROWS:-}" ] &&
	[ "$scenario" = bench-full ] && readme=(--readme "$top/README.md")
if ! python3 "$top/bench/aggregate.py" --info "$info" --workdir "$work" --out "$out" \
		"${readme[@]}" "$log"; then
	echo "bench: aggregation failed" >&2
	exit 1
fi
[ -s "$out.md" ] && [ -s "$out.csv" ] || { echo "bench: no results written" >&2; exit 1; }
[ -s "$out.png" ] || echo "bench: no plot (is gnuplot installed?)" >&2
echo "bench: results in $out.md, $out.csv${out:+, $out.png}; lab log in $work"
exit $status
