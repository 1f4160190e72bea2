# SPDX-License-Identifier: GPL-2.0
#
# Userspace tests of the pure protocol core, included by the top-level
# Makefile.  proto.c and ctrl.c (the control ring) are built straight
# from the tree, never copied.
#
#   make unit                  cmocka unit tests (ASan + UBSan)
#   make fuzz [FUZZ_SECONDS=600] [FUZZ_MERGE=1]
#                              libFuzzer run on a copy of the seed corpus;
#                              FUZZ_MERGE=1 merges new coverage back into
#                              tests/fuzz/corpus (keep it small)
#   make fuzz-smoke            corpus replay plus a short run (< 60 s),
#                              both targets
#   make fuzz-ctrl [FUZZ_SECONDS=600]
#                              the control-ring target (fuzz_ctrl.c)
#   make fuzz-corpus           regenerate the hand-built seeds
#   make shellcheck            every shell file: SPDX line, shell directive,
#                              no shellcheck warning
#
# Every target fails on a test failure, crash or sanitizer report.  The
# packages a target needs are installed first (scripts/need.sh: apt-get as
# root when told to, XNB_YES=1 or y on the terminal; else it prints the
# command).

XNB_TOP := $(CURDIR)
XNB_PROTO_C := $(XNB_TOP)/drivers/net/xen-netback/proto.c
XNB_PROTO_H := $(XNB_TOP)/include/xen/xnb_proto.h
XNB_HOOK_C := $(XNB_TOP)/tests/common/xnb_read_hook.c
XNB_HOOK_H := $(XNB_TOP)/tests/common/xnb_read_hook.h
FUZZ_CHECK_H := $(XNB_TOP)/tests/common/fuzz_check.h
XNB_CTRL_C := $(XNB_TOP)/drivers/net/xen-netback/ctrl.c
XNB_CTRL_H := $(XNB_TOP)/include/xen/xnb_ctrl.h
# The kernel's types and the kernel headers the pure code names, for
# userspace: xnb_user.h is forced into every file built here.
XNB_USER_H := $(XNB_TOP)/tests/common/xnb_user.h \
	      $(XNB_TOP)/tests/common/include/linux/compiler.h \
	      $(XNB_TOP)/tests/common/include/linux/math64.h \
	      $(XNB_TOP)/tests/common/include/xen/interface/io/netif.h
XNB_USER_CFLAGS := -I$(XNB_TOP)/tests/common/include -I$(XNB_TOP)/include \
		   -include $(XNB_TOP)/tests/common/xnb_user.h
XNB_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all \
	   -fno-omit-frame-pointer
XNB_WARN := -Wall -Wextra -Werror

UNIT_DIR := $(XNB_TOP)/tests/unit
UNIT_OUT := $(UNIT_DIR)/out
UNIT_CC ?= gcc
UNIT_CFLAGS := -std=gnu11 -O1 -g $(XNB_WARN) $(XNB_SAN) $(XNB_USER_CFLAGS)
# One binary per tests/unit/test_*.c, each a cmocka group of its own.
UNIT_BINS := $(patsubst $(UNIT_DIR)/%.c,$(UNIT_OUT)/%,\
		$(wildcard $(UNIT_DIR)/test_*.c))
UNIT_PROTO_BINS := $(filter-out $(UNIT_OUT)/test_ctrl,$(UNIT_BINS))
UNIT_OBJS := $(patsubst $(UNIT_DIR)/%.c,$(UNIT_OUT)/%.o,\
		$(wildcard $(UNIT_DIR)/*.c))
UNIT_HDRS := $(wildcard $(UNIT_DIR)/*.h) $(XNB_PROTO_H) $(XNB_CTRL_H) \
	     $(XNB_USER_H) $(XNB_HOOK_H) $(XNB_TOP)/tests/common/rss_key.h
# gcc and clang builds of proto.c and ctrl.c as plain as the default
# userspace path: a warning check, not linked.
UNIT_PLAIN := $(UNIT_OUT)/proto-plain-gcc.o $(UNIT_OUT)/proto-plain-clang.o \
	      $(UNIT_OUT)/ctrl-plain-gcc.o $(UNIT_OUT)/ctrl-plain-clang.o

FUZZ_OUT := $(XNB_TOP)/tests/fuzz/out
FUZZ_CC ?= clang
FUZZ_CFLAGS := -O1 -g $(XNB_WARN) -fsanitize=fuzzer,address,undefined \
	       -fno-sanitize-recover=all $(XNB_USER_CFLAGS)
FUZZ_BIN := $(FUZZ_OUT)/fuzz_proto
FUZZ_SEEDS := $(XNB_TOP)/tests/fuzz/corpus
FUZZ_CTRL_BIN := $(FUZZ_OUT)/fuzz_ctrl
FUZZ_CTRL_SEEDS := $(XNB_TOP)/tests/fuzz/corpus-ctrl
FUZZ_SECONDS ?= 600
FUZZ_MERGE ?= 0
FUZZ_OPTS := -max_len=4096 -timeout=10 -print_final_stats=1 \
	     -artifact_prefix=$(FUZZ_OUT)/artifacts/

.PHONY: unit unit-build fuzz fuzz-build fuzz-smoke fuzz-corpus tests-clean \
	unit-deps fuzz-deps shellcheck fuzz-ctrl

XNB_NEED := $(XNB_TOP)/scripts/need.sh
unit-deps:
	@$(XNB_NEED) gcc clang libcmocka-dev libxen-dev
fuzz-deps:
	@$(XNB_NEED) clang libclang-rt-14-dev libxen-dev

# The tests of proto.c: proto.c with the read hook forced in (so the
# tests can count reads and play a rewriting guest), and the TX ring
# fixture (tx_fixture.c) the TX tests share.
$(UNIT_OUT)/proto.o: $(XNB_PROTO_C) $(XNB_PROTO_H) $(XNB_USER_H) \
		     $(XNB_HOOK_H) | unit-deps
	@mkdir -p $(UNIT_OUT)
	$(UNIT_CC) $(UNIT_CFLAGS) -include $(XNB_HOOK_H) -c $< -o $@

$(UNIT_OUT)/hook.o: $(XNB_HOOK_C) $(XNB_HOOK_H) $(XNB_USER_H) | unit-deps
	@mkdir -p $(UNIT_OUT)
	$(UNIT_CC) $(UNIT_CFLAGS) -c $< -o $@

# The control-ring tests: ctrl.c as the module builds it.
$(UNIT_OUT)/ctrl.o: $(XNB_CTRL_C) $(XNB_CTRL_H) $(XNB_PROTO_H) \
		    $(XNB_USER_H) | unit-deps
	@mkdir -p $(UNIT_OUT)
	$(UNIT_CC) $(UNIT_CFLAGS) -c $< -o $@

$(UNIT_OBJS): $(UNIT_OUT)/%.o: $(UNIT_DIR)/%.c $(UNIT_HDRS) | unit-deps
	@mkdir -p $(UNIT_OUT)
	$(UNIT_CC) $(UNIT_CFLAGS) -c $< -o $@

$(UNIT_PROTO_BINS): $(UNIT_OUT)/%: $(UNIT_OUT)/%.o $(UNIT_OUT)/tx_fixture.o \
			       $(UNIT_OUT)/proto.o $(UNIT_OUT)/hook.o
	$(UNIT_CC) $(UNIT_CFLAGS) $^ -lcmocka -o $@

$(UNIT_OUT)/test_ctrl: $(UNIT_OUT)/test_ctrl.o $(UNIT_OUT)/ctrl.o
	$(UNIT_CC) $(UNIT_CFLAGS) $^ -lcmocka -o $@

$(UNIT_OUT)/proto-plain-%.o: $(XNB_PROTO_C) $(XNB_PROTO_H) $(XNB_USER_H) \
			     | unit-deps
	@mkdir -p $(UNIT_OUT)
	$* -std=gnu11 -O2 $(XNB_WARN) $(XNB_USER_CFLAGS) -c $< -o $@

$(UNIT_OUT)/ctrl-plain-%.o: $(XNB_CTRL_C) $(XNB_CTRL_H) $(XNB_PROTO_H) \
			    $(XNB_USER_H) | unit-deps
	@mkdir -p $(UNIT_OUT)
	$* -std=gnu11 -O2 $(XNB_WARN) $(XNB_USER_CFLAGS) -c $< -o $@

unit-build: $(UNIT_BINS) $(UNIT_PLAIN)

# Every binary runs, a failing one does not stop the others; each ends
# with cmocka's summary ("[  PASSED  ] N test(s)." or "[  FAILED  ] ...").
unit: unit-build
	@$(UNIT_DIR)/run.sh $(UNIT_BINS)

$(FUZZ_BIN): $(XNB_TOP)/tests/fuzz/fuzz_proto.c $(XNB_PROTO_C) \
	     $(XNB_PROTO_H) $(XNB_HOOK_C) $(XNB_HOOK_H) $(FUZZ_CHECK_H) \
	     $(XNB_USER_H) \
	     | fuzz-deps
	@mkdir -p $(FUZZ_OUT)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -include $(XNB_HOOK_H) \
		-c $(XNB_PROTO_C) -o $(FUZZ_OUT)/proto.o
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c $(XNB_HOOK_C) -o $(FUZZ_OUT)/hook.o
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(XNB_TOP)/tests/fuzz/fuzz_proto.c \
		$(FUZZ_OUT)/proto.o $(FUZZ_OUT)/hook.o -o $@

$(FUZZ_CTRL_BIN): $(XNB_TOP)/tests/fuzz/fuzz_ctrl.c $(XNB_CTRL_C) \
		  $(XNB_CTRL_H) $(XNB_PROTO_H) $(FUZZ_CHECK_H) \
		  $(XNB_USER_H) | fuzz-deps
	@mkdir -p $(FUZZ_OUT)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c $(XNB_CTRL_C) -o $(FUZZ_OUT)/ctrl.o
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(XNB_TOP)/tests/fuzz/fuzz_ctrl.c \
		$(FUZZ_OUT)/ctrl.o -o $@

fuzz-build: $(FUZZ_BIN) $(FUZZ_CTRL_BIN)

# Like fuzz, for the control ring; its own working corpus under out/.
fuzz-ctrl: $(FUZZ_CTRL_BIN)
	@mkdir -p $(FUZZ_OUT)/corpus-ctrl $(FUZZ_OUT)/artifacts
	cp -n $(FUZZ_CTRL_SEEDS)/* $(FUZZ_OUT)/corpus-ctrl/
	$(FUZZ_CTRL_BIN) $(FUZZ_OPTS) -max_total_time=$(FUZZ_SECONDS) \
		$(FUZZ_OUT)/corpus-ctrl

# The working corpus lives under out/ and grows from run to run; the
# seeds in the repo are only copied in (never overwritten) unless merging.
fuzz: $(FUZZ_BIN)
	@mkdir -p $(FUZZ_OUT)/corpus $(FUZZ_OUT)/artifacts
	@for f in $(FUZZ_SEEDS)/*; do \
		[ -e $(FUZZ_OUT)/corpus/$${f##*/} ] || \
			cp $$f $(FUZZ_OUT)/corpus/ || exit 1; \
	done
	$(FUZZ_BIN) $(FUZZ_OPTS) -max_total_time=$(FUZZ_SECONDS) \
		$(FUZZ_OUT)/corpus
	@if [ "$(FUZZ_MERGE)" = 1 ]; then \
		echo "merging new coverage into $(FUZZ_SEEDS)"; \
		$(FUZZ_BIN) -merge=1 -max_len=4096 \
			$(FUZZ_SEEDS) $(FUZZ_OUT)/corpus; \
	fi

# Bounded: replay every seed once, then 40 s of fuzzing from a fresh
# copy; the same for the control ring with 10 s.
fuzz-smoke: $(FUZZ_BIN) $(FUZZ_CTRL_BIN)
	rm -rf $(FUZZ_OUT)/smoke $(FUZZ_OUT)/smoke-ctrl
	@mkdir -p $(FUZZ_OUT)/smoke $(FUZZ_OUT)/smoke-ctrl $(FUZZ_OUT)/artifacts
	$(FUZZ_BIN) $(FUZZ_SEEDS)/*
	cp $(FUZZ_SEEDS)/* $(FUZZ_OUT)/smoke/
	timeout -k 5 50 $(FUZZ_BIN) $(FUZZ_OPTS) -max_total_time=40 \
		$(FUZZ_OUT)/smoke
	$(FUZZ_CTRL_BIN) $(FUZZ_CTRL_SEEDS)/*
	cp $(FUZZ_CTRL_SEEDS)/* $(FUZZ_OUT)/smoke-ctrl/
	timeout -k 5 20 $(FUZZ_CTRL_BIN) $(FUZZ_OPTS) -max_total_time=10 \
		$(FUZZ_OUT)/smoke-ctrl

fuzz-corpus:
	python3 $(XNB_TOP)/tests/fuzz/mkcorpus.py $(FUZZ_SEEDS)
	python3 $(XNB_TOP)/tests/fuzz/mkcorpus_ctrl.py $(FUZZ_CTRL_SEEDS)

tests-clean:
	rm -rf $(UNIT_OUT) $(FUZZ_OUT)

# Shell: every script and sourced lab file.  Fails on shellcheck's errors
# and warnings; its info and style notes (mostly unquoted integers, and
# /lab/... sources that exist only inside dom0) are advice, not failures.
XNB_SHELL := $(wildcard $(XNB_TOP)/scripts/*.sh $(XNB_TOP)/tests/lab/*.sh \
	       $(XNB_TOP)/tests/unit/*.sh \
	       $(XNB_TOP)/tests/lab/scenarios/*.sh) $(XNB_TOP)/.ci/run
shellcheck:
	@$(XNB_NEED) shellcheck
	@bad=; for f in $(XNB_SHELL); do \
		h=$$(head -n 3 $$f); \
		echo "$$h" | grep -q 'SPDX-License-Identifier: ' && \
		echo "$$h" | grep -qE '^#!/bin/(ba)?sh|^# shellcheck shell=' || \
			bad="$$bad $${f#$(XNB_TOP)/}"; \
	done; \
	[ -z "$$bad" ] || { echo "shellcheck: no SPDX line or shell directive in the first 3 lines of:$$bad"; exit 1; }
	cd $(XNB_TOP) && shellcheck -x -S warning $(patsubst $(XNB_TOP)/%,%,$(XNB_SHELL))
