# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# bench-profile: where the CPU goes under load: perf in dom0 (needs
# LAB_PERF=1), xentop's per-domain CPU and ours' group counters, for each
# "profile" configuration (tests/lab/bench-lib.sh) and each load of
# BENCH_PROFILE (default: TCP both ways with 1 guest and with
# BENCH_GUESTS, UDP 64 B from one guest, 64 B floods of all guests both
# ways), as bench-prof lines.  No metrics, no assertions:
#   LAB_PERF=1 make lab SCENARIOS=bench-profile [NETBACK=stock] \
#       [BENCH_PROFILE="floodtx floodrx/2 tx/1"]
. /lab/xnb.sh
. /lab/bench-lib.sh
[ -x /lab/perf/perf ] || lab_skip "no perf in dom0 (LAB_PERF=1)"
bench_profile_run
