# SPDX-License-Identifier: GPL-2.0
#
# The hostile-frontend campaign (tests/hostile/*.c, run inside a lab
# guest against the backend in dom0; see tests/lab/scenarios/hostile.sh).
#
#   make hostile [NETBACK=ours|stock] [HOSTILE_COUNT=100000] [HOSTILE_SEED=1]
#                [HOSTILE_CASES="1 2 ..."] [HOSTILE_FULL=1]
#
# HOSTILE_FULL=1: the xenstore floods of cases 35, 36 and 39 at the
# issue's counts (10,000 state writes, 200 bad connects, 100,000 key
# writes) instead of the lab's scaled-down ones.
#
# The program is linked statically against the host's libxen-dev 4.17
# (libxenstore, libxengnttab, libxenevtchn, libxentoolcore, libxentoollog),
# so the guest needs no shared libraries; the guest gets the program, the
# xen-gntalloc/xen-evtchn modules of the lab kernel and a guest-init.d
# script that loads them, via LAB_EXTRA_GUEST_DIR.

HOSTILE_OUT := $(CURDIR)/build/hostile
HOSTILE_BIN := $(HOSTILE_OUT)/hostile
HOSTILE_GUEST := $(HOSTILE_OUT)/guest
HOSTILE_SRC := $(wildcard $(CURDIR)/tests/hostile/*.c)
HOSTILE_HDR := $(wildcard $(CURDIR)/tests/hostile/*.h) \
	       $(CURDIR)/tests/common/rss_key.h
HOSTILE_COUNT ?= 100000
HOSTILE_SEED ?= 1
HOSTILE_CASES ?=
HOSTILE_FULL ?= 0
HOSTILE_CC ?= gcc
HOSTILE_LIBS := -lxenstore -lxengnttab -lxenevtchn -lxentoolcore \
		-lxentoollog -lpthread
LAB_CACHE ?= /var/cache/xnb-lab

.PHONY: hostile hostile-bin hostile-guest hostile-deps

# libxen-dev: the headers and static libraries; gcc to build.
hostile-deps:
	@$(CURDIR)/scripts/need.sh gcc libxen-dev

hostile-bin: $(HOSTILE_BIN)

$(HOSTILE_BIN): $(HOSTILE_SRC) $(HOSTILE_HDR) | hostile-deps
	@mkdir -p $(HOSTILE_OUT)
	$(HOSTILE_CC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -static -o $@ \
		$(HOSTILE_SRC) $(HOSTILE_LIBS)

# Guest extras: the program, the two modules, a boot script, a config.
hostile-guest: $(HOSTILE_BIN) lab-fetch
	@set -e; . $(LAB_CACHE)/lab.env; g=$(HOSTILE_GUEST); rm -rf $$g; \
	mkdir -p $$g/bin $$g/etc/guest-init.d $$g/lib/modules/$$LAB_KVER/hostile; \
	cp $(HOSTILE_BIN) $$g/bin/hostile; \
	for m in xen-gntalloc xen-evtchn; do \
		cp $$(find $$LAB_KROOT/lib/modules/$$LAB_KVER -name $$m.ko) \
			$$g/lib/modules/$$LAB_KVER/hostile/; \
	done; \
	printf '%s\n' '#!/bin/sh' \
		'# hostile campaign: gntalloc and evtchn devices for /bin/hostile' \
		'for m in /lib/modules/*/hostile/*.ko; do insmod "$$m" 2>/dev/null; done' \
		> $$g/etc/guest-init.d/50-hostile; \
	chmod +x $$g/etc/guest-init.d/50-hostile; \
	printf 'HOSTILE_COUNT=%s\nHOSTILE_SEED=%s\nHOSTILE_CASES="%s"\nHOSTILE_FULL=%s\n' \
		'$(HOSTILE_COUNT)' '$(HOSTILE_SEED)' '$(HOSTILE_CASES)' \
		'$(HOSTILE_FULL)' > $$g/etc/hostile.conf

# One boot, one scenario: all cases on one vif, then the random run.
# LAB_TIMEOUT (whole boot) is respected when set (scripts/check.sh gives
# the scenario 1650 s);
# the scenario gets it minus the boot/poweroff margin and budgets itself
# so that it still prints its verdicts.  The last line is the cases'
# "N passed, N failed"; any failure (or a failed boot) exits non-zero.
hostile: hostile-guest lab-images lab-warnmod lab-module
	@t=$${LAB_TIMEOUT:-$$((1200 + $(HOSTILE_COUNT) / 200))}; rc=0; \
	r=$${HOSTILE_RESULTS:-$(CURDIR)/build/lab/$$(date +%Y%m%d-%H%M%S)-hostile-$(NETBACK)}; \
	LAB_CACHE=$(LAB_CACHE) NETBACK=$(NETBACK) XNB_PARAMS="$(XNB_PARAMS)" \
	SCENARIOS=hostile LAB_EXTRA_GUEST_DIR=$(HOSTILE_GUEST) \
	LAB_RESULTS=$$r \
	LAB_SCENARIO_TIMEOUT=$${LAB_SCENARIO_TIMEOUT:-$$((t - 150))} \
	LAB_TIMEOUT=$$t tests/lab/host/lab-run.sh || rc=1; \
	s=$$r/serial.log; [ -f $$s ] || s=/dev/null; \
	p=$$(tr -d '\r' < $$s | grep -ac 'XNB-CASE [^ ]* PASS'); \
	f=$$(tr -d '\r' < $$s | grep -ac 'XNB-CASE [^ ]* FAIL'); \
	[ $$((p + f)) -gt 0 ] || { echo "hostile: no case verdicts in $$s"; f=1; }; \
	tr -d '\r' < $$s | grep -ao 'XNB-CASE [^ ]* FAIL.*' | sed 's/^XNB-CASE /FAIL case /' || true; \
	echo "$$p passed, $$f failed"; \
	[ $$rc -eq 0 ] && [ $$f -eq 0 ]
