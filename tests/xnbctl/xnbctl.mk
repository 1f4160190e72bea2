# SPDX-License-Identifier: GPL-2.0
#
# xnbctl's userspace test, -included by the top-level Makefile:
#   make xnbctl-test   tools/xnbctl/xnbctl against a fake sysfs tree and
#                      stand-ins for xl, xenstore, ethtool, dmesg and
#                      sleep (tests/xnbctl/run.sh): no driver, no Xen,
#                      a few seconds; ends with "N passed, N failed".
#                      JSON output is parsed with python3 where there
#                      is one.  The lab's side: scenario xnbctl.

.PHONY: xnbctl-test

xnbctl-test:
	$(CURDIR)/tests/xnbctl/run.sh

# make shellcheck (tests/tests.mk) covers the tool, its test and stubs.
shellcheck: XNB_SHELL += $(CURDIR)/tools/xnbctl/xnbctl \
	$(CURDIR)/tools/xnbctl/xnbctl.bash-completion \
	$(CURDIR)/tools/xnbctl/xen-netback-wg-pins.hook \
	$(wildcard $(CURDIR)/tests/xnbctl/*.sh $(CURDIR)/tests/xnbctl/stubs/*)
