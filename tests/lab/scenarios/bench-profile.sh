# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# bench-profile: where the CPU goes under TCP load: perf in dom0 (needs
# LAB_PERF=1) and xentop's per-domain CPU, for each "profile"
# configuration (tests/lab/bench-lib.sh), TCP both ways with 1 guest and
# with BENCH_GUESTS (bench-prof lines).  No metrics, no assertions:
#   LAB_PERF=1 make lab SCENARIOS=bench-profile [NETBACK=stock]
. /lab/xnb.sh
. /lab/bench-lib.sh
[ -x /lab/perf/perf ] || lab_skip "no perf in dom0 (LAB_PERF=1)"
bench_profile_run
