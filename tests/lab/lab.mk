# SPDX-License-Identifier: GPL-2.0
#
# The lab: Xen + dom0 + PV guests under QEMU (TCG), -included by the
# top-level Makefile (which provides XNB_VERSION and deb).  See
# tests/lab/README.md.
#
#   make lab-fetch      host packages + Debian's kernel and Xen (cached)
#   make lab-images     dom0 and guest initramfs (cached)
#   make lab NETBACK=ours|stock XNB_PARAMS="..." SCENARIOS="basic hotplug"
#   make lab-shell      dom0 shell on this terminal
#   make lab-module     our module for the lab's kernel (lab-warnmod: the
#                       lab's test modules, the self-test's WARN and
#                       hostile's printk from hard irq), lab-debrepo:
#                       dom0's apt repository for SCENARIOS=deb
#
# soak.mk, migrate.mk, xdp/xdp.mk, tests/hostile/hostile.mk and
# bench/bench.mk build their targets on lab-images, lab-warnmod and
# lab-module.
#
# Two kinds of shell here: tests/lab/*.sh and scenarios/ run inside the
# lab's dom0 (lab-run.sh copies them in); tests/lab/host/ runs on the
# host (fetch, image build, QEMU runner; the make targets call them).

# The lab's Debian: bookworm (Xen 4.17, Linux 6.1) or trixie (Xen 4.20,
# Linux 6.12, module built in the trixie build root).  One cache each.
LAB_DIST ?= bookworm
ifeq ($(LAB_DIST),bookworm)
LAB_CACHE ?= /var/cache/xnb-lab
else
LAB_CACHE ?= /var/cache/xnb-lab-$(LAB_DIST)
endif
# The headers the lab fetched (same ABI as the lab's dom0 kernel): the
# lab's builds use them; a plain `make` without the host's own headers
# names them (KDIR=$(LAB_KDIR)) rather than taking them silently.
LAB_KDIR := $(LAB_CACHE)/kdir

# The bookworm cache, whatever LAB_DIST says: the top-level Makefile's
# modules-6.1, build-matrix and lint take 6.1 from its headers (kdir-6.1
# fetches them if missing), and the trixie build root lives there too.
.PHONY: kdir-6.1
BOOKWORM_CACHE := $(if $(filter bookworm,$(LAB_DIST)),$(LAB_CACHE),/var/cache/xnb-lab)

kdir-6.1:
	LAB_DIST=bookworm LAB_CACHE=$(BOOKWORM_CACHE) tests/lab/host/lab-fetch.sh

# The lab's kernel is Debian's, so modules for it are built against the
# fetched headers ($(LAB_KDIR)), whatever the host runs; with
# LAB_DIST=trixie against the headers in the trixie build root, with its
# compiler (the host's cannot build for 6.12: see scripts/buildroot.sh).
NETBACK ?= ours
XNB_PARAMS ?=
SCENARIOS ?=
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
	LAB_DIST=$(LAB_DIST) LAB_CACHE=$(LAB_CACHE) tests/lab/host/lab-fetch.sh

lab-images: lab-fetch
	LAB_DIST=$(LAB_DIST) LAB_CACHE=$(LAB_CACHE) tests/lab/host/lab-build.sh

# Test modules (tiny; always built): xnb-warnmod for
# SCENARIOS=selftest-warn, xnb-irqprintk for hostile's netconsole phase.
lab-warnmod: lab-fetch
	$(call lab_kbuild,/tests/lab/warnmod)

lab-module: lab-fetch
	$(if $(filter ours,$(NETBACK)),$(call lab_kbuild,),@true)

# SCENARIOS=deb installs the package (make deb) in dom0 from a local apt
# repository that lab-debrepo adds to dom0's initramfs.  It builds the
# module twice with gcc in dom0 under TCG (bookworm: 732 s for the whole
# boot), so it gets LAB_DEB_TIMEOUT seconds of its own (an entry of
# LAB_SCENARIO_TIMEOUTS given by hand wins) and the run's budget grows by
# as much, unless LAB_TIMEOUT is given.
LAB_DEB_DIR := $(CURDIR)/build/lab-deb
lab_deb = $(filter deb,$(SCENARIOS))
LAB_DEB_TIMEOUT ?= $(if $(filter bookworm,$(LAB_DIST)),2400,3600)
LAB_ENV += $(if $(lab_deb),LAB_DOM0_EXTRA_DIR=$(LAB_DEB_DIR) \
	LAB_SCENARIO_TIMEOUTS="$(LAB_SCENARIO_TIMEOUTS) deb=$(LAB_DEB_TIMEOUT)" \
	LAB_TIMEOUT=$(or $(LAB_TIMEOUT),$(shell echo $$((240 + $(words $(SCENARIOS)) * 420 + $(LAB_DEB_TIMEOUT))))))

# make deb asks before it installs build dependencies, as the lab does
# for its host packages (scripts/need.sh): XNB_YES=1 installs them
# without asking.
.PHONY: lab-debrepo
lab-debrepo: deb lab-images
	LAB_DIST=$(LAB_DIST) LAB_CACHE=$(LAB_CACHE) tests/lab/host/lab-debrepo.sh $(LAB_DEB_DIR)

lab: lab-images lab-warnmod lab-module $(if $(lab_deb),lab-debrepo)
	$(LAB_ENV) tests/lab/host/lab-run.sh

lab-shell: lab-images lab-warnmod lab-module
	$(LAB_ENV) tests/lab/host/lab-run.sh --shell

# make shellcheck (tests/tests.mk) checks scripts/, tests/lab/*.sh and
# the scenarios; the host side too.  Target-specific, so this file may be
# included before tests.mk or after it.
shellcheck: XNB_SHELL += $(wildcard $(CURDIR)/tests/lab/host/*.sh)
