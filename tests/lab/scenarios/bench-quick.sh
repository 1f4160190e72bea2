# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# bench-quick: make check's bench smoke (so the harness cannot rot), one
# per boot of make check, each with the boot's own backend: one
# repetition, 2 s iperf runs, 2 guests, the 1/16-vif phase in the first
# configuration only, and the "quick" configuration of that backend (for
# ours the default one).  A smoke test, not a measurement.  `make bench QUICK=1` runs the same set
# in one boot with ours and stock alternating (bench-full).
. /lab/xnb.sh
. /lab/bench-lib.sh
bench_run quick boot
