# SPDX-License-Identifier: GPL-2.0
#
# Benchmarks, -included by the top-level Makefile after
# tests/lab/lab.mk (lab-images and lab-module):
#   make bench            one boot, 5 repetitions of our default
#                         configuration and stock alternating, 10 s runs
#                         (about 40 minutes on an idle 2-core host)
#   make bench QUICK=1    1 repetition, 2 s runs: a smoke test of the harness
#   make bench-host       the same bench on a real Xen host, as root in its
#                         dom0 (bench/bench-host.sh; QUICK=1 likewise,
#                         XNB_YES=1 installs missing packages unasked)
#   make bench-unit       the bench's unit tests, no lab (seconds): the
#                         decoder of Xen's trace, bench/xentrace_count.py,
#                         on synthetic traces, and aggregate.py's target
#                         arithmetic (tests/bench/)
# Results: bench/results/<YYYY-MM-DD-HHMM>.{md,csv,png}; see bench/bench.sh.
# Targets are reported, never asserted.

QUICK ?= 0

.PHONY: bench bench-deps bench-host bench-unit

# python3 aggregates, gnuplot draws (the lab's own packages come with
# lab-fetch).
bench-deps:
	@$(CURDIR)/scripts/need.sh python3 gnuplot-nox

# Our module is always built (the bench compares it with stock).
bench: NETBACK = ours
bench: bench-deps lab-images lab-module
	QUICK=$(QUICK) LAB_CACHE=$(LAB_CACHE) bench/bench.sh

# No lab here: the host's own kernel, Xen and packages; bench-host.sh
# checks them and builds the module itself.
bench-host:
	QUICK=$(QUICK) bench/bench-host.sh

# Ends with "N passed, N failed" (make check's stage bench-unit).
bench-unit:
	@$(CURDIR)/scripts/need.sh python3
	python3 $(CURDIR)/tests/bench/run.py

# make shellcheck (tests/tests.mk) covers the bench's scripts too.
shellcheck: XNB_SHELL += $(wildcard $(CURDIR)/bench/*.sh)
