#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# need.sh PKG... | need.sh -f LIST: make sure these Debian packages are
# installed before a make target uses them.  As root, the missing ones are
# installed with apt-get (after an `apt-get update` if the first try
# fails: a fresh box has no package lists); otherwise it prints the exact
# command to run and fails.  LIST files hold one package a line, # comments.
set -euo pipefail

pkgs=()
while [ $# -gt 0 ]; do
	if [ "$1" = -f ]; then
		mapfile -t -O ${#pkgs[@]} pkgs < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$2")
		shift 2
	else
		pkgs+=("$1")
		shift
	fi
done

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

cmd="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
	echo "need: missing packages: ${missing[*]}; install them with:" >&2
	echo "  sudo $cmd" >&2
	exit 1
fi
echo "need: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -q --no-install-recommends "${missing[@]}" ||
	{ apt-get update -q && apt-get install -y -q --no-install-recommends "${missing[@]}"; } || {
	echo "need: could not install ${missing[*]}; try: $cmd" >&2
	exit 1
}
