#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench-info.sh QUICK: the machine and tree a bench ran on, as the
# KEY=value lines of info.env that bench/aggregate.py prints with the
# results.  Used by bench/bench.sh and by make check's bench stages.
top=$(cd "$(dirname "$0")/.." && pwd)
echo "DATE=$(date '+%Y-%m-%d %H:%M %Z')"
echo "QUICK=${1:-0}"
echo "COMMIT=$(git -C "$top" describe --always --dirty 2>/dev/null || echo unknown)"
echo "NPROC=$(nproc)"
echo "CPU=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)"
echo "HOST_KERNEL=$(uname -r)"
echo "QEMU=$(qemu-system-x86_64 --version 2>/dev/null | head -n1)"
