#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# need.sh PKG... | need.sh -f LIST: make sure these Debian packages are
# installed before a make target uses them.  The missing ones are
# installed with apt-get only when asked to: as root, with XNB_YES=1, or
# after a "y" on the terminal (y/N); otherwise it prints the exact
# command to run and fails.  CI=true alone is no such word: a CI
# variable leaks into root shells.  An install that fails is tried once
# more after an `apt-get update` (a fresh box has no package lists).
# LIST files hold one package a line, # comments.
set -euo pipefail

pkgs=()
while [ $# -gt 0 ]; do
	if [ "$1" = -f ]; then
		[ $# -ge 2 ] || { echo "usage: need.sh PKG... | need.sh -f LIST" >&2; exit 2; }
		mapfile -t -O ${#pkgs[@]} pkgs < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' -e '/^$/d' "$2")
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
echo "need: missing packages: ${missing[*]}; to install them:" >&2
echo "  $cmd" >&2
if [ "${XNB_YES:-0}" = 1 ]; then
	echo "need: installing them (XNB_YES=1)" >&2
elif [ -t 0 ]; then
	read -r -p "need: run it now? [y/N] " answer
	case $answer in
	[yY] | [yY][eE][sS]) ;;
	*)
		echo "need: not installed; run it yourself, or the make target again with XNB_YES=1" >&2
		exit 1
		;;
	esac
else
	echo "need: no terminal to ask on: run it yourself, or the make target again with XNB_YES=1" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -q --no-install-recommends "${missing[@]}" ||
	{ apt-get update -q && apt-get install -y -q --no-install-recommends "${missing[@]}"; } || {
	echo "need: could not install ${missing[*]}; try: $cmd" >&2
	exit 1
}
