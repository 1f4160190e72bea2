# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# bench-full: the measuring side of `make bench` (scripts/bench.sh runs it
# once per backend and aggregates).  For each repetition: the veth
# ceiling, then every configuration of the "full" set (tests/lab/bench-lib.sh)
# in its own cycle.  Prints XNB-METRIC bench lines, asserts nothing.
# Knobs: bench/README.md.
. /lab/xnb.sh
. /lab/bench-lib.sh
bench_run full
