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
