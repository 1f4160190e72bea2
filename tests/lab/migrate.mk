# SPDX-License-Identifier: GPL-2.0
#
# Live migration on one host (tests/lab/scenarios/migrate.sh), -included
# by the top-level Makefile after lab.mk (lab-images, lab-warnmod,
# lab-module):
#
#   make migrate [NETBACK=ours|stock] [MIGRATE_COUNT=10]
#
# One lab boot, one scenario: MIGRATE_COUNT `xl migrate g<N> localhost`
# of a 1-queue guest, then of a 2-queue guest, under TCP and a 20/s ping,
# then the soak's leak counters.  NETBACK=stock is the reference.  Under
# TCG a migration with its checks takes about a minute, so the whole-run
# budget (LAB_TIMEOUT, respected when set) follows MIGRATE_COUNT.  Prints
# each migration's figures (time, ping gap, TCP stall) and verdict, a
# summary per queue count, the counters, and "N passed, N failed"; exits
# non-zero on a failed migration or counter, a kernel/Xen splat or a
# failed boot.  Not in `make check`: the lab's Xen cannot migrate a PV
# guest (log-dirty is refused), and the scenario skips.

MIGRATE_COUNT ?= 10

.PHONY: migrate

migrate: lab-images lab-warnmod lab-module
	@t=$${LAB_TIMEOUT:-$$((600 + $(MIGRATE_COUNT) * 2 * 240))}; \
	rc=0; r=$${MIGRATE_RESULTS:-$(CURDIR)/build/lab/$$(date +%Y%m%d-%H%M%S)-migrate-$(NETBACK)}; \
	LAB_CACHE=$(LAB_CACHE) NETBACK=$(NETBACK) XNB_PARAMS="$(XNB_PARAMS)" \
	SCENARIOS=migrate LAB_RESULTS=$$r MIGRATE_COUNT=$(MIGRATE_COUNT) \
	LAB_SCENARIO_TIMEOUT=$${LAB_SCENARIO_TIMEOUT:-$$((t - 150))} \
	LAB_TIMEOUT=$$t tests/lab/host/lab-run.sh || rc=1; \
	s=$$r/serial.log; [ -f $$s ] || s=/dev/null; \
	echo "migrate: per migration (figures, verdict), per queue count, then the counters (no guest, before and after):"; \
	tr -d '\r' < $$s | grep -aoE 'XNB-(METRIC migrate(-summary)?|MIGRATE) .*' | \
		grep -avE '^XNB-MIGRATE [0-9]+ passed' | sed -E 's/^XNB-(METRIC|MIGRATE) /  /'; \
	res=$$(tr -d '\r' < $$s | grep -aoE 'XNB-MIGRATE [0-9]+ passed, [0-9]+ failed' | tail -n1); \
	[ -n "$$res" ] || { echo "migrate: no verdicts in $$s"; res="XNB-MIGRATE 0 passed, 1 failed"; rc=1; }; \
	echo "$${res#XNB-MIGRATE }"; \
	[ $$rc -eq 0 ]
