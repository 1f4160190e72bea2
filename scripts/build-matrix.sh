#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the module with W=1 against each kernel we support; any compiler
# or kbuild warning fails.
#
#   scripts/build-matrix.sh [6.1] [6.12] [noheaders]   (default: all)
#
#   6.1   Debian 12: the lab's headers ($LAB_CACHE/kdir), the host's gcc-12.
#   6.12  Debian 13: the headers inside the trixie build root
#         (scripts/buildroot.sh), its gcc-14.
#   noheaders  a dom0 without headers: make fails and names the package.
#
# Each kernel builds in its own copy of the sources, build/<kernel>/, so
# the checkout's own build (make) is left alone.  XNB_VERSION (from the
# Makefile) becomes MODULE_VERSION.
set -euo pipefail

cd "$(dirname "$0")/.."
LAB_CACHE=${LAB_CACHE:-/var/cache/xnb-lab}
XNB_VERSION=${XNB_VERSION:-$(scripts/version.sh)}

log() { echo "build-matrix: $*" >&2; }

# copy_sources DIR: what the module build reads, nothing else.
copy_sources() {
	rm -rf "$1"
	mkdir -p "$1/drivers/net/xen-netback" "$1/include/xen"
	cp Kbuild VERSION "$1/"
	cp drivers/net/xen-netback/Kbuild "$1/drivers/net/xen-netback/"
	for f in drivers/net/xen-netback/*.[ch] include/xen/*.h; do
		case $f in *.mod.c) continue ;; esac	# generated
		cp "$f" "$1/$f"
	done
}

# check LOG: fail on any warning or error line, in any case: gcc writes
# "warning:", modpost "WARNING: modpost:".
check() {
	if grep -iE 'warning:|error:|error [0-9]' "$1"; then
		return 1
	fi
}

build_61() {
	local dir=build/6.1 kdir=$LAB_CACHE/kdir
	[ -e "$kdir/Makefile" ] || { log "no 6.1 headers at $kdir: run make lab-fetch"; return 1; }
	copy_sources "$dir"
	log "6.1: $(readlink -f "$kdir")"
	make -C "$kdir" M="$PWD/$dir" W=1 XNB_VERSION="$XNB_VERSION" modules \
		> "$dir/build.log" 2>&1 || { cat "$dir/build.log"; return 1; }
	check "$dir/build.log"
	/sbin/modinfo -F vermagic "$dir/drivers/net/xen-netback/xen-netback.ko"
}

build_612() {
	local dir=build/6.12
	scripts/buildroot.sh > /dev/null
	copy_sources "$dir"
	log "6.12: in $(scripts/buildroot.sh)"
	# The glob is for the chroot's shell; there is one headers tree.
	# shellcheck disable=SC2016
	scripts/buildroot.sh exec "$dir" sh -c \
		'make -C /usr/src/linux-headers-*-amd64 M=/xnb W=1 XNB_VERSION="$1" modules' \
		sh "$XNB_VERSION" > "$dir/build.log" 2>&1 || { cat "$dir/build.log"; return 1; }
	check "$dir/build.log"
	/sbin/modinfo -F vermagic "$dir/drivers/net/xen-netback/xen-netback.ko"
}

# Without a kernel tree, make must fail with the apt command that brings
# the running kernel's headers, not with make's "No such file".
build_noheaders() {
	local out
	if out=$(make -s KDIR=/nonexistent/xnb-no-headers modules 2>&1); then
		log "noheaders: make succeeded without a kernel tree"
		return 1
	fi
	grep -qF "apt-get install linux-headers-$(uname -r)" <<< "$out" ||
		{ echo "$out"; log "noheaders: make did not name the headers package"; return 1; }
}

[ $# -gt 0 ] || set -- 6.1 6.12 noheaders
for k; do
	case $k in
	6.1) build_61 ;;
	6.12) build_612 ;;
	noheaders) build_noheaders; log "noheaders: names linux-headers-$(uname -r)"; continue ;;
	*) log "unknown kernel $k (6.1, 6.12 or noheaders)"; exit 2 ;;
	esac
	log "$k: W=1 clean"
done
