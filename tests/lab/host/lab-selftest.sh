#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The lab's own self-test, a `make check` stage: boot the lab with a module
# that WARNs at load (tests/lab/warnmod, scenario selftest-warn) and pass
# only if the run FAILS and says why.  A lab that let a kernel warning
# through would make every green scenario meaningless.
set -uo pipefail

top=$(cd "$(dirname "$0")/../../.." && pwd)
out=$top/build/lab-selftest
rm -rf "$out"
mkdir -p "$out"

make -C "$top" --no-print-directory lab NETBACK=stock SCENARIOS=selftest-warn \
	LAB_TIMEOUT="${LAB_TIMEOUT:-600}" LAB_RESULTS="$out/run" 2>&1 | tee "$out/lab.out"
rc=${PIPESTATUS[0]}

# The verdict must name the warning, not just any failure (a dom0 that
# did not boot fails the run too, and proves nothing).
if [ "$rc" -ne 0 ] &&
   grep -aq '^FAIL selftest-warn .*kernel log: ' "$out/run/summary.txt" 2>/dev/null; then
	echo "lab-selftest: the deliberate WARN failed the run, as it must"
	echo "1 passed, 0 failed"
	exit 0
fi
echo "lab-selftest: the lab did not fail on a module that WARNs (lab exit $rc)"
echo "0 passed, 1 failed"
exit 1
