#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The Debian archive this machine's apt takes its packages from, for the
# debootstraps of the lab and of the build root: a dom0 may reach only
# its local mirror, so the tree names none.
#
#   scripts/apt-mirror.sh     prints the archive's URI
#
# LAB_MIRROR, when set, is the answer.  Otherwise the first enabled
# "deb" source (/etc/apt/sources.list, then sources.list.d/*.list and
# *.sources in name order) whose suites include this machine's codename
# (VERSION_CODENAME in /etc/os-release) or one of the archive's aliases
# (stable, oldstable, testing, unstable, sid: the same archive, which
# the debootstraps ask for their own suite) and whose components
# include main.  XNB_APT_ROOT prefixes those paths (the test's fake
# root).
set -euo pipefail

root=${XNB_APT_ROOT:-}
if [ -n "${LAB_MIRROR:-}" ]; then
	echo "$LAB_MIRROR"
	exit 0
fi
# shellcheck source=/dev/null
codename=$(. "$root/etc/os-release" 2>/dev/null && echo "${VERSION_CODENAME:-}") || codename=
if [ -z "$codename" ]; then
	echo "apt-mirror: no VERSION_CODENAME in $root/etc/os-release; set LAB_MIRROR" >&2
	exit 1
fi

# one_line FILE...: "URI SUITE COMPONENTS..." of each deb line, its
# [options] dropped.
one_line() {
	awk '{ sub(/#.*/, "") }
	     $1 == "deb" { sub(/\[[^]]*\]/, ""); $1 = ""; print }' "$@"
}

# deb822 FILE...: the same, one line per URI and suite of each enabled
# paragraph of Types deb.
deb822() {
	awk -v RS= -F '\n' '{
		types = uris = suites = comps = ""; enabled = "yes"
		for (i = 1; i <= NF; i++) {
			line = $i
			if (line ~ /^#/) continue
			key = tolower(line); sub(/:.*/, "", key)
			val = line; sub(/^[^:]*:[ \t]*/, "", val)
			if (key == "types") types = val
			else if (key == "uris") uris = val
			else if (key == "suites") suites = val
			else if (key == "components") comps = val
			else if (key == "enabled") enabled = tolower(val)
		}
		if (enabled == "no" || (" " types " ") !~ / deb /) next
		nu = split(uris, u, /[ \t]+/); ns = split(suites, s, /[ \t]+/)
		for (a = 1; a <= nu; a++) for (b = 1; b <= ns; b++)
			if (u[a] != "" && s[b] != "") print u[a], s[b], comps
	}' "$@"
}

sources() {
	local f
	[ ! -f "$root/etc/apt/sources.list" ] || one_line "$root/etc/apt/sources.list"
	for f in "$root"/etc/apt/sources.list.d/*; do
		case $f in
		*.list) one_line "$f" ;;
		*.sources) deb822 "$f" ;;
		esac
	done
}

uri=$(sources | awk -v c="$codename" '
BEGIN { n = split(c " stable oldstable testing unstable sid", a, " "); for (i = 1; i <= n; i++) suite[a[i]] = 1 }
{
	main = 0
	for (i = 3; i <= NF; i++) if ($i == "main") main = 1
	if (($2 in suite) && main) { sub(/\/+$/, "", $1); print $1; exit }
}')
if [ -z "$uri" ]; then
	echo "apt-mirror: no apt source of $codename main in $root/etc/apt; set LAB_MIRROR" >&2
	exit 1
fi
echo "$uri"
