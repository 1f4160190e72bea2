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

# CHECK_STAGES="lab-boot-stock lab-stock ...": only those stages (for
# iterating; a lab stage needs its boot's stage too).
stage() {	# NAME COMMAND...
	local name=$1 rc line p f t0
	shift
	case " ${CHECK_STAGES:-$name} " in *" $name "*) ;; *) return 0 ;; esac
	t0=$(date +%s)
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
	echo "=== check: $name: exit $rc ($p passed, $f failed) in $(($(date +%s) - t0)) s"
}

# NETBACK=stock make check: only what tests Debian's module or the lab
# itself (the reference run); the stages about our driver are left out.
netback=${NETBACK:-ours}
case $netback in
ours|stock) ;;
*) echo "check: NETBACK must be ours or stock, not '$netback'" >&2; exit 2 ;;
esac
unset NETBACK
# Set per boot (below), never from outside.
unset CHECK_HOSTILE_COUNT

# CHECK_FULL=1 (make check-full): every scenario, the hostile campaign's
# full random run on Debian 12 and the campaign on Debian 13 too, the
# bench smoke; its boots get budgets to match.  `make check` is what fits
# CI's hour.
full=${CHECK_FULL:-0}
if [ "$full" = 1 ]; then
	CHECK_OURS=$CHECK_OURS_FULL
	budget_stock=1800 budget_ours=5400 budget_trixie=3600
	: "${CHECK_BENCH:=1}" "${CHECK_TRIXIE_HOSTILE:=1}"
	: "${CHECK_HOSTILE_COUNT_BOOKWORM:=100000}"
else
	budget_stock=900 budget_ours=3000 budget_trixie=1200
	: "${CHECK_BENCH:=0}" "${CHECK_TRIXIE_HOSTILE:=0}"
	: "${CHECK_HOSTILE_COUNT_BOOKWORM:=20000}"
fi

# Fast and first: every shell file passes shellcheck.
stage shellcheck make shellcheck
stage unit make unit
# The admin tool against a fake sysfs tree (tests/xnbctl/), seconds.
stage xnbctl make xnbctl-test
# make install and make uninstall (scripts/install.sh) against a fake root, seconds.
stage install make install-test
# The bench's unit tests (tests/bench/: the decoder of Xen's trace on
# synthetic traces, aggregate.py's target arithmetic), seconds.
stage bench-unit make bench-unit
# docs/admin.md's generated tables against docs/man/, the man pages against groff.
stage docs-check make docs-check
stage fuzz-smoke make fuzz-smoke
# checkpatch --strict; sparse and W=1 builds against 6.1 and 6.12.
stage lint make lint
stage build-matrix make build-matrix
# --- the lab -------------------------------------------------------------------
# One boot of Xen + dom0 under TCG costs 20 s (bookworm) to a minute
# (trixie) before the first scenario, and the make around it more: so a
# boot runs the scenarios of several stages, and each stage then reads its
# own verdicts back from that boot's results (build/check/<boot>/).  Three
# boots: bookworm with Debian's module, bookworm with ours, trixie with
# ours.  The boot itself is a stage too (one test): dom0 ran every
# scenario it was given, whatever their verdicts.

# lab_boot NAME DIST NETBACK BUDGET SCENARIOS: one lab run, results in
# $logs/NAME/ (also its exit status and wall time).  BUDGET caps the whole
# run so that a wedged dom0 cannot eat CI's 90 minutes; hostile,
# bench-quick and bench-host get their own scenario budgets, the others
# 600 s each.
lab_boot() {
	local name=$1 dist=$2 nb=$3 budget=$4 scen=$5 res=$logs/$1 t0 rc extra=()
	rm -rf "$res"
	mkdir -p "$res"
	t0=$(date +%s)
	case " $scen " in *" hostile "*)
		# The hostile guest's program and its kernel modules (those of
		# this flavour's kernel).
		make --no-print-directory LAB_DIST="$dist" hostile-guest \
			${CHECK_HOSTILE_COUNT:+HOSTILE_COUNT=$CHECK_HOSTILE_COUNT} ||
			{ echo "check: make hostile-guest failed"; echo "0 passed, 1 failed"; return 1; }
		extra=(LAB_EXTRA_GUEST_DIR="$top/build/hostile/guest"
		       LAB_EXTRA_GUEST_SCENARIOS=hostile) ;;
	esac
	env "${extra[@]}" LAB_TIMEOUT="$budget" LAB_SCENARIO_TIMEOUT=600 \
		LAB_SCENARIO_TIMEOUTS="hostile=1650 bench-quick=1380 bench-host=900" LAB_RESULTS="$res" \
		make --no-print-directory lab LAB_DIST="$dist" NETBACK="$nb" SCENARIOS="$scen"
	rc=$?
	echo "$rc" > "$res/rc"
	echo "$(($(date +%s) - t0))" > "$res/secs"
	echo "check: $name: $dist, $nb, $(cat "$res/secs") s (build and boot included), lab exit $rc"
	if [ -f "$res/summary.txt" ] && ! grep -aq '^FAIL run:' "$res/summary.txt"; then
		echo "1 passed, 0 failed"
		return 0
	fi
	echo "check: $name: dom0 did not run every scenario (see above)"
	echo "0 passed, 1 failed"
	return 1
}

# verdicts BOOT "SCENARIOS": those scenarios' lines of BOOT's summary.
verdicts() {
	local sum=$logs/$1/summary.txt s r p=0 f=0 k=0
	for s in $2; do
		r=$(grep -aE "^(PASS|FAIL|SKIP) $s( |\$)" "$sum" 2>/dev/null | tail -n1)
		[ -n "$r" ] || r="FAIL $s (no result: see the $1 stage)"
		echo "$r"
		case $r in
		FAIL*) f=$((f + 1)) ;;
		SKIP*) k=$((k + 1)) ;;
		*) p=$((p + 1)) ;;
		esac
	done
	echo "$p passed, $f failed$([ $k -eq 0 ] || echo ", $k skipped")"
	[ $f -eq 0 ]
}

# selftest_verdict BOOT: the lab must fail a run in which a module WARNs
# (tests/lab/warnmod, scenario selftest-warn), and say why: the verdict
# must name the warning, not just any failure.
selftest_verdict() {
	if [ "$(cat "$logs/$1/rc" 2>/dev/null)" != 0 ] &&
	   grep -aq '^FAIL selftest-warn .*kernel log: ' "$logs/$1/summary.txt" 2>/dev/null; then
		grep -a '^FAIL selftest-warn' "$logs/$1/summary.txt"
		echo "lab-selftest: the deliberate WARN failed the run, as it must"
		echo "1 passed, 0 failed"
		return 0
	fi
	grep -a 'selftest-warn' "$logs/$1/summary.txt" 2>/dev/null
	echo "lab-selftest: the lab did not fail on a module that WARNs"
	echo "0 passed, 1 failed"
	return 1
}

# hostile_verdict BOOT: one test per catalogue case (and the random run,
# the leak check), from the XNB-CASE lines; the scenario's own verdict
# counts once more when it failed for something else (a splat, a timeout).
hostile_verdict() {
	local ser=$logs/$1/serial.log p f n r
	[ -f "$ser" ] || ser=/dev/null
	p=$(tr -d '\r' < "$ser" | grep -ac 'XNB-CASE [^ ]* PASS')
	f=$(tr -d '\r' < "$ser" | grep -ac 'XNB-CASE [^ ]* FAIL')
	n=$((p + f))
	tr -d '\r' < "$ser" | grep -ao 'XNB-CASE [^ ]* FAIL.*' | sed 's/^XNB-CASE /FAIL case /'
	[ $n -gt 0 ] || { echo "hostile: no case verdicts in $ser"; f=1; }
	r=$(grep -a '^\(PASS\|FAIL\) hostile' "$logs/$1/summary.txt" 2>/dev/null)
	echo "${r:-FAIL hostile (no result)}"
	case $r in
	"PASS hostile"*) ;;
	"FAIL hostile hostile cases failed:"*) [ "$f" -gt 0 ] || f=1 ;;
	*) [ $n -eq 0 ] || f=$((f + 1)) ;;
	esac
	echo "$p passed, $f failed"
	[ "$f" -eq 0 ]
}

# bench_verdict OUT BOOT...: the bench-quick figures of these boots (the
# bench-quick scenario, run by each with its own backend), aggregated as
# `make bench QUICK=1` does into $BENCH_RESULTS/<stamp>-OUT.*; a smoke test
# of the harness: fails when a boot yielded no figure, its scenario
# failed, or the aggregation did.  Targets are reported, never asserted.
bench_verdict() {
	local out=$1 b nb ser f=0 work info stamp logs_=() dir
	shift
	stamp=$(date +%Y-%m-%d-%H%M)
	dir=${BENCH_RESULTS:-$top/build/bench-results}
	work=$top/build/bench/$stamp-$out
	info=$work/info.env
	mkdir -p "$work" "$dir"
	make -s bench-deps || f=$((f + 1))
	"$top/bench/bench-info.sh" 1 > "$info"
	for b; do
		ser=$logs/$b/serial.log
		nb=$(tr -d '\r' < "$ser" 2>/dev/null | sed -n "s/^XNB-CONFIG NETBACK=\([a-z]*\).*/\1/p" | head -n1)
		verdicts "$b" bench-quick | head -n1
		grep -aq '^PASS bench-quick' "$logs/$b/summary.txt" 2>/dev/null || f=$((f + 1))
		# Not through a pipe: grep -q stops at the first match, and under
		# pipefail the writer's SIGPIPE would fail the test.
		if ! grep -aq "XNB-METRIC bench b=${nb:-none} " "$ser" 2>/dev/null; then
			echo "bench-quick: the $b boot produced no figures"
			f=$((f + 1))
			continue
		fi
		echo "SECS_$nb=$(cat "$logs/$b/secs")"
		if grep -aq '^PASS bench-quick' "$logs/$b/summary.txt"; then
			echo "RC_$nb=completed"
		else
			echo "RC_$nb=FAILED ($(grep -a '^FAIL bench-quick' "$logs/$b/summary.txt" | cut -c1-80))"
		fi
		logs_+=("$ser")
	done >> "$info.tmp"
	grep -v '^\(SECS\|RC\)_' "$info.tmp"
	grep '^\(SECS\|RC\)_' "$info.tmp" >> "$info"
	rm -f "$info.tmp"
	if [ ${#logs_[@]} -gt 0 ] &&
	   python3 "$top/bench/aggregate.py" --info "$info" --workdir "$work" \
		--out "$dir/$stamp-$out" "${logs_[@]}" > "$work/aggregate.out" 2>&1 &&
	   [ -s "$dir/$stamp-$out.md" ] && [ -s "$dir/$stamp-$out.csv" ]; then
		echo "bench-quick: results in $dir/$stamp-$out.{md,csv}"
	else
		cat "$work/aggregate.out" 2>/dev/null
		echo "bench-quick: aggregation failed"
		f=$((f + 1))
	fi
	echo "$((f == 0 ? 1 : 0)) passed, $f failed"
	[ $f -eq 0 ]
}

# has WORD "LIST": WORD is in the list.
has() { case " $2 " in *" $1 "*) return 0 ;; esac; return 1; }

# CHECK_HOSTILE=0 leaves the hostile campaign (every catalogue case and a
# seeded random run) out of every boot when iterating locally;
# CHECK_BENCH=1 adds the bench smoke to make check (check-full has it);
# CHECK_DISTS="bookworm" leaves the trixie boot out.
hostile=hostile bench=bench-quick
[ "${CHECK_HOSTILE:-1}" = 1 ] || hostile=
[ "$CHECK_BENCH" = 1 ] || bench=
[ "$netback" = ours ] || bench=
dists=${CHECK_DISTS:-bookworm trixie}

if has bookworm "$dists"; then
	# Debian's module: the reference scenarios and last (its WARN stays
	# out of the others' logs) the lab's self-test.  Its bench figures
	# are `make bench`'s: the smoke below tests the harness on ours.
	stage lab-boot-stock lab_boot lab-boot-stock bookworm stock "$budget_stock" \
		"$CHECK_STOCK selftest-warn"
	stage lab-stock verdicts lab-boot-stock "$CHECK_STOCK"
	stage lab-selftest selftest_verdict lab-boot-stock
fi
if has bookworm "$dists" && [ "$netback" = ours ]; then
	CHECK_HOSTILE_COUNT=$CHECK_HOSTILE_COUNT_BOOKWORM
	stage lab-boot-ours lab_boot lab-boot-ours bookworm ours "$budget_ours" \
		"$CHECK_OURS $hostile $bench"
	unset CHECK_HOSTILE_COUNT
	stage lab-ours verdicts lab-boot-ours "$CHECK_OURS"
	[ -n "$hostile" ] && stage hostile hostile_verdict lab-boot-ours
	[ -n "$bench" ] && stage bench-quick bench_verdict bookworm lab-boot-ours
fi
# Debian 13 (Xen 4.20, Linux 6.12, the module built in the trixie build
# root): CHECK_TRIXIE in one boot.  The hostile campaign there (20
# minutes) is check-full's, or CHECK_TRIXIE_HOSTILE=1's, its random run
# CHECK_HOSTILE_COUNT_TRIXIE requests.  The bench smoke tests the
# harness, which the bookworm boot covers.
if has trixie "$dists" && [ "$netback" = ours ]; then
	th=
	[ "$CHECK_TRIXIE_HOSTILE" = 1 ] && th=$hostile
	CHECK_HOSTILE_COUNT=${CHECK_HOSTILE_COUNT_TRIXIE:-20000}
	stage lab-boot-trixie lab_boot lab-boot-trixie trixie ours "$budget_trixie" \
		"$CHECK_TRIXIE $th"
	unset CHECK_HOSTILE_COUNT
	stage lab-trixie verdicts lab-boot-trixie "$CHECK_TRIXIE"
	[ -n "$th" ] && stage hostile-trixie hostile_verdict lab-boot-trixie
fi
[ "$netback" = stock ] && echo "check: NETBACK=stock: the stages of our driver (lab-ours, hostile, bench-quick, trixie) not run"

# CI shows the end of the output: repeat each failed stage's reasons there.
for s in "${failed[@]}"; do
	echo "check: $s failed:"
	grep -aE '^(FAIL|lab: |check: |hostile: |bench-quick: )|timed out|[Ee]rror' \
		"$logs/$s.log" | tail -n 12 | sed 's/^/    /'
done
[ ${#failed[@]} -gt 0 ] && echo "check: failed stages: ${failed[*]}"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
