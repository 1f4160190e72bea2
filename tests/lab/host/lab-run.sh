#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Lab step 3: boot Xen + dom0 in QEMU (TCG) and run lab scenarios in dom0.
#
#   tests/lab/host/lab-run.sh           run $SCENARIOS, report, exit 0 only if all pass
#   tests/lab/host/lab-run.sh --shell   interactive dom0 shell on this terminal
#
# Environment: NETBACK=ours|stock  XNB_PARAMS="module params"
#   SCENARIOS="basic hotplug"  (default: tests/lab/default.list)
#   LAB_TIMEOUT (whole boot, s)  LAB_SCENARIO_TIMEOUT (each scenario, s)
#   LAB_SCENARIO_TIMEOUTS="hostile=1350 ..." (those scenarios' own, s)
#   LAB_RESULTS (results dir)  LAB_EXTRA_GUEST_DIR (files added to guests)
#   LAB_EXTRA_GUEST_SCENARIOS="hostile" (only these scenarios' guests get them)
#   LAB_DOM0_EXTRA_DIR (files added to dom0's root, e.g. the deb scenario's
#   apt repository)
#   LAB_PERF=1 (the host's perf in dom0 as /lab/perf/perf)
#
# The only thing built here is a small cpio with this run's module, the
# scripts that run in dom0 (tests/lab/*.sh and scenarios/, not this
# host/ directory; the admin tool tools/xnbctl/xnbctl and its hook; the bench's
# scripts, bench/*.sh and aggregate.py) and a config,
# appended to the cached dom0 initramfs
# (the kernel unpacks concatenated cpio archives in order).  Results come
# back on the serial console as "XNB-RESULT <scenario> PASS|FAIL" lines.
set -euo pipefail
# One compound command: bash parses it whole before running, so editing
# this file while a (long) run is in progress cannot derail that run.
{

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
# shellcheck source=tests/lab/host/lab-env.sh
. "$(dirname "$0")/lab-env.sh"
NETBACK=${NETBACK:-ours}
XNB_PARAMS=${XNB_PARAMS:-}
LAB_SCENARIO_TIMEOUT=${LAB_SCENARIO_TIMEOUT:-400}
MODULE=$top/drivers/net/xen-netback/xen-netback.ko
WARNMOD=$top/tests/lab/warnmod/xnb-warnmod.ko
IRQPRINTK=$top/tests/lab/warnmod/xnb-irqprintk.ko
mode=run
[ "${1:-}" = --shell ] && mode=shell

[ -r "$LAB_CACHE/images.env" ] || { echo "lab-run: no images; run 'make lab-images'" >&2; exit 2; }
# shellcheck source=/dev/null
. "$LAB_CACHE/images.env"

if [ -z "${SCENARIOS:-}" ]; then
	SCENARIOS=$(sed -e 's/#.*//' "$top/tests/lab/default.list" | xargs)
fi
for s in $SCENARIOS; do
	[ -f "$top/tests/lab/scenarios/$s.sh" ] || { echo "lab-run: no scenario $s" >&2; exit 2; }
done
case $NETBACK in
ours) [ -f "$MODULE" ] || { echo "lab-run: $MODULE not built (make modules)" >&2; exit 2; } ;;
stock) ;;
*) echo "lab-run: NETBACK must be ours or stock" >&2; exit 2 ;;
esac
# Whole-run budget: boot plus every scenario's own budget, capped so that
# a wedged dom0 costs at most this much CI time.
n=$(echo $SCENARIOS | wc -w)
LAB_TIMEOUT=${LAB_TIMEOUT:-$((240 + n * 420))}

results=${LAB_RESULTS:-$top/build/lab/$(date +%Y%m%d-%H%M%S)-$NETBACK}
mkdir -p "$results"
serial=$results/serial.log
# A results directory used before must not show its last run as this one.
rm -f "$serial" "$results/serial.boot1.log" "$results/summary.txt"
work=$(mktemp -d /tmp/xnb-lab-run.XXXXXX)
qpid=
cleanup() {
	[ -n "$qpid" ] && kill "$qpid" 2>/dev/null && wait "$qpid" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
# Turn signals into a normal exit so the EXIT trap always stops QEMU.
trap 'exit 143' TERM INT HUP

# --- per-run cpio -------------------------------------------------------------
mkdir -p "$work/root/lab/scenarios"
cp "$top"/tests/lab/*.sh "$work/root/lab/"
cp "$top"/tests/lab/scenarios/*.sh "$work/root/lab/scenarios/"
# The admin tool, as /lab/xnbctl, and its vif-post.d hook (scenario
# xnbctl); make install's script, as /lab/install.sh (scenario
# install-enforced).
cp "$top/tools/xnbctl/xnbctl" "$top/tools/xnbctl/xen-netback-wg-pins.hook" \
	"$top/scripts/install.sh" "$work/root/lab/"
# The bench's scripts, as /lab/bench (scenario bench-host runs
# bench-host.sh from them as on a real host).
mkdir -p "$work/root/lab/bench"
cp "$top"/bench/*.sh "$top/bench/aggregate.py" "$work/root/lab/bench/"
[ "$NETBACK" = ours ] && cp "$MODULE" "$work/root/lab/xen-netback.ko"
[ -f "$WARNMOD" ] && cp "$WARNMOD" "$work/root/lab/"
[ -f "$IRQPRINTK" ] && cp "$IRQPRINTK" "$work/root/lab/"
if [ -n "${LAB_EXTRA_GUEST_DIR:-}" ]; then
	(cd "$LAB_EXTRA_GUEST_DIR" && find . -mindepth 1 | cpio -o -H newc -R 0:0 --quiet) |
		gzip > "$work/root/lab/guest-extra.cpio.gz"
fi
# LAB_PERF=1: the host's perf (Debian's linux-perf, same release as dom0)
# and the libraries it needs that dom0 lacks, for profiling inside dom0.
if [ "${LAB_PERF:-0}" = 1 ]; then
	perf=$(command -v perf) || { echo "lab-run: LAB_PERF=1 needs linux-perf on the host" >&2; exit 2; }
	mkdir -p "$work/root/lab/perf/lib"
	cp "$perf" "$work/root/lab/perf/"
	ldd "$perf" | awk '$3 ~ /^\// && $1 !~ /^(libc|libm|ld-linux)/ { print $3 }' |
		xargs -r cp -L -t "$work/root/lab/perf/lib/"
fi
cat > "$work/root/lab/config" <<CFG
MODE=$mode
NETBACK=$NETBACK
XNB_PARAMS="$XNB_PARAMS"
SCENARIOS="$SCENARIOS"
LAB_SCENARIO_TIMEOUT=$LAB_SCENARIO_TIMEOUT
LAB_SCENARIO_TIMEOUTS="${LAB_SCENARIO_TIMEOUTS:-}"
LAB_EXTRA_GUEST_SCENARIOS="${LAB_EXTRA_GUEST_SCENARIOS:-}"
CFG
# Bench knobs (bench/README.md) and the rate, soak, memsqueeze and
# migrate scenarios' knobs (RATE_*, SOAK_*, MEMSQUEEZE_*, MIGRATE_*)
# reach the scenario as they are.
for v in $(compgen -e | grep -E '^(BENCH|RATE|SOAK|MEMSQUEEZE|MIGRATE)_' || true); do
	printf '%s=%q\n' "$v" "${!v}" >> "$work/root/lab/config"
done
(cd "$work/root" && find . -mindepth 1 | cpio -o -H newc -R 0:0 --quiet) | gzip > "$work/run.cpio.gz"
extra=()
if [ -n "${LAB_DOM0_EXTRA_DIR:-}" ]; then
	# Stored, not compressed: mostly .debs, and TCG unpacks slowly.
	(cd "$LAB_DOM0_EXTRA_DIR" && find . -mindepth 1 | cpio -o -H newc -R 0:0 --quiet) > "$work/extra.cpio"
	extra=("$work/extra.cpio")
fi
# The kernel takes an uncompressed cpio that follows a compressed one
# only at a 4-byte aligned offset and skips the zeros before it, so pad.
cat "$LAB_DOM0_INITRD" "$work/run.cpio.gz" > "$work/initrd"
truncate -s %4 "$work/initrd"
[ ${#extra[@]} -eq 0 ] || cat "${extra[@]}" >> "$work/initrd"

# --- boot ---------------------------------------------------------------------
# -cpu max crashes the PV dom0 under TCG; qemu64+svm boots.
# Big log buffers: the splat check reads whole scenarios back from them.
xen_args="dom0_mem=2048M,max:2048M dom0_max_vcpus=2 console=com1 com1=115200,8n1 loglvl=all guest_loglvl=all conring_size=1M"
dom0_args="console=hvc0 earlyprintk=xen log_buf_len=8M"
# shellcheck disable=SC2054 # commas inside QEMU's option values
qemu=(qemu-system-x86_64 -accel tcg,thread=multi -cpu qemu64,+svm -m 4096 -smp 2
	-nic none -display none -no-reboot
	-kernel "$LAB_XEN" -append "$xen_args"
	-initrd "$LAB_DOM0_KERNEL $dom0_args,$work/initrd")

if [ $mode = shell ]; then
	echo "lab-shell: Xen + dom0 on this terminal; 'exit' powers off, Ctrl-a x quits QEMU" >&2
	"${qemu[@]}" -serial mon:stdio
	exit 0
fi

echo "lab: NETBACK=$NETBACK XNB_PARAMS='$XNB_PARAMS' SCENARIOS='$SCENARIOS' timeout ${LAB_TIMEOUT}s"
echo "lab: results in $results"
start=$(date +%s)
boot=1
while :; do
	"${qemu[@]}" -serial "file:$serial" -monitor none > "$results/qemu.log" 2>&1 &
	qpid=$!
	# Follow the console: echo our marker lines with host-side elapsed
	# time, stop when dom0 says it is done, QEMU exits, or the budget is
	# spent.
	shown=0 state=timeout
	while :; do
		el=$(( $(date +%s) - start ))
		if [ -f "$serial" ]; then
			mapfile -t lines < <(tr -d '\r' < "$serial" | grep -aoE 'XNB-[A-Z]+( .*)?$' || true)
			for ((i = shown; i < ${#lines[@]}; i++)); do
				printf '[%4ds] %s\n' "$el" "${lines[i]}"
			done
			shown=${#lines[@]}
			if grep -aq 'XNB-DONE' "$serial"; then state="done"; break; fi
		fi
		kill -0 "$qpid" 2>/dev/null || { state=died; break; }
		[ "$el" -ge "$LAB_TIMEOUT" ] && break
		sleep 1
	done
	# Give dom0 a moment to power off cleanly, then make sure QEMU is gone.
	for _ in 1 2 3 4 5; do kill -0 "$qpid" 2>/dev/null || break; sleep 1; done
	kill "$qpid" 2>/dev/null || true
	wait "$qpid" 2>/dev/null || true
	qpid=
	# A dom0 that died before the runner started (no XNB-CONFIG) ran
	# nothing of ours: under TCG, trixie's kernel now and then takes a
	# stray int3 while it patches its own text during boot.  Boot once
	# more; the first console stays in serial.boot1.log.
	if [ $state = died ] && [ $boot = 1 ] && ! grep -aq 'XNB-CONFIG' "$serial"; then
		mv "$serial" "$results/serial.boot1.log"
		echo "lab: dom0 died while booting ($(tr -d '\r' < "$results/serial.boot1.log" |
			grep -aE -m1 'Oops|panic|BUG' | cut -c1-80)); booting again"
		boot=2
		continue
	fi
	break
done

# --- report -------------------------------------------------------------------
pass=0 fail=0 skip=0
# The report also goes to summary.txt next to the serial log.
say() { echo "$*" | tee -a "$results/summary.txt"; }
say "lab: ---- summary ($NETBACK, $(( $(date +%s) - start ))s) ----"
[ $boot = 1 ] || say "lab: booted twice: the first dom0 died before the runner (serial.boot1.log)"
for s in $SCENARIOS; do
	r=$(tr -d '\r' < "$serial" | grep -ao "XNB-RESULT $s \(PASS\|FAIL\|SKIP\).*" | tail -n1 || true)
	case $r in
	"XNB-RESULT $s SKIP"*) skip=$((skip + 1)); say "SKIP $s${r#XNB-RESULT $s SKIP}" ;;
	"XNB-RESULT $s PASS"*) pass=$((pass + 1)); say "PASS $s${r#XNB-RESULT $s PASS}" ;;
	"XNB-RESULT $s FAIL"*) fail=$((fail + 1)); say "FAIL $s${r#XNB-RESULT $s FAIL}" ;;
	*) fail=$((fail + 1)); say "FAIL $s (no result: $state)" ;;
	esac
done
tr -d '\r' < "$serial" | grep -ao 'XNB-METRIC .*' >> "$results/summary.txt" || true
if [ $state != "done" ]; then
	fail=$((fail + 1))
	say "FAIL run: dom0 $([ $state = died ] && echo 'died (QEMU exited early)' || echo "timed out after ${LAB_TIMEOUT}s")"
	tail -n 40 "$serial" | sed 's/^/  serial: /'
fi
say "$pass passed, $fail failed$([ $skip -eq 0 ] || echo ", $skip skipped")"
[ $fail -eq 0 ]
exit
}
