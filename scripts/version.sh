#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# scripts/version.sh: the module's version (MODULE_VERSION, what
# /sys/module/xen_netback/version shows), from the VERSION file, the one
# source of the version number.  In a git checkout whose HEAD is not the
# release tag v<VERSION>, +g<commit> follows (0.2.0+g1a2b3c4d5e6f), and
# .dirty after that when tracked files have local changes.  A tree
# without .git (DKMS, the Debian package, a tarball) is the release:
# VERSION alone.
set -eu

cd "$(dirname "$0")/.."
v=$(cat VERSION)
suffix=
if [ -e .git ] && ! h=$(git -c safe.directory="$PWD" rev-parse --short=12 HEAD 2>/dev/null); then
	# A checkout git will not read (another user's): not the release.
	suffix=+unknown
elif [ -e .git ]; then
	git -c safe.directory="$PWD" describe --tags --exact-match --match "v$v" HEAD > /dev/null 2>&1 ||
		suffix=+g$h
	if [ -n "$(git -c safe.directory="$PWD" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
		suffix=${suffix:-+g$h}.dirty
	fi
fi
echo "$v$suffix"
