#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh BIN...: run each cmocka binary of tests/unit under the sanitizers
# and close with one "N passed, N failed" line over all their cases, the
# line make check counts.  A binary that dies before cmocka's summary (a
# sanitizer report, a crash) counts as one failed case more.
set -uo pipefail

export ASAN_OPTIONS=abort_on_error=1:detect_leaks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
pass=0 fail=0 rc=0
for t; do
	echo "unit: $t"
	out=$("$t" 2>&1)
	st=$?
	printf '%s\n' "$out"
	p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -n1)
	f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -n1)
	pass=$((pass + ${p:-0})) fail=$((fail + ${f:-0}))
	if [ "$st" -ne 0 ]; then
		rc=1
		[ -n "$f" ] || fail=$((fail + 1))
	fi
done
echo "$pass passed, $fail failed"
exit $rc
