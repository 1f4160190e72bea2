# SPDX-License-Identifier: GPL-2.0
#
# The vif lifecycle soak (tests/lab/scenarios/soak.sh), -included by the
# top-level Makefile after lab.mk (lab-images, lab-warnmod, lab-module):
#
#   make soak [NETBACK=ours|stock] [SOAK_VIFS=1000] [SOAK_RECREATE=200]
#             [SOAK_VIFS_PER_GUEST=8] [SOAK_TCP_EVERY=1]
#             [SOAK_HOTPLUG=lean|vif-bridge] [SOAK_XL_JOBS=4]
#
# One lab boot, one scenario.  The unit is the vif lifecycle (hot attach,
# connect, traffic, teardown): 2 x SOAK_VIFS_PER_GUEST of them per cycle,
# all at once.  Under TCG budget 6 s a lifecycle (10 with vif-bridge, whose
# bash costs seconds a vif) and 90 s a guest re-creation, room for a host
# several times slower (1.35 s and 16 s measured at 8 vifs a guest, 3.35 s
# and 34 s at 4); LAB_TIMEOUT, when set, wins.  Prints one line per
# counter (before/after), the XNB-METRIC soak figures and the counters'
# "N passed, N failed"; exits non-zero on a failed counter, a failed
# cycle, a kernel/Xen splat or a failed boot.  Not part of `make check`.

SOAK_VIFS ?= 1000
SOAK_RECREATE ?= 200
SOAK_VIFS_PER_GUEST ?= 8
SOAK_TCP_EVERY ?= 1
SOAK_HOTPLUG ?= lean
SOAK_XL_JOBS ?= 4

.PHONY: soak

# SOAK_CYCLES (cycles of one vif) was the unit before SOAK_VIFS.
soak: lab-images lab-warnmod lab-module
	@if [ -n "$(SOAK_CYCLES)" ]; then \
		echo "soak: SOAK_CYCLES is gone: the soak counts vif lifecycles, SOAK_VIFS" \
			"(2 x SOAK_VIFS_PER_GUEST a cycle); SOAK_RECREATE counts them too"; exit 2; \
	fi; \
	p=6; [ "$(SOAK_HOTPLUG)" = vif-bridge ] && p=10; \
	g=$(SOAK_RECREATE); [ "$$g" -ge 1 ] 2>/dev/null || g=1; \
	t=$${LAB_TIMEOUT:-$$((600 + $(SOAK_VIFS) * p + $(SOAK_VIFS) / g * 90))}; \
	rc=0; r=$${SOAK_RESULTS:-$(CURDIR)/build/lab/$$(date +%Y%m%d-%H%M%S)-soak-$(NETBACK)}; \
	LAB_CACHE=$(LAB_CACHE) NETBACK=$(NETBACK) XNB_PARAMS="$(XNB_PARAMS)" \
	SCENARIOS=soak LAB_RESULTS=$$r \
	SOAK_VIFS=$(SOAK_VIFS) SOAK_RECREATE=$(SOAK_RECREATE) \
	SOAK_VIFS_PER_GUEST=$(SOAK_VIFS_PER_GUEST) SOAK_TCP_EVERY=$(SOAK_TCP_EVERY) \
	SOAK_HOTPLUG=$(SOAK_HOTPLUG) SOAK_XL_JOBS=$(SOAK_XL_JOBS) \
	LAB_SCENARIO_TIMEOUT=$${LAB_SCENARIO_TIMEOUT:-$$((t - 150))} \
	LAB_TIMEOUT=$$t tests/lab/host/lab-run.sh || rc=1; \
	s=$$r/serial.log; [ -f $$s ] || s=/dev/null; \
	echo "soak: counters (dom0 and Xen, no guest, before and after the lifecycles):"; \
	tr -d '\r' < $$s | grep -aoE 'XNB-SOAK [a-z_]+ (before|PASS|FAIL).*' | sed 's/^XNB-SOAK /  /'; \
	tr -d '\r' < $$s | grep -ao 'XNB-METRIC soak .*' | sed 's/^XNB-METRIC /  /'; \
	res=$$(tr -d '\r' < $$s | grep -ao 'XNB-SOAK [0-9]* passed, [0-9]* failed' | tail -n1); \
	[ -n "$$res" ] || { echo "soak: no counter verdicts in $$s"; res="XNB-SOAK 0 passed, 1 failed"; rc=1; }; \
	echo "$${res#XNB-SOAK }"; \
	[ $$rc -eq 0 ]
