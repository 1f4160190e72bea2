# SPDX-License-Identifier: GPL-2.0
#
# Top-level entry points.  `make demo` and `make check` are the two the
# README names; the rest are their building blocks.

LAB_CACHE ?= /var/cache/xnb-lab
HOST_KDIR := /lib/modules/$(shell uname -r)/build
# Build against the running kernel where its headers exist, else against
# the headers the lab fetched (same ABI as the lab's dom0 kernel).
KDIR ?= $(if $(wildcard $(HOST_KDIR)/Makefile),$(HOST_KDIR),$(LAB_CACHE)/kdir)

MODULE := drivers/net/xen-netback/xen-netback.ko

.PHONY: all modules clean install

all: modules

modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

install: modules
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules_install

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean

# Userspace tests of the pure code (unit tests, fuzzers).
-include tests/tests.mk

# ---------------------------------------------------------------------------
# Lab: Xen + dom0 + PV guests under QEMU (TCG).  See tests/lab/README.md.
#   make lab NETBACK=ours|stock XNB_PARAMS="..." SCENARIOS="basic hotplug"
# The lab's kernel is Debian's, so modules for it are built against the
# fetched headers ($(LAB_CACHE)/kdir), whatever the host runs.
NETBACK ?= ours
XNB_PARAMS ?=
SCENARIOS ?=
LAB_KDIR := $(LAB_CACHE)/kdir
LAB_ENV = LAB_CACHE=$(LAB_CACHE) NETBACK=$(NETBACK) XNB_PARAMS="$(XNB_PARAMS)" SCENARIOS="$(SCENARIOS)"

.PHONY: lab-fetch lab-images lab-warnmod lab-module lab lab-shell

lab-fetch:
	LAB_CACHE=$(LAB_CACHE) scripts/lab-fetch.sh

lab-images: lab-fetch
	LAB_CACHE=$(LAB_CACHE) scripts/lab-build.sh

# Self-test module for SCENARIOS=selftest-warn (tiny; always built).
lab-warnmod: lab-fetch
	$(MAKE) -C $(LAB_KDIR) M=$(CURDIR)/tests/lab/warnmod modules

lab-module: lab-fetch
	$(if $(filter ours,$(NETBACK)),$(MAKE) -C $(LAB_KDIR) M=$(CURDIR) modules,@true)

lab: lab-images lab-warnmod lab-module
	$(LAB_ENV) scripts/lab-run.sh

lab-shell: lab-images lab-warnmod lab-module
	$(LAB_ENV) scripts/lab-run.sh --shell

# ---------------------------------------------------------------------------
# The README's two commands.
-include tests/hostile/hostile.mk
-include bench/bench.mk

# Lab scenarios `make check` runs: everything against our module, and the
# scenarios that test plain netback behaviour against Debian's as reference.
CHECK_OURS ?= hotplug teardown matrix-1-kthread matrix-2-kthread \
	      matrix-1-tasklet matrix-2-tasklet multiqueue attach3 jumbo \
	      rate worker-group destroy-busy reload stress saverestore guest2guest
CHECK_STOCK ?= basic hotplug teardown
export CHECK_OURS CHECK_STOCK

.PHONY: check demo

check:
	scripts/check.sh

# Three guests one after another: more than the default scenario budget
# on a loaded host.
demo:
	$(MAKE) lab NETBACK=ours SCENARIOS=demo LAB_SCENARIO_TIMEOUT=1200
