# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# bench-quick: `make bench QUICK=1` (run by `make check` so the harness
# cannot rot): bench-full with one repetition, 2 s iperf runs, 2 guests,
# the 1/16-vif phase in the first configuration only, and the "quick"
# configurations (the default one and its opposite, groups=1 with
# tasklets).  A smoke test, not a measurement.
. /lab/xnb.sh
. /lab/bench-lib.sh
bench_run quick
