# SPDX-License-Identifier: GPL-2.0
#
# The attach/detach soak (tests/lab/scenarios/soak.sh), -included by the
# top-level Makefile after lab.mk (lab-images, lab-warnmod, lab-module):
#
#   make soak [NETBACK=ours|stock] [SOAK_CYCLES=1000] [SOAK_RECREATE=50]
#
# One lab boot, one scenario.  Under TCG a cycle costs about 10 s and a
# guest re-creation about 40 s more, so the whole-run budget (LAB_TIMEOUT,
# respected when set) follows SOAK_CYCLES.  Prints one line per counter
# (before/after) and the counters' "N passed, N failed"; exits non-zero on
# a failed counter, a failed cycle, a kernel/Xen splat or a failed boot.
# Not part of `make check`: 1000 cycles take hours.

SOAK_CYCLES ?= 1000
SOAK_RECREATE ?= 50

.PHONY: soak

soak: lab-images lab-warnmod lab-module
	@t=$${LAB_TIMEOUT:-$$((600 + $(SOAK_CYCLES) * 20 + $(SOAK_CYCLES) / $(SOAK_RECREATE) * 60))}; \
	rc=0; r=$${SOAK_RESULTS:-$(CURDIR)/build/lab/$$(date +%Y%m%d-%H%M%S)-soak-$(NETBACK)}; \
	LAB_CACHE=$(LAB_CACHE) NETBACK=$(NETBACK) XNB_PARAMS="$(XNB_PARAMS)" \
	SCENARIOS=soak LAB_RESULTS=$$r \
	SOAK_CYCLES=$(SOAK_CYCLES) SOAK_RECREATE=$(SOAK_RECREATE) \
	LAB_SCENARIO_TIMEOUT=$${LAB_SCENARIO_TIMEOUT:-$$((t - 150))} \
	LAB_TIMEOUT=$$t tests/lab/host/lab-run.sh || rc=1; \
	s=$$r/serial.log; [ -f $$s ] || s=/dev/null; \
	echo "soak: counters (dom0 and Xen, no guest, before and after the cycles):"; \
	tr -d '\r' < $$s | grep -aoE 'XNB-SOAK [a-z_]+ (before|PASS|FAIL).*' | sed 's/^XNB-SOAK /  /'; \
	tr -d '\r' < $$s | grep -ao 'XNB-METRIC soak .*' | sed 's/^XNB-METRIC /  /'; \
	res=$$(tr -d '\r' < $$s | grep -ao 'XNB-SOAK [0-9]* passed, [0-9]* failed' | tail -n1); \
	[ -n "$$res" ] || { echo "soak: no counter verdicts in $$s"; res="XNB-SOAK 0 passed, 1 failed"; rc=1; }; \
	echo "$${res#XNB-SOAK }"; \
	[ $$rc -eq 0 ]
