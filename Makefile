# SPDX-License-Identifier: GPL-2.0
#
# xen-netback with worker groups, built out of tree: build, install,
# package, test.  The README names two commands: `make demo` (the lab
# shows the module at work) and `make check` (every test stage).
#
#   build     make [modules] [KDIR=...], clean; modules-6.1, modules-6.12,
#             build-matrix, buildroot (the supported kernels)
#   install   make install, uninstall [INSTALL_MOD_PATH=...]
#   package   make deb, dkms-add, dkms-install, dkms-remove
#   test      make check, demo, lint, and from the files included below:
#               tests/tests.mk            unit, fuzz, fuzz-smoke, fuzz-ctrl,
#                                         fuzz-corpus, shellcheck
#               tests/lab/lab.mk          lab, lab-shell, lab-fetch,
#                                         lab-images, lab-module,
#                                         lab-warnmod, lab-debrepo
#               tests/lab/soak.mk         soak
#               tests/lab/xdp/xdp.mk      lab-xdp
#               tests/hostile/hostile.mk  hostile, hostile-guest
#               bench/bench.mk            bench
#
# scripts/ holds the tools of the whole project (check.sh, lint.sh,
# build-matrix.sh, buildroot.sh, deb.sh, need.sh); the lab's and the
# bench's own live with them (tests/lab/host/, bench/).

# ===========================================================================
# Build

HOST_KDIR := /lib/modules/$(shell uname -r)/build
# Build against the running kernel where its headers exist, else against
# the headers the lab fetched (LAB_KDIR, tests/lab/lab.mk: same ABI as
# the lab's dom0 kernel; the default cache's in a tree without tests/).
KDIR ?= $(if $(wildcard $(HOST_KDIR)/Makefile),$(HOST_KDIR),$(or $(LAB_KDIR),/var/cache/xnb-lab/kdir))

MODULE := drivers/net/xen-netback/xen-netback.ko

# MODULE_VERSION: `git describe` in a git checkout, else the VERSION file
# (DKMS and package builds have no .git).
XNB_VERSION := $(or $(if $(wildcard $(CURDIR)/.git),$(shell git -C $(CURDIR) describe --tags --always --dirty 2>/dev/null)),$(shell cat $(CURDIR)/VERSION 2>/dev/null),0.1)
KBUILD_ARGS = -C $(KDIR) M=$(CURDIR) XNB_VERSION=$(XNB_VERSION)

.PHONY: all modules clean

all: modules

modules:
	$(MAKE) $(KBUILD_ARGS) modules

clean:
	$(MAKE) $(KBUILD_ARGS) clean
	rm -rf build/6.1 build/6.12

# Supported kernels (xnb_compat.h).
#   make modules-6.1    W=1 against Debian 12's 6.1 (the lab's headers)
#   make modules-6.12   W=1 against Debian 13's 6.12, in a trixie chroot
#                       (scripts/buildroot.sh; first run: a few minutes)
#   make build-matrix   both; any warning fails
#   make buildroot      that chroot, created if missing
# They pick their kernels by version, whatever LAB_DIST says: 6.1 from
# the bookworm cache's headers (kdir-6.1 fetches them if missing), 6.12
# from the trixie build root, which lives in the bookworm cache too
# (BOOKWORM_CACHE and kdir-6.1: tests/lab/lab.mk).
.PHONY: modules-6.1 modules-6.12 build-matrix buildroot

modules-6.1: kdir-6.1
	XNB_VERSION=$(XNB_VERSION) LAB_CACHE=$(BOOKWORM_CACHE) scripts/build-matrix.sh 6.1

modules-6.12:
	XNB_VERSION=$(XNB_VERSION) LAB_CACHE=$(BOOKWORM_CACHE) scripts/build-matrix.sh 6.12

build-matrix: kdir-6.1
	XNB_VERSION=$(XNB_VERSION) LAB_CACHE=$(BOOKWORM_CACHE) scripts/build-matrix.sh 6.1 6.12

buildroot:
	LAB_CACHE=$(BOOKWORM_CACHE) scripts/buildroot.sh

# ===========================================================================
# Install

# The kernel release KDIR's headers are for (their UTS_RELEASE; Debian's
# kernel.release holds the upstream version instead): where `make install`
# puts the module.  INSTALL_MOD_PATH=/some/root installs into an image.
KVER ?= $(or $(shell sed -n 's/^\#define UTS_RELEASE "\(.*\)"/\1/p' $(KDIR)/include/generated/utsrelease.h 2>/dev/null),$(shell uname -r))
INSTALL_MOD_DIR ?= updates
MOD_DEST = $(INSTALL_MOD_PATH)/lib/modules/$(KVER)/$(INSTALL_MOD_DIR)
DEPMOD = depmod -a $(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH)) $(KVER)

.PHONY: install uninstall

# Into /lib/modules/$(KVER)/updates/, which depmod prefers to the
# kernel's own xen-netback in kernel/.  Copied as built: kbuild's
# modules_install would also try to sign with a key only the kernel's
# own build tree has.
install: modules
	install -D -m 0644 $(MODULE) $(MOD_DEST)/xen-netback.ko
	$(DEPMOD)

uninstall:
	rm -f $(MOD_DEST)/xen-netback.ko
	$(DEPMOD)

# ===========================================================================
# Package (docs/install.md)
#   make deb            source package + xen-netback-wg-dkms_<v>_all.deb in
#                       build/deb/, then lintian
#   make dkms-install   by-hand DKMS: sources to /usr/src/$(PKG_NAME)-<v>,
#                       dkms add + build + install (running kernel, or
#                       DKMS_KVER=<kver>)
#   make dkms-remove    dkms remove --all and the /usr/src copy
PKG_NAME := xen-netback-wg
PKG_VERSION := $(shell cat $(CURDIR)/VERSION 2>/dev/null)
DKMS_SRC := /usr/src/$(PKG_NAME)-$(PKG_VERSION)
DKMS_MOD := -m $(PKG_NAME) -v $(PKG_VERSION)
DKMS_FILES = Makefile Kbuild Kconfig VERSION dkms.conf \
	drivers/net/xen-netback/Kbuild include/xen/xnb_proto.h \
	include/xen/xnb_ctrl.h \
	$(filter-out %.mod.c,$(wildcard drivers/net/xen-netback/*.[ch]))
.PHONY: deb dkms-add dkms-install dkms-remove

deb:
	scripts/deb.sh

# The package owns the same /usr/src directory: leave it to apt.
DKMS_NOT_PACKAGED = if dpkg -S $(DKMS_SRC) > /dev/null 2>&1; then \
	echo "$(DKMS_SRC) belongs to a package: use apt" >&2; exit 1; fi

dkms-add: dkms-remove
	mkdir -p $(DKMS_SRC)
	tar -cf - $(DKMS_FILES) | tar -xf - -C $(DKMS_SRC)
	sed -i 's/#MODULE_VERSION#/$(PKG_VERSION)/' $(DKMS_SRC)/dkms.conf
	dkms add $(DKMS_MOD)

dkms-install: dkms-add
	dkms install $(DKMS_MOD) $(if $(DKMS_KVER),-k $(DKMS_KVER))

dkms-remove:
	@$(DKMS_NOT_PACKAGED)
	if dkms status $(DKMS_MOD) | grep -q .; then dkms remove $(DKMS_MOD) --all; fi
	rm -rf $(DKMS_SRC)

# ===========================================================================
# Test
#
# The tests' targets live with them.  -include: the DKMS and package
# trees carry this Makefile without tests/ or bench/.  The lab comes
# before the files that build on it (hostile.mk's own LAB_CACHE default
# must not win over LAB_DIST=trixie's).
-include tests/tests.mk
-include tests/lab/lab.mk
-include tests/lab/soak.mk
-include tests/lab/xdp/xdp.mk
-include tests/hostile/hostile.mk
-include bench/bench.mk

#   make lint           checkpatch --strict, kernel-doc, sparse against 6.1
#                       and 6.12
#                       (the latter in the build root); any finding fails
.PHONY: lint

lint: kdir-6.1
	LAB_CACHE=$(BOOKWORM_CACHE) scripts/lint.sh $(BOOKWORM_CACHE)/kdir

# Lab scenarios `make check` runs: everything against our module, and the
# scenarios that test plain netback behaviour against Debian's as reference.
CHECK_OURS ?= hotplug teardown matrix-1-kthread matrix-2-kthread \
	      matrix-1-tasklet matrix-2-tasklet multiqueue attach3 jumbo \
	      rate worker-group regroup rebalance destroy-busy reload reload-race \
	      stress saverestore \
	      guest2guest idle mq-single
CHECK_STOCK ?= basic hotplug teardown
# ... and on Debian 13 (LAB_DIST=trixie), ours again: the worker matrix
# and multiqueue (check.sh adds the hostile campaign and the bench smoke).
CHECK_TRIXIE ?= matrix-1-kthread matrix-2-kthread matrix-1-tasklet \
		matrix-2-tasklet multiqueue
export CHECK_OURS CHECK_STOCK CHECK_TRIXIE

.PHONY: check demo

# Every stage in turn (scripts/check.sh; the README lists them).
check:
	scripts/check.sh

# Three guests one after another: more than the default scenario budget
# on a loaded host.
demo:
	$(MAKE) lab NETBACK=ours SCENARIOS=demo LAB_SCENARIO_TIMEOUT=1200
