#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make install, make uninstall: the module into and out of
# /lib/modules/<kver>/<INSTALL_MOD_DIR>/ (updates/, which modprobe
# prefers to the kernel's own driver), so that a host never ends up
# with a xen-netback it cannot load.
#
#   install.sh install KO KVER    refuses an unsigned KO where the kernel
#                                 loads only signed modules; keeps the
#                                 file it replaces; depmod; says what
#                                 modprobe takes now and what runs
#   install.sh uninstall KVER     removes ours, puts back the file the
#                                 first install replaced; depmod; says
#                                 what modprobe takes now
#
# Environment (the Makefile passes its variables of the same names):
#   INSTALL_MOD_PATH   root of an image to install into; empty: this host.
#                      An image boots a kernel other than the running
#                      one: no signature check, nothing said of what runs.
#   INSTALL_MOD_DIR    under /lib/modules/<kver>/ (default updates)
#   KDIR               the kernel build tree, for the signing hint
#   XNB_ALLOW_UNSIGNED=1  install an unsigned module all the same on a
#                      host that enforces signatures (an admin who knows
#                      the kernel takes it).  That is the running kernel's
#                      policy, checked even when KVER is another kernel:
#                      sig_enforce, lockdown, and when neither file is
#                      there, EFI Secure Boot (on, or an EFI system that
#                      does not tell)
#
# State, kept from the first install to the uninstall:
# /var/lib/xen-netback-wg/<kver>/ (under INSTALL_MOD_PATH): replaced.ko
# (the file that install overwrote, if any, unless it was a build of
# ours) and info (what modprobe took before it, our file's sha256).
# An uninstall that put a file back
# leaves only restored (that file's sha256), so that a second uninstall
# does not take it away too.
#
# As root, it writes only where no other user can change or redirect
# the path: every existing directory of the module's and the state's
# paths below INSTALL_MOD_PATH root's, writable by root alone, a
# symbolic link among them root's and leading to such a directory.
# INSTALL_MOD_DIR is a path below /lib/modules/<kver>/: no "..", not
# absolute.
#
# For tests (tests/install/): with XNB_INSTALL_TEST=1, and never under
# sudo or pkexec, whose kept environment must not pick what root
# writes, XNB_INSTALL_ROOT prefixes every path (/sys, /proc,
# /lib/modules, /var/lib); modinfo, depmod and mokutil are those of PATH;
# XNB_INSTALL_EUID stands for the effective uid and XNB_INSTALL_ROOT_UID
# for the owner root's files have (default 0).
set -euo pipefail
export LC_ALL=C

if [ "${XNB_INSTALL_TEST:-}" != 1 ] || [ -n "${SUDO_UID:-}${PKEXEC_UID:-}" ]; then
	unset XNB_INSTALL_ROOT XNB_INSTALL_EUID XNB_INSTALL_ROOT_UID
fi
euid=${XNB_INSTALL_EUID:-$(id -u)}
root_uid=${XNB_INSTALL_ROOT_UID:-0}
root=${XNB_INSTALL_ROOT:-}
img=${INSTALL_MOD_PATH:-}
base=$root$img
subdir=${INSTALL_MOD_DIR:-updates}
MARK='~Module signature appended~'
# shellcheck disable=SC2016	# the backquotes are for the reader
ACTIVATE='active after `modprobe -r xen-netback && modprobe xen-netback` with no guest running, or the next boot'

me=${1:-}
say() { echo "$me: $*"; }
die() { echo "$me: $*" >&2; exit 1; }

# depmod and modinfo see the tree under $base.
bopt=()
[ -z "$base" ] || bopt=(-b "$base")

# pick KVER: the file modprobe loads as xen-netback for KVER (depmod's
# choice), "(builtin)", or nothing.
pick() {
	modinfo "${bopt[@]}" -k "$1" -F filename xen-netback 2>/dev/null | head -n1 || true
}

# ours FILE: FILE is a build of this driver (its MODULE_DESCRIPTION).
OURS_DESC='Xen network backend with worker groups'
ours() {
	local d
	d=$(modinfo -F description "$1" 2>/dev/null) || d=
	[[ $d == "$OURS_DESC"* ]]
}

# describe FILE: FILE and whose it is, in words.
describe() {
	local v
	case $1 in
	"") echo "none: kernel $kver has no xen-netback" ;;
	"(builtin)") echo "the kernel's own, built in" ;;
	*/kernel/drivers/net/xen-netback/*) echo "$1 (stock: the kernel's own)" ;;
	*)
		v=$(modinfo -F version "$1" 2>/dev/null) || v=
		if [ -z "$v" ]; then
			echo "$1 (no version: not ours)"
		elif ours "$1"; then
			echo "$1 (version $v)"
		else
			echo "$1 (version $v: not ours)"
		fi
		;;
	esac
}

# loaded: the xen-netback running on this host now.
loaded() {
	local m=$root/sys/module/xen_netback
	if [ -r "$m/version" ]; then
		echo "xen-netback-wg $(cat "$m/version")"
	elif [ -d "$m" ]; then
		echo "stock (the kernel's own xen-netback)"
	else
		echo "none (xen-netback is not loaded)"
	fi
}

# The EFI variable that holds the Secure Boot state: 4 bytes of
# attributes, then 1 (on) or 0 (off).
SB_VAR=/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c

# secure_boot: on, off, or unknown (an EFI system that does not say);
# none without EFI.
secure_boot() {
	local v
	[ -d "$root/sys/firmware/efi" ] || { echo none; return; }
	v=$(od -An -tu1 -j4 -N1 "$root$SB_VAR" 2>/dev/null | tr -d ' ') || v=
	case $v in
	1) echo on; return ;;
	0) echo off; return ;;
	esac
	v=$(mokutil --sb-state 2>/dev/null) || v=
	case $v in
	*"SecureBoot enabled"*) echo on ;;
	*"SecureBoot disabled"*) echo off ;;
	*) echo unknown ;;
	esac
}

# enforced: why the running kernel loads only signed modules, or
# nothing.  Without sig_enforce and lockdown files to say, Secure Boot
# decides: on, or an EFI system that does not tell, counts as enforcing.
enforced() {
	local why=() v se=$root/sys/module/module/parameters/sig_enforce
	local ld=$root/sys/kernel/security/lockdown
	v=$(cat "$se" 2>/dev/null) || v=
	[ "$v" != Y ] || why+=("module.sig_enforce=Y")
	v=$(cat "$ld" 2>/dev/null) || v=
	v=$(sed -n 's/.*\[\([a-z]*\)\].*/\1/p' <<< "$v")
	[ -z "$v" ] || [ "$v" = none ] || why+=("lockdown=$v")
	if [ ! -e "$se" ] && [ ! -e "$ld" ]; then
		case $(secure_boot) in
		on) why+=("Secure Boot on, and no sig_enforce or lockdown file to say more") ;;
		unknown) why+=("an EFI system that does not tell whether Secure Boot is on, taken as on; no sig_enforce or lockdown file to say more") ;;
		esac
	fi
	echo "${why[*]}"
}

# unsafe PATH: why root should not write under PATH, or nothing: the
# first existing directory of it below $base that is not root's, is
# writable by others than root, or is a symbolic link that is not
# root's (a link is judged by where it leads, too).
unsafe() {
	local p=$base c st
	local -a parts
	IFS=/ read -r -a parts <<< "${1#"$base"}"
	for c in "${parts[@]}"; do
		[ -n "$c" ] || continue
		p=$p/$c
		if [ -L "$p" ]; then
			st=$(stat -c %u "$p")
			[ "$st" = "$root_uid" ] || { echo "$p is a symbolic link that is not root's"; return; }
		fi
		[ -e "$p" ] || return 0
		# %u %g %a of the directory (where a link leads).
		read -r -a st < <(stat -L -c '%u %g %a' "$p")
		if [ "${st[0]}" != "$root_uid" ]; then
			echo "$p is not root's"
		elif (( 8#${st[2]} & 2 )); then
			echo "$p is writable by every user"
		elif (( 8#${st[2]} & 16 )) && [ "${st[1]}" != 0 ]; then
			echo "$p is writable by its group ${st[1]}"
		else
			continue
		fi
		return
	done
}

# root_safe: as root, a refusal when the module's or the state's path
# is unsafe.
root_safe() {
	local why
	[ "$euid" = 0 ] || return 0
	why=$(unsafe "${dest%/*}")
	[ -n "$why" ] || why=$(unsafe "$state")
	[ -n "$why" ] || return 0
	die "refused: running as root, and $why: another user could redirect what root writes there.  Nothing was changed.  Install into a tree of your own as yourself (no root needed for an image), or make the tree root's."
}

signed() { printf '%s\n' "$MARK" | cmp -s - <(tail -c $((${#MARK} + 1)) "$1"); }

sha() { sha256sum < "$1" | cut -d' ' -f1; }

# running: the running kernel's release.
running() { cat "$root/proc/sys/kernel/osrelease" 2>/dev/null || uname -r; }

# other_kernel: when KVER is not the running kernel, a note that the
# signature check was of the running one.
other_kernel() {
	[ "$(running)" = "$kver" ] ||
		echo " (the running kernel's policy: kernel $kver is taken to boot under the same)"
}

refuse_unsigned() {	# KO WHY
	local kd=${KDIR:-/lib/modules/$kver/build}
	cat >&2 <<EOF
$me: refused: the running kernel loads only signed modules ($2)$(other_kernel), and
  $1 is not signed.  Installed, it would be the
  xen-netback modprobe takes: the kernel would refuse it at the next load
  or boot, and every guest would lose its network.  Nothing was changed.
Either:
  - install with DKMS, which signs the module with its key (on Debian
    /var/lib/dkms/mok.key, enrolled once with mokutil --import
    /var/lib/dkms/mok.pub): the package (make deb, then apt install
    ./build/deb/xen-netback-wg-dkms_*_all.deb) or make dkms-install;
  - or sign this build with a key the kernel trusts (an enrolled MOK),
    then make install again:
      $kd/scripts/sign-file sha256 /var/lib/dkms/mok.key /var/lib/dkms/mok.pub $1
  - or, knowing that the kernel will take it: make install XNB_ALLOW_UNSIGNED=1
docs/install.md, "Secure Boot", has the details.
EOF
	exit 1
}

do_install() {
	local ko=$1 dest=$2 state=$3 why prev before signer now new
	[ -f "$ko" ] || die "no module at $ko: build it first (make)"
	if [ -n "$img" ]; then
		signed "$ko" ||
			say "note: $ko is not signed; a kernel that enforces signatures will refuse it in $img"
	else
		why=$(enforced)
		if [ -z "$why" ]; then
			:
		elif signed "$ko"; then
			signer=$(modinfo -F signer "$ko" 2>/dev/null) || signer=
			say "the running kernel loads only signed modules ($why)$(other_kernel): $ko is signed${signer:+ by \"$signer\"}, a key the kernel must trust (mokutil --list-enrolled)"
		elif [ "${XNB_ALLOW_UNSIGNED:-0}" = 1 ]; then
			say "WARNING: the running kernel loads only signed modules ($why)$(other_kernel) and $ko is not signed: installing it all the same (XNB_ALLOW_UNSIGNED=1)"
		else
			refuse_unsigned "$ko" "$why"
		fi
	fi

	prev=$(pick "$kver")
	before=$(describe "$prev")
	if [ -f "$state/info" ]; then
		say "keeping the backup of the first install in $state: make uninstall puts back what that install replaced"
	else
		mkdir -p "${state%/*}"
		new=$(mktemp -d "${state%/*}/.$kver.XXXXXX")
		if [ -f "$dest" ] && ours "$dest"; then
			# An earlier make install of ours that kept no backup:
			# the file to go back to is the one beneath it.
			say "replacing $(describe "$dest"), an earlier install of this driver: not kept, make uninstall removes this driver and modprobe then takes what is beneath it (the kernel's own)"
			[ "$prev" != "$dest" ] || prev=
		elif [ -f "$dest" ]; then
			cp -p "$dest" "$new/replaced.ko"
			say "replacing $(describe "$dest"); kept in $state/replaced.ko"
		fi
		echo "before=$prev" > "$new/info"
		chmod 0755 "$new"
		rm -rf "$state"
		mv "$new" "$state"
	fi

	# Whole or not at all: modprobe never sees half a file.
	new=$dest.xnb-new
	install -D -m 0644 "$ko" "$new"
	mv -f "$new" "$dest"
	touch "$state/info"
	sed -i '/^sha256=/d' "$state/info"
	echo "sha256=$(sha "$dest")" >> "$state/info"
	depmod -a "${bopt[@]}" "$kver"

	say "installed $(describe "$dest")"
	say "before it, modprobe took: $before"
	now=$(pick "$kver")
	if [ "$now" != "$dest" ]; then
		say "WARNING: modprobe takes $(describe "$now"), not this install: a depmod.d override (the package's /etc/depmod.d/xen-netback-wg.conf chooses updates/dkms) or an earlier search path wins"
	fi
	finish
	say "undo: make uninstall (with the same KDIR${img:+ and INSTALL_MOD_PATH})"
}

do_uninstall() {
	local dest=$1 state=$2 before='' want='' line now back=''
	if [ -f "$state/info" ]; then
		while IFS= read -r line; do
			case $line in
			before=*) before=${line#before=} ;;
			sha256=*) want=${line#sha256=} ;;
			esac
		done < <(cat "$state/info" 2>/dev/null)
		if [ -f "$dest" ] && [ -n "$want" ] && [ "$(sha "$dest")" != "$want" ]; then
			say "note: $dest changed since make install put it there; removing it all the same"
		fi
		rm -f "$dest"
		say "removed $dest"
		if [ -f "$state/replaced.ko" ]; then
			install -m 0644 "$state/replaced.ko" "$dest.xnb-new"
			mv -f "$dest.xnb-new" "$dest"
			say "put back $(describe "$dest"), the file make install had replaced"
			back=$(sha "$dest")
		fi
		rm -rf "$state"
		if [ -n "$back" ]; then
			mkdir -p "$state"
			echo "$back" > "$state/restored"
		fi
	elif [ -f "$dest" ] && [ "$(cat "$state/restored" 2>/dev/null)" = "$(sha "$dest")" ]; then
		say "nothing of ours installed: $dest is the file make uninstall put back; left there"
	elif [ -f "$dest" ]; then
		rm -f "$dest"
		rm -rf "$state"
		say "removed $dest (no backup recorded: nothing to put back)"
	else
		rm -rf "$state"
		say "nothing installed at $dest"
	fi
	depmod -a "${bopt[@]}" "$kver"

	now=$(pick "$kver")
	say "modprobe now takes: $(describe "$now")"
	[ -z "$before" ] || [ "$before" = "$now" ] ||
		say "note: before make install, it took $(describe "$before")"
	[ -n "$now" ] ||
		say "WARNING: kernel $kver has no xen-netback now: guests get no network from its next load on"
	finish
}

# What changes when, and what runs now.
finish() {
	local run
	if [ -n "$img" ]; then
		say "active when $img boots kernel $kver"
		return
	fi
	run=$(running)
	if [ "$run" = "$kver" ]; then
		say "$ACTIVATE"
	else
		say "kernel $kver is not the running one ($run): active when $kver boots"
	fi
	say "loaded now: $(loaded)"
}

case $me in
install)
	[ $# -eq 3 ] || die "usage: $0 install KO KVER"
	kver=$3
	ko=$2
	;;
uninstall)
	[ $# -eq 2 ] || die "usage: $0 uninstall KVER"
	kver=$2
	;;
*)
	echo "usage: $0 install KO KVER | uninstall KVER" >&2
	exit 2
	;;
esac
case $kver in
"" | */* | .*) die "not a kernel release: '$kver'" ;;
esac
case /$subdir/ in
/[/]* | */../*) die "INSTALL_MOD_DIR is a path below /lib/modules/$kver/, without '..': not '$subdir'" ;;
esac
dest=$base/lib/modules/$kver/$subdir/xen-netback.ko
state=$base/var/lib/xen-netback-wg/$kver
root_safe
if [ "$me" = install ]; then
	do_install "$ko" "$dest" "$state"
else
	do_uninstall "$dest" "$state"
fi
