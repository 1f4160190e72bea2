# SPDX-License-Identifier: GPL-2.0
#
# The XDP scenario (tests/lab/scenarios/xdp.sh), -included by the
# top-level Makefile after lab.mk (lab-images, lab-warnmod, lab-module):
#
#   make lab-xdp [NETBACK=ours|stock]
#
# The guest gets /bin/xdp-pass (tests/lab/xdp/xdp-pass.c, static) through
# LAB_EXTRA_GUEST_DIR: the guest image has no clang or libbpf.

XDP_OUT := $(CURDIR)/build/xdp
XDP_GUEST := $(XDP_OUT)/guest

.PHONY: lab-xdp lab-xdp-guest

lab-xdp-guest: $(CURDIR)/tests/lab/xdp/xdp-pass.c
	@mkdir -p $(XDP_GUEST)/bin
	gcc -std=gnu11 -O2 -Wall -Wextra -Werror -static \
		-o $(XDP_GUEST)/bin/xdp-pass $<

lab-xdp: lab-xdp-guest lab-images lab-warnmod lab-module
	LAB_CACHE=$(LAB_CACHE) NETBACK=$(NETBACK) XNB_PARAMS="$(XNB_PARAMS)" \
	SCENARIOS=xdp LAB_EXTRA_GUEST_DIR=$(XDP_GUEST) tests/lab/host/lab-run.sh
