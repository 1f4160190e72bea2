# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# bench-full: the measuring side of `make bench` (bench/bench.sh runs it
# in one boot and aggregates).  For each repetition: the veth ceiling,
# then a cycle of every configuration of the set BENCH_SET (default full:
# our default configuration and stock; wide: all of ours and stock;
# quick) in tests/lab/bench-lib.sh, the module switched between cycles and
# the order reversed every other repetition.  Prints XNB-METRIC bench
# lines, asserts nothing.  Knobs: bench/README.md.
. /lab/xnb.sh
. /lab/bench-lib.sh
bench_run "${BENCH_SET:-full}" alt
