# SPDX-License-Identifier: GPL-2.0
#
# xen-netback with worker groups, built out of tree: build, install,
# package, test.  The README names two commands: `make demo` (the lab
# shows the module at work) and `make check` (every test stage).
#
#   build     make [modules] [KDIR=...], clean; modules-6.1, modules-6.12,
#             build-matrix, buildroot (the supported kernels)
#   install   make install, uninstall [INSTALL_MOD_PATH=...]
#             [XNB_ALLOW_UNSIGNED=1]; the admin tool: install-tools,
#             uninstall-tools [DESTDIR=...]
#   package   make deb, dkms-add, dkms-install, dkms-remove
#   docs      make man, install-man, uninstall-man, docs, docs-check
#   test      make check, check-full, demo, lint, and from the files included below:
#               tests/tests.mk            unit, fuzz, fuzz-smoke, fuzz-ctrl,
#                                         fuzz-corpus, shellcheck
#               tests/lab/lab.mk          lab, lab-shell, lab-fetch,
#                                         lab-images, lab-module,
#                                         lab-warnmod, lab-debrepo
#               tests/lab/soak.mk         soak
#               tests/lab/migrate.mk      migrate
#               tests/lab/xdp/xdp.mk      lab-xdp
#               tests/hostile/hostile.mk  hostile, hostile-guest
#               tests/xnbctl/xnbctl.mk    xnbctl-test
#               tests/install/install.mk  install-test
#               bench/bench.mk            bench, bench-host
#
# scripts/ holds the tools of the whole project (check.sh, lint.sh,
# build-matrix.sh, buildroot.sh, deb.sh, install.sh, need.sh); the lab's
# and the bench's own live with them (tests/lab/host/, bench/).

# ===========================================================================
# Build

HOST_KDIR := /lib/modules/$(shell uname -r)/build
# Build against the running kernel's headers, or the kernel build tree
# KDIR names (the lab's targets and scripts/build-matrix.sh pass theirs:
# tests/lab/lab.mk).  Without either, `make` says what to install
# instead of failing in the kernel's make.
KDIR ?= $(HOST_KDIR)

MODULE := drivers/net/xen-netback/xen-netback.ko

# MODULE_VERSION: the VERSION file, the one source of the version
# number; in a git checkout that is not at the release tag v<VERSION>,
# with +g<commit> (and .dirty) after it: scripts/version.sh.  DKMS and
# package builds have neither .git nor scripts/: VERSION alone.
XNB_VERSION := $(if $(and $(wildcard $(CURDIR)/.git),$(wildcard $(CURDIR)/scripts/version.sh)),$(shell $(CURDIR)/scripts/version.sh),$(shell cat $(CURDIR)/VERSION))
KBUILD_ARGS = -C $(KDIR) M=$(CURDIR) XNB_VERSION=$(XNB_VERSION)

.PHONY: all modules clean

all: modules

# No kernel build tree at KDIR: name the package that brings one (the
# headers of the running kernel), and KDIR for any other tree; in the
# recipe itself, so that `make -n install` shows it too.
modules:
ifneq ($(wildcard $(KDIR)/Makefile),)
	$(MAKE) $(KBUILD_ARGS) modules
else
	@echo "No kernel build tree at $(KDIR)$(if $(filter $(HOST_KDIR),$(KDIR)), (the running kernel's headers))." >&2; \
	echo "Install the headers of the running kernel:" >&2; \
	echo "    apt-get install linux-headers-$(shell uname -r)" >&2; \
	echo "  (on Debian; linux-headers-amd64 follows the linux-image-amd64 kernel), or" >&2; \
	echo "build against another kernel's build tree:" >&2; \
	echo "    make KDIR=/lib/modules/<kernel>/build" >&2; \
	$(if $(wildcard $(LAB_KDIR)/Makefile),echo "  (the lab's kernel: make lab-module, or make KDIR=$(LAB_KDIR))" >&2;) \
	exit 1
endif

# Also without headers (a dom0 that lost them; DKMS 3.0 runs a plain
# `make clean` in its build tree): then what kbuild would remove.
clean:
ifneq ($(wildcard $(KDIR)/Makefile),)
	$(MAKE) $(KBUILD_ARGS) clean
else
	rm -f Module.symvers modules.order .*.cmd
	cd drivers/net/xen-netback && rm -f *.o *.ko *.mod *.mod.c *.a \
		modules.order .*.cmd
endif
	rm -rf build/6.1 build/6.12

# Supported kernels (xnb_compat.h).
#   make modules-6.1    W=1 against Debian 12's 6.1 (the lab's headers)
#   make modules-6.12   W=1 against Debian 13's 6.12, in a trixie chroot
#                       (scripts/buildroot.sh; first run: a few minutes)
#   make build-matrix   both (any warning fails), and make without headers
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
	XNB_VERSION=$(XNB_VERSION) LAB_CACHE=$(BOOKWORM_CACHE) scripts/build-matrix.sh 6.1 6.12 noheaders

buildroot:
	LAB_CACHE=$(BOOKWORM_CACHE) scripts/buildroot.sh

# ===========================================================================
# Install

# The kernel release KDIR's headers are for (their UTS_RELEASE; Debian's
# kernel.release holds the upstream version instead): where `make install`
# puts the module.  INSTALL_MOD_PATH=/some/root installs into an image.
KVER ?= $(or $(shell sed -n 's/^\#define UTS_RELEASE "\(.*\)"/\1/p' $(KDIR)/include/generated/utsrelease.h 2>/dev/null),$(shell uname -r))
INSTALL_MOD_DIR ?= updates
# XNB_ALLOW_UNSIGNED=1: install an unsigned module on a host whose kernel
# loads only signed ones (scripts/install.sh refuses it otherwise).
INSTALL_ENV = INSTALL_MOD_PATH=$(INSTALL_MOD_PATH) \
	INSTALL_MOD_DIR=$(INSTALL_MOD_DIR) KDIR=$(KDIR) \
	XNB_ALLOW_UNSIGNED=$(XNB_ALLOW_UNSIGNED)

.PHONY: install uninstall

# Into /lib/modules/$(KVER)/updates/, which depmod prefers to the
# kernel's own xen-netback in kernel/, then depmod (scripts/install.sh:
# it refuses an unsigned module where the kernel enforces signatures,
# keeps the file it replaces for uninstall to put back, and says what
# modprobe takes and what is loaded).  Copied as built: kbuild's
# modules_install would also try to sign with a key only the kernel's
# own build tree has.
install: modules
	$(INSTALL_ENV) scripts/install.sh install $(MODULE) $(KVER)

uninstall:
	$(INSTALL_ENV) scripts/install.sh uninstall $(KVER)

# The admin tool, xnbctl (docs/man/xnbctl.8.md), apart from the module:
# a bash script, into $(DESTDIR)$(SBINDIR), with the module's version
# written in (xnbctl --version), its bash completion, and the hook Xen's
# vif scripts run for each new vif (vif pin-apply: the pins of
# /etc/xen-netback-wg/pins), with xnbctl's path written in.  The package
# ships them too (debian/rules).  The pins file is the admin's: kept.
SBINDIR ?= /usr/sbin
BASHCOMPDIR ?= /usr/share/bash-completion/completions
XEN_HOOKDIR ?= /etc/xen/scripts/vif-post.d
XNB_HOOK := xen-netback-wg-pins.hook
.PHONY: install-tools uninstall-tools

install-tools:
	install -D -m 0755 tools/xnbctl/xnbctl $(DESTDIR)$(SBINDIR)/xnbctl
	sed -i 's/#XNBCTL_VERSION#/$(XNB_VERSION)/' $(DESTDIR)$(SBINDIR)/xnbctl
	install -D -m 0644 tools/xnbctl/xnbctl.bash-completion \
		$(DESTDIR)$(BASHCOMPDIR)/xnbctl
	install -D -m 0755 tools/xnbctl/$(XNB_HOOK) $(DESTDIR)$(XEN_HOOKDIR)/$(XNB_HOOK)
	sed -i 's|/usr/sbin/xnbctl|$(SBINDIR)/xnbctl|g' $(DESTDIR)$(XEN_HOOKDIR)/$(XNB_HOOK)

uninstall-tools:
	rm -f $(DESTDIR)$(SBINDIR)/xnbctl $(DESTDIR)$(BASHCOMPDIR)/xnbctl \
		$(DESTDIR)$(XEN_HOOKDIR)/$(XNB_HOOK)

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
# Docs
#   make man            docs/man/<name>.<section>.md -> build/man/ (troff,
#                       scripts/md2man)
#   make install-man    into $(DESTDIR)$(MANDIR)/man<section>/ (the package
#                       installs them with dh_installman instead)
#   make docs           docs/admin.md's parameter, xenstore key and counter
#                       tables rewritten from docs/man/xen-netback.4.md
#   make docs-check     fails when docs/admin.md differs from that source, a
#                       page draws a warning from groff -ww or man, or
#                       the parameters and counters of the code, the page
#                       and the modprobe.d file disagree (scripts/docs.py)
MAN_SRC := $(wildcard docs/man/*.md)
MAN_PAGES := $(patsubst docs/man/%.md,build/man/%,$(MAN_SRC))
MANDIR ?= /usr/share/man
.PHONY: man install-man uninstall-man docs docs-check docs-deps

docs-deps:
	@scripts/need.sh python3 groff-base man-db

man: $(MAN_PAGES)

# Dated by the source's last commit (reproducible), else today.
build/man/%: docs/man/%.md scripts/md2man VERSION | docs-deps
	SOURCE_DATE_EPOCH=$${SOURCE_DATE_EPOCH:-$$(git log -1 --format=%ct -- $< 2>/dev/null)} \
		python3 scripts/md2man -o build/man $<

install-man: man
	for p in $(MAN_PAGES); do \
		install -D -m 0644 $$p $(DESTDIR)$(MANDIR)/man$${p##*.}/$${p##*/} || exit 1; \
	done

uninstall-man:
	rm -f $(foreach p,$(MAN_PAGES),$(DESTDIR)$(MANDIR)/man$(subst .,,$(suffix $(p)))/$(notdir $(p)))

docs: | docs-deps
	python3 scripts/docs.py sync

docs-check: | docs-deps
	python3 scripts/docs.py check

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
-include tests/lab/migrate.mk
-include tests/lab/xdp/xdp.mk
-include tests/hostile/hostile.mk
-include tests/xnbctl/xnbctl.mk
-include tests/install/install.mk
-include bench/bench.mk

#   make lint           checkpatch --strict, kernel-doc, sparse against 6.1
#                       and 6.12
#                       (the latter in the build root); any finding fails
.PHONY: lint

lint: kdir-6.1
	LAB_CACHE=$(BOOKWORM_CACHE) scripts/lint.sh $(BOOKWORM_CACHE)/kdir

# Lab scenarios `make check` runs, chosen to fit CI's hour with room for a
# slower host (about 25 minutes of lab here): the lifecycle, each worker
# mode, what an admin does live (regroup, sysfs, xnbctl, coalesce), the
# races a review found (destroy-busy, reload-race) and a save and
# restore.  The 2-queue guest runs on Debian 13 only.
# Debian's module runs the reference scenarios.  Live migration (`make
# migrate`) is not here: the lab's Xen refuses to track a PV guest's
# dirty pages (log-dirty: EOPNOTSUPP under QEMU TCG), so the scenario
# skips.  Debian 13 runs the two matrix corners Debian 12 does not,
# so one `make check` covers the whole groups x worker matrix.
CHECK_OURS ?= hotplug teardown matrix-2-kthread matrix-1-tasklet \
	      jumbo regroup sysfs destroy-busy reload-race \
	      saverestore xnbctl coalesce irqbalance
CHECK_STOCK ?= basic hotplug teardown
CHECK_TRIXIE ?= matrix-1-kthread matrix-2-tasklet multiqueue
# `make check-full` (about 100 minutes; run before an issue is resolved):
# every scenario of the suite on Debian 12, the hostile campaign's full
# random run, the bench smoke, and the hostile campaign on Debian 13 too.
CHECK_OURS_FULL ?= $(CHECK_OURS) matrix-1-kthread matrix-2-tasklet \
	      multiqueue attach3 rate worker-group rebalance reload stress guest2guest \
	      idle mq-single rx-bound bench-host cpuhp
export CHECK_OURS CHECK_OURS_FULL CHECK_STOCK CHECK_TRIXIE

.PHONY: check check-full demo

# Every stage in turn (scripts/check.sh; docs/testing.md lists them).
check:
	scripts/check.sh

check-full:
	CHECK_FULL=1 scripts/check.sh

# Three guests one after another: more than the default scenario budget
# on a loaded host.
demo:
	$(MAKE) lab NETBACK=ours SCENARIOS=demo LAB_SCENARIO_TIMEOUT=1200
