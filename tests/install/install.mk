# SPDX-License-Identifier: GPL-2.0
#
# The install scripts' userspace test, -included by the top-level
# Makefile:
#   make install-test   scripts/install.sh (make install, make uninstall)
#                       against a fake root: sig_enforce and lockdown
#                       files, a /lib/modules tree, fake modules, and
#                       stand-ins for modinfo and depmod; scripts/need.sh
#                       (a target's missing packages, installed only when
#                       asked to) with stand-ins for apt-get, dpkg-query
#                       and id; scripts/apt-mirror.sh (the Debian
#                       archive of the machine's apt sources) against
#                       fake /etc/apt trees (tests/install/run.sh): no
#                       root, no kernel, seconds; ends with "N passed,
#                       N failed".

.PHONY: install-test

install-test:
	$(CURDIR)/tests/install/run.sh

# make shellcheck (tests/tests.mk) covers the test and its stubs, and
# the package's maintainer scripts, which say what runs after an install.
shellcheck: XNB_SHELL += $(wildcard $(CURDIR)/tests/install/*.sh \
	$(CURDIR)/tests/install/need-stubs/* \
	$(CURDIR)/tests/install/stubs/* $(CURDIR)/debian/*.postinst)
