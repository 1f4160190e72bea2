# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# selftest-warn: the lab must FAIL this scenario.  It loads a module whose
# init does WARN(), so the runner's kernel-log check has to catch it.  Not in
# default.list; run with SCENARIOS=selftest-warn.
[ -f /lab/xnb-warnmod.ko ] || lab_fail "xnb-warnmod.ko not in the run (make lab builds it)"
insmod /lab/xnb-warnmod.ko
rmmod xnb_warnmod
