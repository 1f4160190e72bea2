# SPDX-License-Identifier: GPL-2.0
#
# The hostile-frontend campaign (tests/hostile/hostile.c, run inside a lab
# guest against the backend in dom0; see tests/lab/scenarios/hostile.sh).
#
#   make hostile [NETBACK=ours|stock] [HOSTILE_COUNT=100000] [HOSTILE_SEED=1]
#                [HOSTILE_CASES="1 2 ..."]
#
# The program is linked statically against the host's libxen-dev 4.17
# (libxenstore, libxengnttab, libxenevtchn, libxentoolcore, libxentoollog),
# so the guest needs no shared libraries; the guest gets the program, the
# xen-gntalloc/xen-evtchn modules of the lab kernel and a guest-init.d
# script that loads them, via LAB_EXTRA_GUEST_DIR.

HOSTILE_OUT := $(CURDIR)/build/hostile
HOSTILE_BIN := $(HOSTILE_OUT)/hostile
HOSTILE_GUEST := $(HOSTILE_OUT)/guest
HOSTILE_COUNT ?= 100000
HOSTILE_SEED ?= 1
HOSTILE_CASES ?=
HOSTILE_CC ?= gcc
HOSTILE_LIBS := -lxenstore -lxengnttab -lxenevtchn -lxentoolcore \
		-lxentoollog -lpthread
LAB_CACHE ?= /var/cache/xnb-lab

.PHONY: hostile hostile-bin hostile-guest

hostile-bin: $(HOSTILE_BIN)

$(HOSTILE_BIN): $(CURDIR)/tests/hostile/hostile.c
	@mkdir -p $(HOSTILE_OUT)
	$(HOSTILE_CC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -static -o $@ $< \
		$(HOSTILE_LIBS)

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
	printf 'HOSTILE_COUNT=%s\nHOSTILE_SEED=%s\nHOSTILE_CASES="%s"\n' \
		'$(HOSTILE_COUNT)' '$(HOSTILE_SEED)' '$(HOSTILE_CASES)' \
		> $$g/etc/hostile.conf

# One scenario with 28 attach/detach cycles and a random run: give it time.
hostile: hostile-guest lab-images lab-warnmod lab-module
	LAB_CACHE=$(LAB_CACHE) NETBACK=$(NETBACK) XNB_PARAMS="$(XNB_PARAMS)" \
	SCENARIOS=hostile LAB_EXTRA_GUEST_DIR=$(HOSTILE_GUEST) \
	LAB_SCENARIO_TIMEOUT=$${LAB_SCENARIO_TIMEOUT:-4800} \
	LAB_TIMEOUT=$${LAB_TIMEOUT:-5400} scripts/lab-run.sh
