#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A Debian 13 (trixie) build root for building the module against the
# newest kernel headers Debian ships (6.12).  The host is Debian 12: its
# gcc-12 cannot build with trixie's kernel flags and trixie's objtool
# needs a newer glibc, so the build runs inside this chroot.
#
#   scripts/buildroot.sh                  create the root if missing (cached),
#                                         add EXTRA_PKGS it lacks
#   scripts/buildroot.sh exec DIR CMD...  run CMD in the root, cwd /xnb,
#                                         with DIR bind-mounted at /xnb
#
# The bind mounts live in a private mount namespace, so nothing is left
# mounted when CMD ends, however it ends.
set -euo pipefail

LAB_CACHE=${LAB_CACHE:-/var/cache/xnb-lab}
MIRROR=$("$(dirname "$0")/apt-mirror.sh")
SUITE=${BUILDROOT_SUITE:-trixie}
BUILDROOT=${BUILDROOT:-$LAB_CACHE/buildroot-$SUITE}
# linux-headers-amd64 brings the headers of Debian's current kernel, its
# kbuild tools and the matching compiler package; W=1 runs kernel-doc,
# a perl script that needs more than perl-base.
PKGS="gcc-14 make libc6-dev perl linux-headers-amd64"
# Tools added later (sparse: make lint against 6.12).  apt installs them
# into an existing root: they are not part of the debootstrap key, so a
# new one does not debootstrap the root again.
EXTRA_PKGS="sparse"

log() { echo "buildroot: $*" >&2; }

create() {
	local key
	key=$(printf '%s\n' "$SUITE" "$MIRROR" "$PKGS" | sha256sum | cut -c1-12)
	if [ -e "$BUILDROOT/.done" ] && [ "$(cat "$BUILDROOT/.done")" = "$key" ]; then
		return 0
	fi
	log "debootstrap $SUITE into $BUILDROOT (takes a few minutes)"
	rm -rf "$BUILDROOT"
	mkdir -p "$BUILDROOT"
	# shellcheck disable=SC2086
	if ! debootstrap --variant=minbase --include="$(echo $PKGS | tr ' ' ,)" \
		"$SUITE" "$BUILDROOT" "$MIRROR" > "$BUILDROOT.log" 2>&1; then
		tail -n 30 "$BUILDROOT.log" >&2
		exit 1
	fi
	echo "$key" > "$BUILDROOT/.done"
	log "ready: $(ls -d "$BUILDROOT"/usr/src/linux-headers-*-amd64)"
}

# enter DIR CMD...: run CMD in the root, cwd /xnb, DIR bind-mounted there.
# The bind mounts live in a private mount namespace.
enter() {
	local dir
	dir=$(cd "$1" && pwd)
	shift
	mkdir -p "$BUILDROOT/xnb"
	# $1.. are expanded by the inner shell, on purpose.
	# shellcheck disable=SC2016
	unshare --mount --propagation private sh -ec '
		root=$1 dir=$2
		shift 2
		mount --bind "$dir" "$root/xnb"
		mount --bind /dev "$root/dev"
		mount -t proc proc "$root/proc"
		exec chroot "$root" sh -c "cd /xnb && exec \"\$@\"" sh "$@"
	' sh "$BUILDROOT" "$dir" "$@"
}

# EXTRA_PKGS the root lacks, from the suite's apt (its lists may be stale).
extras() {
	local missing=() p
	for p in $EXTRA_PKGS; do
		dpkg-query --admindir="$BUILDROOT/var/lib/dpkg" -W -f='${Status}' "$p" \
			2> /dev/null | grep -q 'install ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	log "installing ${missing[*]} into $BUILDROOT"
	local apt=(env DEBIAN_FRONTEND=noninteractive apt-get -q -y
		-o APT::Install-Recommends=false -o APT::Sandbox::User=root)
	local aptlog=$BUILDROOT.apt.log
	enter /tmp "${apt[@]}" install "${missing[@]}" > "$aptlog" 2>&1 && return 0
	if ! { enter /tmp "${apt[@]}" update &&
		enter /tmp "${apt[@]}" install "${missing[@]}"; } > "$aptlog" 2>&1; then
		tail -n 30 "$aptlog" >&2
		exit 1
	fi
}

# On the host, only when asked to (need.sh: XNB_YES=1, or y/N); the
# EXTRA_PKGS above go into the build root alone.
command -v debootstrap > /dev/null || "$(dirname "$0")/need.sh" debootstrap
mkdir -p "$(dirname "$BUILDROOT")"
# One creation at a time; users of a finished root do not wait on each other.
exec 9> "$BUILDROOT.lock"
flock 9
create
extras
flock -u 9

case ${1:-} in
"")
	echo "$BUILDROOT"
	;;
exec)
	[ $# -ge 3 ] || { log "usage: $0 exec DIR CMD..."; exit 2; }
	shift
	exec 9>&-
	enter "$@"
	;;
*)
	log "usage: $0 [exec DIR CMD...]"
	exit 2
	;;
esac
