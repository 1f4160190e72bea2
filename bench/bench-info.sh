#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench-info.sh QUICK [host]: the machine and tree a bench ran on, as the
# KEY=value lines of info.env that bench/aggregate.py prints with the
# results.  Used by bench/bench.sh and by make check's bench stages; with
# "host", by bench/bench-host.sh in a real dom0: then also Xen, its
# command line, the distribution, memory and the versions of what is
# compared (the machine's QEMU means nothing there).
top=$(cd "$(dirname "$0")/.." && pwd)
echo "DATE=$(date '+%Y-%m-%d %H:%M %Z')"
echo "QUICK=${1:-0}"
echo "COMMIT=$(git -c safe.directory="$top" -C "$top" describe --always --dirty 2>/dev/null || echo unknown)"
echo "NPROC=$(nproc)"
echo "CPU=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)"
echo "HOST_KERNEL=$(uname -r)"
if [ "${2:-}" != host ]; then
	echo "QEMU=$(qemu-system-x86_64 --version 2>/dev/null | head -n1)"
	exit 0
fi
# xl info: "key   : value" lines.
xlinfo() { xl info 2>/dev/null | sed -n "s/^$1 *: //p"; }
echo "RUN=host"
echo "XEN=$(xlinfo xen_version)"
echo "XEN_CMDLINE=$(xlinfo xen_commandline)"
echo "XEN_SCHED=$(xlinfo xen_scheduler)"
echo "HOST_CPUS=$(xlinfo nr_cpus)"
echo "HOST_TOPOLOGY=$(xlinfo nr_nodes) node(s), $(xlinfo cores_per_socket) cores/socket, $(xlinfo threads_per_core) threads/core"
echo "HOST_MEM_MIB=$(xlinfo total_memory)"
echo "DISTRO=$(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME") ($(cat /etc/debian_version 2>/dev/null))"
echo "DOM0_CMDLINE=$(cat /proc/cmdline)"
echo "IPERF3=$(iperf3 --version 2>/dev/null | head -n1)"
