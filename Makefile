# SPDX-License-Identifier: GPL-2.0
#
# Top-level entry points.  `make demo` and `make check` are the two the
# README names; the rest are their building blocks.

# The lab's Debian: bookworm (Xen 4.17, Linux 6.1) or trixie (Xen 4.20,
# Linux 6.12, module built in the trixie build root).  One cache each.
LAB_DIST ?= bookworm
ifeq ($(LAB_DIST),bookworm)
LAB_CACHE ?= /var/cache/xnb-lab
else
LAB_CACHE ?= /var/cache/xnb-lab-$(LAB_DIST)
endif
HOST_KDIR := /lib/modules/$(shell uname -r)/build
# Build against the running kernel where its headers exist, else against
# the headers the lab fetched (same ABI as the lab's dom0 kernel).
KDIR ?= $(if $(wildcard $(HOST_KDIR)/Makefile),$(HOST_KDIR),$(LAB_CACHE)/kdir)

MODULE := drivers/net/xen-netback/xen-netback.ko

# MODULE_VERSION: `git describe` in a git checkout, else the VERSION file
# (DKMS and package builds have no .git).
XNB_VERSION := $(or $(if $(wildcard $(CURDIR)/.git),$(shell git -C $(CURDIR) describe --tags --always --dirty 2>/dev/null)),$(shell cat $(CURDIR)/VERSION 2>/dev/null),0.1)
KBUILD_ARGS = -C $(KDIR) M=$(CURDIR) XNB_VERSION=$(XNB_VERSION)

# The kernel release KDIR's headers are for (their UTS_RELEASE; Debian's
# kernel.release holds the upstream version instead): where `make install`
# puts the module.  INSTALL_MOD_PATH=/some/root installs into an image.
KVER ?= $(or $(shell sed -n 's/^\#define UTS_RELEASE "\(.*\)"/\1/p' $(KDIR)/include/generated/utsrelease.h 2>/dev/null),$(shell uname -r))
INSTALL_MOD_DIR ?= updates
MOD_DEST = $(INSTALL_MOD_PATH)/lib/modules/$(KVER)/$(INSTALL_MOD_DIR)
DEPMOD = depmod -a $(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH)) $(KVER)

.PHONY: all modules clean install uninstall

all: modules

modules:
	$(MAKE) $(KBUILD_ARGS) modules

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

clean:
	$(MAKE) $(KBUILD_ARGS) clean
	rm -rf build/6.1 build/6.12

# ---------------------------------------------------------------------------
# Supported kernels (xnb_compat.h) and style checks.
#   make modules-6.1    W=1 against Debian 12's 6.1 (the lab's headers)
#   make modules-6.12   W=1 against Debian 13's 6.12, in a trixie chroot
#                       (scripts/buildroot.sh; first run: a few minutes)
#   make build-matrix   both; any warning fails
#   make lint           checkpatch --strict, kernel-doc, sparse against
#                       6.1 and 6.12 (the latter in the build root);
#                       any finding fails
.PHONY: modules-6.1 modules-6.12 build-matrix buildroot lint

# The passes pick their kernels by version, whatever LAB_DIST says: 6.1
# from the bookworm cache's headers (fetched if missing), 6.12 from the
# trixie build root, which lives in the bookworm cache too.
.PHONY: kdir-6.1
BOOKWORM_CACHE := $(if $(filter bookworm,$(LAB_DIST)),$(LAB_CACHE),/var/cache/xnb-lab)

kdir-6.1:
	LAB_DIST=bookworm LAB_CACHE=$(BOOKWORM_CACHE) scripts/lab-fetch.sh

modules-6.1: kdir-6.1
	XNB_VERSION=$(XNB_VERSION) LAB_CACHE=$(BOOKWORM_CACHE) scripts/build-matrix.sh 6.1

modules-6.12:
	XNB_VERSION=$(XNB_VERSION) LAB_CACHE=$(BOOKWORM_CACHE) scripts/build-matrix.sh 6.12

build-matrix: kdir-6.1
	XNB_VERSION=$(XNB_VERSION) LAB_CACHE=$(BOOKWORM_CACHE) scripts/build-matrix.sh 6.1 6.12

buildroot:
	LAB_CACHE=$(BOOKWORM_CACHE) scripts/buildroot.sh

lint: kdir-6.1
	LAB_CACHE=$(BOOKWORM_CACHE) scripts/lint.sh $(BOOKWORM_CACHE)/kdir

# ---------------------------------------------------------------------------
# Packaging (docs/install.md).
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

# Userspace tests of the pure code (unit tests, fuzzers).
-include tests/tests.mk

# ---------------------------------------------------------------------------
# Lab: Xen + dom0 + PV guests under QEMU (TCG).  See tests/lab/README.md.
#   make lab NETBACK=ours|stock XNB_PARAMS="..." SCENARIOS="basic hotplug"
# The lab's kernel is Debian's, so modules for it are built against the
# fetched headers ($(LAB_CACHE)/kdir), whatever the host runs; with
# LAB_DIST=trixie against the headers in the trixie build root, with its
# compiler (the host's cannot build for 6.12: see scripts/buildroot.sh).
NETBACK ?= ours
XNB_PARAMS ?=
SCENARIOS ?=
LAB_KDIR := $(LAB_CACHE)/kdir
LAB_ENV = LAB_DIST=$(LAB_DIST) LAB_CACHE=$(LAB_CACHE) NETBACK=$(NETBACK) XNB_PARAMS="$(XNB_PARAMS)" SCENARIOS="$(SCENARIOS)"
ifeq ($(LAB_DIST),bookworm)
lab_kbuild = $(MAKE) -C $(LAB_KDIR) M=$(CURDIR)$(1) XNB_VERSION=$(XNB_VERSION) modules
else
# $(1): the module's directory below the checkout.  The glob is for the
# chroot's shell: the root holds one headers tree.
lab_kbuild = scripts/buildroot.sh exec $(CURDIR) sh -c \
	'make -C /usr/src/linux-headers-*-amd64 M=/xnb$(1) XNB_VERSION=$(XNB_VERSION) modules'
endif

.PHONY: lab-fetch lab-images lab-warnmod lab-module lab lab-shell

lab-fetch:
	LAB_DIST=$(LAB_DIST) LAB_CACHE=$(LAB_CACHE) scripts/lab-fetch.sh

lab-images: lab-fetch
	LAB_DIST=$(LAB_DIST) LAB_CACHE=$(LAB_CACHE) scripts/lab-build.sh

# Self-test module for SCENARIOS=selftest-warn (tiny; always built).
lab-warnmod: lab-fetch
	$(call lab_kbuild,/tests/lab/warnmod)

lab-module: lab-fetch
	$(if $(filter ours,$(NETBACK)),$(call lab_kbuild,),@true)

# SCENARIOS=deb installs the package (make deb) in dom0 from a local apt
# repository that lab-debrepo adds to dom0's initramfs.
LAB_DEB_DIR := $(CURDIR)/build/lab-deb
lab_deb = $(filter deb,$(SCENARIOS))
LAB_ENV += $(if $(lab_deb),LAB_DOM0_EXTRA_DIR=$(LAB_DEB_DIR))

.PHONY: lab-debrepo
lab-debrepo: deb lab-images
	LAB_DIST=$(LAB_DIST) LAB_CACHE=$(LAB_CACHE) scripts/lab-debrepo.sh $(LAB_DEB_DIR)

lab: lab-images lab-warnmod lab-module $(if $(lab_deb),lab-debrepo)
	$(LAB_ENV) scripts/lab-run.sh

lab-shell: lab-images lab-warnmod lab-module
	$(LAB_ENV) scripts/lab-run.sh --shell

# ---------------------------------------------------------------------------
# The README's two commands.
-include tests/hostile/hostile.mk
-include bench/bench.mk
-include tests/lab/soak.mk
-include tests/lab/xdp/xdp.mk

# Lab scenarios `make check` runs: everything against our module, and the
# scenarios that test plain netback behaviour against Debian's as reference.
CHECK_OURS ?= hotplug teardown matrix-1-kthread matrix-2-kthread \
	      matrix-1-tasklet matrix-2-tasklet multiqueue attach3 jumbo \
	      rate worker-group regroup rebalance destroy-busy reload stress saverestore \
	      guest2guest idle mq-single
CHECK_STOCK ?= basic hotplug teardown
# ... and on Debian 13 (LAB_DIST=trixie), ours again: the worker matrix
# and multiqueue (check.sh adds the hostile campaign and the bench smoke).
CHECK_TRIXIE ?= matrix-1-kthread matrix-2-kthread matrix-1-tasklet \
		matrix-2-tasklet multiqueue
export CHECK_OURS CHECK_STOCK CHECK_TRIXIE

.PHONY: check demo

check:
	scripts/check.sh

# Three guests one after another: more than the default scenario budget
# on a loaded host.
demo:
	$(MAKE) lab NETBACK=ours SCENARIOS=demo LAB_SCENARIO_TIMEOUT=1200
