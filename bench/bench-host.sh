#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make bench-host`: the bench of `make bench` on a real Xen host, run by
# its admin as root in dom0 from a checkout of this tree.  The same
# alternation (bench_run of tests/lab/bench-lib.sh: the veth ceiling, then
# one cycle per configuration, ours and the kernel's own xen-netback
# switched between cycles, the order reversed every other repetition),
# with small PV guests of its own, and the same report (bench/aggregate.py).
#
#   bench/bench-host.sh [--quick] [--yes] [--check] [--no-report]
#   bench/bench-host.sh --restore
#
#   --quick      the quick set: 1 repetition, 2 s runs, 2 guests (QUICK=1)
#   --yes        install missing Debian packages without asking (XNB_YES=1)
#   --check      check the prerequisites and that the host is free; change
#                nothing
#   --no-report  write the raw figures and the machine's facts only (no
#                python3 needed), to aggregate elsewhere
#   --restore    after a run cut short (kill -9, OOM, a dropped ssh): destroy
#                its guests, remove its bridge and load the xen-netback of
#                before again, from build/bench-host/state
#
# What it does to the host: builds our module for the running kernel
# (make modules) and a guest initramfs (tests/lab/host/lab-guest.sh:
# busybox, xen-netfront, iperf3 and the xenstore clients of this dom0;
# the guests' kernel is dom0's own); creates bridge xnbbench0 with
# 192.0.2.1/24 and no uplink; unloads the loaded xen-netback and switches
# between ours and stock for each cycle, which is why it refuses to start
# while any domain but dom0 exists or any vif is bound to a backend; boots
# up to BENCH_GUESTS guests g1..gN (and g<N+1> for the floods' ping);
# drops the page cache between cycles.
# Before every module swap it checks again that no other domain exists,
# and ends the whole run (exit 3) if one does.  On exit, Ctrl-C included,
# the guests are destroyed, the bridge removed, dom0's memory given back
# and the xen-netback loaded before loaded again, with its parameters;
# build/bench-host/state keeps what --restore needs until then.
#
# Results: BENCH_RESULTS (default build/bench-results)/host-<stamp>.md,
# .csv, .png as `make bench` writes them, with .log (the raw figures and
# the teardown), .env (the machine) and .dmesg (the kernel's log of the
# run) beside them.  Other knobs: BENCH_SET, BENCH_T, ...
# (bench/README.md); BENCH_HOST_IMAGES=DIR, a guest made elsewhere
# (guest.cpio.gz and a kernel, vmlinux or vmlinuz, with the same
# xen-netfront) for a host that cannot build one (no network for apt, no
# busybox); BENCH_HOST_MODULE=FILE, our module built elsewhere for the
# running kernel; BENCH_HOST_BRIDGE (xnbbench0).
#
# Exit status: 0 done; 1 the bench or its report broke, or the module of
# before could not be loaded again (what is loaded and how to recover
# are printed); 2 a prerequisite is missing; 3 refused, the host is not
# free (nothing was changed), or the run ended because a domain not the
# bench's appeared (its backend is left loaded: --restore once it is gone).
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd -P)
top=$(dirname "$here")
lab=$top/tests/lab
QUICK=${QUICK:-0} yes=${XNB_YES:-0} check=0 report=1 restore=0
for a; do
	case $a in
	--quick) QUICK=1 ;;
	--yes) yes=1 ;;
	--check) check=1 ;;
	--no-report) report=0 ;;
	--restore) restore=1 ;;
	-h|--help) sed -n '3,/^set /s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) echo "bench-host: unknown option $a (see --help)" >&2; exit 2 ;;
	esac
done
[ "$QUICK" = 1 ] || QUICK=0
say() { echo "bench-host: $*"; }
die() { echo "bench-host: $*" >&2; exit "${RC:-2}"; }
PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export PATH

# private_dir DIR: DIR and the directories above it, up to /, may be
# changed by root (or the sudo user who owns the checkout) alone: the run
# sources its state and executes what it staged there, as root.
private_dir() {
	local d=$1 own mode
	while :; do
		own=$(stat -c %u "$d" 2>/dev/null) && mode=$(stat -c %a "$d") ||
			{ echo "cannot stat $d"; return 1; }
		case $own in 0|"${SUDO_UID:-0}") ;; *) echo "$d is owned by uid $own"; return 1 ;; esac
		# Sticky directories (/tmp) let nobody replace what is not theirs.
		[ $((0$mode & 01000)) != 0 ] || [ $((0$mode & 022)) = 0 ] ||
			{ echo "$d is writable by others (mode $mode)"; return 1; }
		[ "$d" = / ] && return 0
		d=$(dirname "$d")
	done
}
# private_tree: private_dir of the checkout, and nothing in it (but
# build/, checked as it is made) that another user could change: its
# scripts are sourced and run, its module loaded, all as root.
private_tree() {
	local bad
	private_dir "$top" || return 1
	bad=$(find "$top" -path "$top/build" -prune -o ! -type l \( -perm /022 -o \
		\( ! -uid 0 ! -uid "${SUDO_UID:-0}" \) \) -print -quit 2>&1)
	[ -z "$bad" ] || { echo "$bad can be changed by another user"; return 1; }
}
[ "$(id -u)" = 0 ] ||
	die "run it as root (sudo make bench-host): it loads kernel modules, creates domains and a bridge"
why=$(private_tree) ||
	die "refusing to run: $why; it runs this checkout's files as root: check it out where only root (or you, through sudo) can write"
case $top in
*[[:space:]]*) die "the tree's path has a space ($top), which xl's configurations cannot take" ;;
esac
kver=$(uname -r)
br=${BENCH_HOST_BRIDGE:-xnbbench0}
stamp=$(date +%Y-%m-%d-%H%M%S)-$$
results=${BENCH_RESULTS:-$top/build/bench-results}
hostdir=$top/build/bench-host
stage=$hostdir/$stamp
# What --restore needs, from just before the run until its teardown is done.
statef=$hostdir/state

# need_private_dir: bench-host's own directory, made 0700 if need be,
# under directories nobody else may change; else die.
need_private_dir() {
	local why
	mkdir -p "${hostdir%/*}" && { [ -d "$hostdir" ] || mkdir -m 700 "$hostdir"; } ||
		die "cannot create $hostdir"
	why=$(private_dir "$hostdir") ||
		die "refusing to run: $why; $hostdir holds what the run executes as root (check the tree out where only root can write)"
	[ "$(stat -c %u "$hostdir")" = 0 ] || die "refusing to run: $hostdir must be root's"
	chmod 700 "$hostdir" || die "cannot make $hostdir private"
}

# The knobs and the configurations, from the library (as bench.sh does).
# shellcheck source=tests/lab/bench-lib.sh
. "$lab/bench-lib.sh"
set=${BENCH_SET:-full}
[ "$QUICK" = 1 ] && set=quick
export BENCH_BACKENDS=${BENCH_BACKENDS:-ours stock}
bench_knobs "$set"
bad=$(bench_rows_bad)
[ -z "$bad" ] || RC=1 die "BENCH_ROWS: no such rows: ${bad//$'\n'/ } (rows: $BENCH_ROW_NAMES)"
netback=stock
case " $BENCH_BACKENDS " in *" ours "*) netback=ours ;; esac
stocked=0
case " $BENCH_BACKENDS " in *" stock "*) stocked=1 ;; esac

# --- prerequisites ------------------------------------------------------------------
# The kernel's own xen-netback, and the one `modprobe xen-netback` loads
# (ours, when DKMS installed it, shadows the former).
stock_ko=$(find "/lib/modules/$kver/kernel/drivers/net/xen-netback" -name 'xen-netback.ko*' 2>/dev/null |
	head -n1)
modprobe_ko=$(modinfo -n xen-netback 2>/dev/null)
ours_ko=${BENCH_HOST_MODULE:-$top/drivers/net/xen-netback/xen-netback.ko}

fatal=() missing=() pkgs=()
# need COMMAND PACKAGE: COMMAND must be there; PACKAGE brings it.
need() { command -v "$1" > /dev/null 2>&1 || { missing+=("$1"); pkgs+=("$2"); }; }
prereqs() {
	local m
	fatal=() missing=() pkgs=()
	if [ "$(cat /sys/hypervisor/type 2>/dev/null)" != xen ]; then
		fatal+=("this Linux does not run under Xen (/sys/hypervisor/type): install xen-system-amd64 and boot GRUB's Xen entry")
	fi
	command -v xl > /dev/null ||
		fatal+=("no xl: this is not a Xen dom0 with its toolstack; install Xen yourself (Debian: xen-system-amd64), boot GRUB's Xen entry, then run this again")
	need xenstore-write xenstore-utils
	need xenstore-watch xenstore-utils
	need iperf3 iperf3
	need ip iproute2
	need ping iputils-ping
	need insmod kmod
	need ps procps
	if command -v xl > /dev/null && [ ${#fatal[@]} = 0 ] && ! xl info > /dev/null 2>&1; then
		fatal+=("'xl info' fails: this is not dom0, or its toolstack is not running (xenstored: systemctl status xen xenstored)")
	fi
	if grep -qs '/xen-netback\.ko' "/lib/modules/$kver/modules.builtin"; then
		fatal+=("xen-netback is built into this kernel ($kver): there is no module to swap")
	elif [ "$stocked" = 1 ] && [ -z "$stock_ko" ]; then
		fatal+=("the kernel's own xen-netback is not in /lib/modules/$kver/kernel/drivers/net/xen-netback/ (reinstall linux-image-$kver, or BENCH_BACKENDS=ours)")
	fi
	if [ "$(cat /proc/sys/kernel/modules_disabled 2>/dev/null)" = 1 ]; then
		fatal+=("module loading is disabled until reboot (/proc/sys/kernel/modules_disabled): the bench swaps modules")
	fi
	if [ "$netback" = ours ]; then
		if [ "$(cat /sys/module/module/parameters/sig_enforce 2>/dev/null)" = Y ] ||
		   grep -qs '\[\(integrity\|confidentiality\)\]' /sys/kernel/security/lockdown; then
			fatal+=("this kernel loads signed modules only (module.sig_enforce or lockdown, e.g. Secure Boot): sign ours with a key it trusts, then BENCH_HOST_MODULE=<the signed .ko>")
		fi
		if [ -z "${BENCH_HOST_MODULE:-}" ]; then
			need make make
			need gcc gcc
			[ -e "/lib/modules/$kver/build/Makefile" ] ||
				{ missing+=("the headers of $kver"); pkgs+=("linux-headers-$kver"); }
		elif [ ! -f "$BENCH_HOST_MODULE" ]; then
			fatal+=("BENCH_HOST_MODULE=$BENCH_HOST_MODULE: no such file")
		fi
	fi
	if [ -z "${BENCH_HOST_IMAGES:-}" ]; then
		need busybox busybox
		need cpio cpio
		need gzip gzip
		need depmod kmod
		[ -e "/boot/vmlinuz-$kver" ] ||
			fatal+=("no /boot/vmlinuz-$kver (the guests boot dom0's own kernel): reinstall linux-image-$kver yourself, or give a guest made elsewhere (BENCH_HOST_IMAGES)")
		m=$(modinfo -n xen-netfront 2>/dev/null)
		case $m in
		*.xz) need xz xz-utils ;;
		*.zst) need zstd zstd ;;
		esac
	fi
	if [ "$report" = 1 ]; then
		need python3 python3
		need gnuplot gnuplot-nox
	fi
}

# install_missing: name what is missing and the packages that bring it;
# install them after asking (or with --yes); fails if they stay missing.
install_missing() {
	local cmd answer
	mapfile -t pkgs < <(printf '%s\n' "${pkgs[@]}" | sort -u)
	cmd="apt-get install -y --no-install-recommends ${pkgs[*]}"
	say "missing: ${missing[*]}"
	say "the Debian packages that bring them, to install as root:"
	echo "    $cmd"
	[ "$check" = 0 ] || return 1
	if [ "$yes" = 1 ]; then
		say "installing them (--yes)"
	elif [ -t 0 ]; then
		read -r -p "bench-host: install them now? [y/N] " answer
		case $answer in
		[yY]|[yY][eE][sS]) ;;
		*) say "not installed; install them yourself, or run with --yes (make bench-host XNB_YES=1)"; return 1 ;;
		esac
	else
		say "no terminal to ask on: install them yourself, or run with --yes (make bench-host XNB_YES=1)"
		return 1
	fi
	command -v apt-get > /dev/null || { say "no apt-get here: install them by hand"; return 1; }
	export DEBIAN_FRONTEND=noninteractive
	# A box whose package lists are old or missing: update once and retry.
	apt-get install -y -q --no-install-recommends "${pkgs[@]}" ||
		{ apt-get update -q && apt-get install -y -q --no-install-recommends "${pkgs[@]}"; } ||
		return 1
	prereqs
	[ ${#missing[@]} = 0 ]
}

# host_free: nothing but dom0 may use the backend, and nothing of the
# admin's may be in the way of the bench's bridge, addresses and
# namespaces; else say why, and fail.
host_free() {
	local f l doms vifs="" addrs why=()
	if l=$(xl list 2>&1); then
		doms=$(echo "$l" | awk 'NR > 1 && $1 != "Domain-0" { printf "%s%s", s, $1; s = " " }')
		[ -z "$doms" ] || why+=("domains besides Domain-0: $doms")
	else
		why+=("'xl list' fails, so the domains cannot be listed: $l")
	fi
	for f in /sys/bus/xen-backend/devices/vif-* /sys/class/net/vif*; do
		[ -e "$f" ] && vifs+=" ${f##*/}"
	done
	[ -z "$vifs" ] || why+=("vifs bound to a backend:$vifs")
	addrs=$(ip -o -4 addr show 2>/dev/null | awk '$4 ~ /^192\.0\.2\./ { printf "%s%s on %s", s, $4, $2; s = ", " }')
	[ -z "$addrs" ] ||
		why+=("$addrs: the bench's guests use 192.0.2.0/24 (TEST-NET-1) on a bridge of its own")
	l=$(ip route show root 192.0.2.0/24 2>/dev/null | awk '{ printf "%s%s", s, $0; s = "; " }')
	[ -z "$l" ] || why+=("routes into 192.0.2.0/24: $l")
	ip link show dev "$br" > /dev/null 2>&1 && why+=("a link named $br exists (BENCH_HOST_BRIDGE=another name)")
	for f in xnbA xnbB; do
		ip netns list 2>/dev/null | grep -qw "$f" && why+=("network namespace $f exists (the bench's veth ceiling uses it)")
	done
	[ ${#why[@]} = 0 ] && return 0
	say "refusing to run: this host is not free for the bench:"
	printf '  - %s\n' "${why[@]}"
	cat <<'WHY'
The bench swaps the backend module between its runs (ours and the kernel's
stock xen-netback, rmmod then insmod/modprobe), which takes every vif down:
no other guest may use the backend meanwhile, and the module cannot be
unloaded while one does.  Shut those guests down (or move them to another
host), or run the bench on a host you can empty, then start it again.
Nothing was changed.
WHY
	return 1
}

# --- the teardown, also that of --restore ---------------------------------------------
# The run's own state: set below before the run, or read from $statef by
# --restore.  before: what was loaded ("none", or its description);
# before_how: modprobe or insmod, of before_ko with before_params (an
# array); before_exact: 0 when that file is not the module of before (not
# found: modprobe's is loaded instead, without parameters); dom0_mem:
# dom0's MiB before the run; t_start: its start, seconds since the epoch.
before=none before_ko="" before_how="" before_exact=1 before_params=() dom0_mem="" t_start=""
raw="" bench_pid="" br_made=0 started=0 torn=0 torn_rc=0
export BENCH_HOST=1 BENCH_HOST_DOMIDS=$stage/domids BENCH_HOST_ABORT=$stage/abort

# tsay: say, and into the raw log (the teardown is part of what to send).
tsay() {
	say "$@"
	[ -z "$raw" ] || echo "bench-host: $*" >> "$raw"
}
# foreign_domains: the domains neither dom0 nor the bench's (as recorded
# in BENCH_HOST_DOMIDS; one dying is "(null)"); fails if xl list does.
foreign_domains() {
	local l
	l=$(xl list 2>/dev/null) || return 1
	echo "$l" | awk -v f="$BENCH_HOST_DOMIDS" '
		BEGIN { while ((getline x < f) > 0) { split(x, a, " "); own[a[1]] = a[2] } }
		NR > 1 && $2 != 0 && !(($2 in own) && (own[$2] == $1 || $1 == "(null)")) {
			printf "%s%s (domid %s)", s, $1, $2; s = ", "
		}'
}
# own_vifs_left: a vif of a guest of the bench's still there.
own_vifs_left() {
	local id
	[ -f "$BENCH_HOST_DOMIDS" ] || return 1
	for id in $(awk '{ print $1 }' "$BENCH_HOST_DOMIDS"); do
		compgen -G "/sys/class/net/vif$id.*" > /dev/null && return 0
	done
	return 1
}
# before_cmd: the command that loads the module of before.
before_cmd() {
	if [ "$before_how" = modprobe ]; then
		printf 'modprobe xen-netback'
	else
		printf 'insmod %q' "$before_ko"
	fi
	[ ${#before_params[@]} = 0 ] || printf ' %q' "${before_params[@]}"
	echo
}
# load_before [PARAMS...]: load the module of before with PARAMS.
load_before() {
	if [ "$before_how" = modprobe ]; then
		modprobe xen-netback "$@"
	else
		insmod "$before_ko" "$@"
	fi
}
# now_loaded: what xen-netback is loaded now, and with which parameters.
now_loaded() {
	local f p=""
	if [ ! -d /sys/module/xen_netback ]; then
		tsay "now loaded: no xen-netback"
		return 0
	fi
	for f in /sys/module/xen_netback/parameters/*; do
		[ -r "$f" ] && p+=" ${f##*/}=$(cat "$f" 2> /dev/null)"
	done
	tsay "now loaded: xen-netback, srcversion $(cat /sys/module/xen_netback/srcversion 2> /dev/null ||
		echo "none (the kernel's)"), parameters:${p:- none}"
}
recover_hint() {
	if [ "$before" = none ]; then
		tsay "to recover by hand, once nothing uses it: rmmod xen-netback"
	else
		tsay "to recover by hand, once nothing uses it: rmmod xen-netback; $(before_cmd)"
	fi
}
# restore_module: unload what the bench left, load what was there
# before.  0 done; 1 not as before (said: what is loaded now, and how
# to recover); 3 left alone: a domain not the bench's exists, and
# unloading the backend would take its vifs down.
restore_module() {
	local n=60 err="" others=""
	# Only unloading harms another domain's vifs.
	if [ -d /sys/module/xen_netback ]; then
		others=$(foreign_domains) || others="('xl list' fails: cannot tell)"
	fi
	if [ -n "$others" ]; then
		tsay "xen-netback left as it is: domains not the bench's exist: $others;" \
			"unloading it would take their vifs down"
		now_loaded
		tsay "once they are gone (or to decide yourself): $0 --restore"
		recover_hint
		return 3
	fi
	while [ -d /sys/module/xen_netback ] && [ $n -gt 0 ]; do
		err=$(rmmod xen-netback 2>&1) && break
		sleep 0.5; n=$((n - 1))
	done
	if [ -d /sys/module/xen_netback ]; then
		tsay "could not unload xen-netback (refcnt $(cat /sys/module/xen_netback/refcnt 2> /dev/null)): $err"
		now_loaded
		recover_hint
		return 1
	fi
	if [ "$before" = none ]; then
		tsay "no xen-netback was loaded before: none is now"
		return 0
	fi
	if err=$(load_before "${before_params[@]}" 2>&1); then
		[ -z "$err" ] || tsay "$(before_cmd): $err"
		if [ "$before_exact" = 1 ]; then
			tsay "loaded again: $(before_cmd)"
			return 0
		fi
		tsay "loaded $(before_cmd), not the module of before ($before): its file was not found"
		now_loaded
		return 1
	fi
	tsay "could not load the module of before again: $(before_cmd): $err"
	if [ ${#before_params[@]} -gt 0 ] && err=$(load_before 2>&1); then
		tsay "loaded it without its parameters instead"
	else
		[ ${#before_params[@]} = 0 ] || tsay "nor without its parameters: $err"
	fi
	now_loaded
	recover_hint
	return 1
}
# stop_tree PID: PID and its descendants stopped (each before its
# children are listed: none can slip out by forking), and printed.
stop_tree() {
	local c
	kill -STOP "$1" 2> /dev/null || return 0
	echo "$1"
	for c in $(ps -o pid= --ppid "$1" 2> /dev/null); do
		stop_tree "$c"
	done
}
# kernel_log: the kernel's log since the run started into .dmesg (all of
# it if the start rotated out), tainted into .env; says whether it holds
# a WARN, BUG or Oops.
kernel_log() {
	local d=$results/host-$stamp.dmesg m="xnb-bench-host: run $stamp starts"
	dmesg 2> /dev/null | awk -v m="$m" 'index($0, m) { p = 1 } p' > "$d"
	[ -s "$d" ] || dmesg > "$d" 2>&1
	echo "TAINTED_end=$(cat /proc/sys/kernel/tainted)" >> "$results/host-$stamp.env"
	if grep -Eq 'WARNING:|BUG:|Oops|general protection fault|soft lockup|Call Trace:' "$d"; then
		tsay "the kernel logged a WARN, BUG or Oops during the run: see $d (send it with the .log)"
		echo "KERNEL_LOG=WARN/BUG/Oops logged: see host-$stamp.dmesg" >> "$results/host-$stamp.env"
		return 1
	fi
	return 0
}
# teardown: the bench stopped, its guests, servers, namespaces, kprobe
# events and bridge gone, dom0's memory and the module of before back;
# then the state and the staging directory removed, unless something
# could not be restored (--restore tries again).  Signals cannot cut it
# short: a second Ctrl-C would leave guests, the bridge or no backend at
# all.  It runs from the EXIT trap too: every return states its status;
# the second call returns that of the first.
teardown() {
	local pids p d cur rc=0
	[ "$torn" = 0 ] || return "$torn_rc"
	torn=1
	trap '' INT TERM HUP PIPE
	[ -n "$bench_pid" ] || [ "$started" = 1 ] || [ "$br_made" = 1 ] ||
		{ [ ! -d "$stage" ] || rm -rf "$stage"; rmdir "$hostdir" 2> /dev/null; return 0; }
	tsay "cleaning up (up to 2 min), do not interrupt"
	if [ -n "$bench_pid" ] && kill -0 "$bench_pid" 2> /dev/null; then
		tsay "stopping the bench"
		pids=$(stop_tree "$bench_pid")
		# shellcheck disable=SC2086	# pids
		kill -KILL $pids 2> /dev/null
		wait "$bench_pid" 2> /dev/null
	fi
	if [ "$started" = 1 ]; then
		# iperf3 -D servers the bench started (they leave its process tree).
		for p in $(ps -eo pid=,etimes=,args= | awk -v t="$(($(date +%s) - t_start))" \
			'$2 <= t && $3 == "iperf3" && $4 == "-s" && $5 == "-1" && $6 == "-p" && $8 == "-D" { print $1 }'); do
			kill "$p" 2> /dev/null
		done
		for d in $(bench_own_domains 2> /dev/null); do
			xl destroy "$d" > /dev/null 2>&1 &
		done
		wait
		for ((p = 0; p < 120; p++)); do
			own_vifs_left || break
			sleep 0.5
		done
		ip netns del xnbA 2> /dev/null
		ip netns del xnbB 2> /dev/null
		# The flood rows' kprobe events (xnb_bench/*), if a row was cut.
		bench_kp_leftovers
		restore_module || rc=$?
		cur=$(xl list 0 2> /dev/null | awk 'NR == 2 { print $3 }')
		if [ -n "$dom0_mem" ] && [ -n "$cur" ] && [ "$cur" -lt "$dom0_mem" ]; then
			if xl mem-set 0 "${dom0_mem}m"; then
				tsay "dom0's memory set back from $cur to $dom0_mem MiB (xl mem-set 0 ${dom0_mem}m)"
			else
				tsay "warning: could not give dom0 its $dom0_mem MiB back (it has $cur): xl mem-set 0 ${dom0_mem}m"
			fi
		fi
	fi
	if [ "$br_made" = 1 ] && ip link show dev "$br" > /dev/null 2>&1; then
		ip link del "$br" || { tsay "could not remove bridge $br: ip link del $br"; [ "$rc" != 0 ] || rc=1; }
	fi
	[ "$started" = 1 ] && [ -n "$t_start" ] && [ -d "$results" ] && { kernel_log || true; }
	if [ "$rc" = 0 ]; then
		rm -rf "$stage" "$statef"
		rmdir "$hostdir" 2> /dev/null
	else
		tsay "kept $statef: $0 --restore tries again"
	fi
	torn_rc=$rc
	return "$rc"
}

# --restore: the teardown of a run that could not do its own.
if [ "$restore" = 1 ]; then
	[ -f "$statef" ] || { say "nothing to restore: no $statef (no run was cut short)"; exit 0; }
	need_private_dir
	# shellcheck source=/dev/null
	. "$statef" || die "cannot read $statef"
	export BENCH_HOST_DOMIDS=$stage/domids BENCH_HOST_ABORT=$stage/abort
	say "restoring after the run of $stamp"
	started=1 br_made=1
	teardown
	exit $?
fi
if [ -e "$statef" ]; then
	say "refusing to run: a run was cut short before it cleaned up ($statef):" \
		"run $0 --restore first"
	exit 3
fi

prereqs
if [ ${#fatal[@]} -gt 0 ]; then
	say "cannot run here:"
	printf '  - %s\n' "${fatal[@]}"
	[ ${#missing[@]} = 0 ] || say "(also missing: ${missing[*]})"
	exit 2
fi
host_free || exit 3
if [ ${#missing[@]} -gt 0 ]; then
	install_missing || exit 2
	# The toolstack may have come with them.
	xl info > /dev/null 2>&1 || die "'xl info' fails: this is not dom0, or its toolstack is not running"
	host_free || exit 3
fi
free=$(xl info | awk '$1 == "free_memory" { print $3 }')
guests=$BENCH_GUESTS
bench_row floodping && guests=$((guests + 1))	# the floods' ping guest
want=$((guests * ${LAB_GUEST_MEM:-256} + 64))
if [ "${free:-0}" -lt "$want" ]; then
	say "warning: Xen has ${free:-?} MiB free, the guests need about $want MiB: xl balloons dom0 down if it may (autoballoon), else the guests fail to start"
fi
if nft list chains 2>/dev/null | grep -q 'hook input.*policy drop' ||
   iptables -S INPUT 2>/dev/null | grep -q '^-P INPUT DROP'; then
	say "warning: the firewall drops input by default: the UDP guest->dom0 rows need iperf3 traffic from 192.0.2.0/24 to dom0 let in on $br"
fi
if [ "$check" = 1 ]; then
	say "ready: the prerequisites are there and the host is free (--check: nothing changed)"
	exit 0
fi

# --- our module, the guest, the staged library --------------------------------------
need_private_dir
mkdir -p "$stage" "$results" || die "cannot create $stage and $results"
if [ "$netback" = ours ] && [ -z "${BENCH_HOST_MODULE:-}" ]; then
	say "building our module for $kver (log: $stage/build.log)"
	make -C "$top" modules KDIR="/lib/modules/$kver/build" > "$stage/build.log" 2>&1 ||
		{ tail -n 20 "$stage/build.log"; RC=1 die "the module did not build"; }
fi
if [ "$netback" = ours ]; then
	v=$(modinfo -F vermagic "$ours_ko" 2>/dev/null)
	[ "${v%% *}" = "$kver" ] || RC=1 die "$ours_ko is for '${v%% *}', not the running kernel $kver"
fi
if [ -n "${BENCH_HOST_IMAGES:-}" ]; then
	images=$(cd "$BENCH_HOST_IMAGES" && pwd) || RC=1 die "BENCH_HOST_IMAGES=$BENCH_HOST_IMAGES: no such directory"
	kernel=$images/vmlinux
	[ -f "$kernel" ] || kernel=$images/vmlinuz
	[ -f "$kernel" ] && [ -s "$images/guest.cpio.gz" ] ||
		RC=1 die "BENCH_HOST_IMAGES=$images needs guest.cpio.gz and a kernel, vmlinux or vmlinuz"
else
	say "building the guest image from this dom0's files (log: $stage/image.log)"
	images=$stage/images
	kernel=/boot/vmlinuz-$kver
	# shellcheck source=tests/lab/host/lab-guest.sh
	. "$lab/host/lab-guest.sh"
	mkdir -p "$images" && lab_guest_image "" "" "$kver" "$images" > "$stage/image.log" 2>&1 ||
		{ tail -n 20 "$stage/image.log"; RC=1 die "the guest image did not build"; }
	rm -rf "$images/guest"
fi
# The library where the lab has /lab: lib.sh, xnb.sh, bench-lib.sh,
# bench-rows.sh and our module (no config: this host's defaults); the
# count rows' trace decoder where there is one (the lab's copy of bench/
# has none).
mkdir -p "$stage/lab" "$stage/run" &&
	cp "$lab/lib.sh" "$lab/xnb.sh" "$lab/bench-lib.sh" "$lab/bench-rows.sh" "$stage/lab/" ||
	RC=1 die "cannot stage the library in $stage"
[ "$netback" = ours ] && { cp "$ours_ko" "$stage/lab/xen-netback.ko" || RC=1 die "cannot copy $ours_ko"; }
[ ! -f "$here/xentrace_count.py" ] || cp "$here/xentrace_count.py" "$stage/lab/" ||
	RC=1 die "cannot stage the library in $stage"
# libxl runs the vif hotplug script from here: the filesystem must allow it.
printf '#!/bin/sh\nexit 0\n' > "$stage/run/exec-test" && chmod +x "$stage/run/exec-test"
"$stage/run/exec-test" 2> /dev/null || RC=1 die "$stage is on a noexec filesystem: check the tree out elsewhere"
export LAB_DIR=$stage/lab LAB_RUN=$stage/run LAB_IMAGES=$images LAB_GUEST_KERNEL=$kernel LAB_BRIDGE=$br
# The stock module by file when modprobe's pick is another one.
if [ "$stocked" = 1 ] && ! [ "$modprobe_ko" -ef "$stock_ko" ]; then
	export LAB_STOCK_KO=$stock_ko
	say "modprobe xen-netback loads $modprobe_ko: stock is insmodded from $stock_ko"
else
	unset LAB_STOCK_KO
fi

# --- the backend loaded before, to load again -----------------------------------------
# Modules with a version have a srcversion (ours); the kernel's own has
# none.  Its readable parameters are passed again.
before_src=""
if [ -d /sys/module/xen_netback ]; then
	before_src=$(cat /sys/module/xen_netback/srcversion 2> /dev/null)
	for f in /sys/module/xen_netback/parameters/*; do
		[ -r "$f" ] && before_params+=("${f##*/}=$(cat "$f" 2> /dev/null)")
	done
	if [ -n "$before_src" ]; then
		before="xen-netback $(cat /sys/module/xen_netback/version 2> /dev/null) (srcversion $before_src)"
	else
		before="the kernel's xen-netback"
	fi
fi
# before_file: the file of the module loaded before: the one with its
# srcversion, or (none) the kernel's own.
before_file() {
	local f
	if [ -z "$before_src" ]; then
		if [ -z "$(modinfo -F srcversion "$modprobe_ko" 2>/dev/null)" ]; then
			echo "$modprobe_ko"
		else
			echo "$stock_ko"
		fi
		return 0
	fi
	for f in "$modprobe_ko" $(find "/lib/modules/$kver" -name 'xen-netback.ko*' 2>/dev/null) \
		"$ours_ko" "$top/drivers/net/xen-netback/xen-netback.ko"; do
		[ -f "$f" ] && [ "$(modinfo -F srcversion "$f" 2>/dev/null)" = "$before_src" ] &&
			{ echo "$f"; return 0; }
	done
	return 1
}
if [ "$before" != none ]; then
	if ! before_ko=$(before_file); then
		say "warning: the xen-netback loaded now ($before) is in no file found: modprobe's will be loaded after the run, without parameters"
		before_ko=$modprobe_ko before_exact=0 before_params=()
	fi
	before_how=insmod
	[ "$before_ko" -ef "$modprobe_ko" ] && before_how=modprobe
fi

# --- run --------------------------------------------------------------------------------
# on_exit: the teardown; its failure is the exit status, unless the run
# was ended for a domain not the bench's (3).
on_exit() {
	local st=$? t
	teardown
	t=$?
	[ "$t" = 0 ] || [ "$st" = 3 ] || st=$t
	exit "$st"
}
trap on_exit EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP
trap 'exit 141' PIPE

info=$results/host-$stamp.env
raw=$results/host-$stamp.log
out=$results/host-$stamp
"$here/bench-info.sh" "$QUICK" host > "$info"
{
	echo "LOAD_start=$(cut -d' ' -f1-3 /proc/loadavg)"
	[ "$netback" = ours ] && echo "OURS=$(modinfo -F version "$ours_ko") ($ours_ko)"
	[ "$stocked" = 1 ] && echo "STOCK=the kernel's ($stock_ko${LAB_STOCK_KO:+, shadowed by $modprobe_ko})"
	echo "BEFORE=${before}${before_params[*]:+ (${before_params[*]})}"
	echo "TAINTED_start=$(cat /proc/sys/kernel/tainted)"
} >> "$info"

# A last look, the building having taken minutes: a guest started since
# would lose its vifs at the first module swap.
host_free || exit 3
dom0_mem=$(xl list 0 2> /dev/null | awk 'NR == 2 { print $3 }')
t_start=$(date +%s)
: > "$BENCH_HOST_DOMIDS"
declare -p stamp stage br before before_ko before_how before_exact before_params \
	dom0_mem t_start results raw > "$statef" || RC=1 die "cannot write $statef"
echo "xnb-bench-host: run $stamp starts" > /dev/kmsg 2> /dev/null
ip link add "$br" type bridge stp_state 0 forward_delay 0 || RC=1 die "cannot create bridge $br"
br_made=1
ip addr add 192.0.2.1/24 dev "$br" && ip link set "$br" up || RC=1 die "cannot set up bridge $br"
started=1
say "set $set: $BENCH_REPS repetition(s) of $(echo "$BENCH_BACKENDS" | wc -w) backend(s), $BENCH_T s runs," \
	"$BENCH_GUESTS guests; bridge $br; figures in $raw"
t0=$SECONDS
# The cycles as in the lab: bench_run, in a bash of its own (lab_fail
# exits), into the raw log, which is followed on the terminal (not
# through a pipe, which a process left behind could hold open).
bash -c '. "$LAB_DIR/lib.sh"; . "$LAB_DIR/xnb.sh"; . "$LAB_DIR/bench-lib.sh"
	NETBACK=$0; bench_run "$1" alt' "$netback" "$set" > "$raw" 2>&1 &
bench_pid=$!
tail -n +1 -f --pid="$bench_pid" "$raw" &
wait "$bench_pid"
rc=$?
wait
bench_pid=""
abort=""
[ -s "$BENCH_HOST_ABORT" ] && abort=$(cat "$BENCH_HOST_ABORT")
[ -z "$abort" ] || tsay "ending the whole run: $abort"
teardown
trc=$?
klog=0
grep -q '^KERNEL_LOG=' "$info" && klog=1
{
	echo "LOAD_end=$(cut -d' ' -f1-3 /proc/loadavg)"
	echo "SECS=$((SECONDS - t0))"
	r="completed"
	[ $rc = 0 ] || r="FAILED (bench_run exit $rc)"
	[ -z "$abort" ] || r="ABORTED ($abort)"
	[ "$trc" = 0 ] || r+="; the module of before NOT restored"
	[ "$klog" = 0 ] || r+="; the kernel logged a WARN, BUG or Oops"
	echo "RC=$r"
} >> "$info"

if [ -n "$abort" ]; then
	say "aborted: $abort (the figures so far are in $raw)"
	exit 3
fi
status=0
[ "$trc" = 0 ] || { say "the host is not as it was before the run: see above"; status=1; }
[ $rc = 0 ] || { say "the bench ended with status $rc"; status=1; }
for b in $BENCH_BACKENDS; do
	grep -q "XNB-METRIC bench b=$b " "$raw" || { say "no figures of $b"; status=1; }
done
[ "$status" = 0 ] || say "when a run fails, send $raw and ${out}.dmesg with the report"
if [ "$report" = 0 ]; then
	say "figures in $raw, the machine in $info; the report (--no-report: not made here):"
	echo "    python3 bench/aggregate.py --info $info --out $out $raw"
	exit $status
fi
python3 "$top/bench/aggregate.py" --info "$info" --out "$out" "$raw" > /dev/null ||
	{ say "aggregation failed"; exit 1; }
[ -s "$out.md" ] && [ -s "$out.csv" ] || { say "no results written"; exit 1; }
[ -s "$out.png" ] || say "no plot (gnuplot-nox?)"
say "results: $out.md (send this one back), $out.csv, $out.png; raw: $raw, $info, $out.dmesg"
exit $status
