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
#
#   --quick      the quick set: 1 repetition, 2 s runs, 2 guests (QUICK=1)
#   --yes        install missing Debian packages without asking (XNB_YES=1)
#   --check      check the prerequisites and that the host is free; change
#                nothing
#   --no-report  write the raw figures and the machine's facts only (no
#                python3 needed), to aggregate elsewhere
#
# What it does to the host: builds our module for the running kernel
# (make modules) and a guest initramfs (tests/lab/host/lab-guest.sh:
# busybox, xen-netfront, iperf3 and the xenstore clients of this dom0;
# the guests' kernel is dom0's own); creates bridge xnbbench0 with
# 192.0.2.1/24 and no uplink; unloads the loaded xen-netback and switches
# between ours and stock for each cycle, which is why it refuses to start
# while any domain but dom0 exists or any vif is bound to a backend; boots
# up to BENCH_GUESTS guests g1..gN; drops the page cache between cycles.
# On exit, Ctrl-C included, the guests are destroyed, the bridge removed
# and the xen-netback loaded before loaded again, with its parameters.
#
# Results: BENCH_RESULTS (default build/bench-results)/host-<stamp>.md,
# .csv, .png as `make bench` writes them, with .log (the raw figures) and
# .env (the machine) beside them.  Other knobs: BENCH_SET, BENCH_T, ...
# (bench/README.md); BENCH_HOST_IMAGES=DIR, a guest made elsewhere
# (guest.cpio.gz and a kernel, vmlinux or vmlinuz, with the same
# xen-netfront) for a host that cannot build one (no network for apt, no
# busybox); BENCH_HOST_MODULE=FILE, our module built elsewhere for the
# running kernel; BENCH_HOST_BRIDGE (xnbbench0).
#
# Exit status: 0 done; 1 the bench or its report broke; 2 a prerequisite
# is missing; 3 refused, the host is not free (nothing was changed).
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
lab=$top/tests/lab
QUICK=${QUICK:-0} yes=${XNB_YES:-0} check=0 report=1
for a; do
	case $a in
	--quick) QUICK=1 ;;
	--yes) yes=1 ;;
	--check) check=1 ;;
	--no-report) report=0 ;;
	-h|--help) sed -n '3,/^set /s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) echo "bench-host: unknown option $a (see --help)" >&2; exit 2 ;;
	esac
done
[ "$QUICK" = 1 ] || QUICK=0
say() { echo "bench-host: $*"; }
die() { echo "bench-host: $*" >&2; exit "${RC:-2}"; }
PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export PATH

[ "$(id -u)" = 0 ] ||
	die "run it as root (sudo make bench-host): it loads kernel modules, creates domains and a bridge"
case $top in
*[[:space:]]*) die "the tree's path has a space ($top), which xl's configurations cannot take" ;;
esac
kver=$(uname -r)
br=${BENCH_HOST_BRIDGE:-xnbbench0}
stamp=$(date +%Y-%m-%d-%H%M)
results=${BENCH_RESULTS:-$top/build/bench-results}
stage=$top/build/bench-host/$stamp

# The knobs and the configurations, from the library (as bench.sh does).
# shellcheck source=tests/lab/bench-lib.sh
. "$lab/bench-lib.sh"
set=${BENCH_SET:-full}
[ "$QUICK" = 1 ] && set=quick
export BENCH_BACKENDS=${BENCH_BACKENDS:-ours stock}
bench_knobs "$set"
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
	need xl xen-system-amd64
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
			{ missing+=("/boot/vmlinuz-$kver"); pkgs+=("linux-image-$kver"); }
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
	local f doms vifs="" addrs why=()
	doms=$(xl list 2>/dev/null | awk 'NR > 1 && $1 != "Domain-0" { printf "%s%s", s, $1; s = " " }')
	[ -z "$doms" ] || why+=("domains besides Domain-0: $doms")
	for f in /sys/bus/xen-backend/devices/vif-* /sys/class/net/vif*; do
		[ -e "$f" ] && vifs+=" ${f##*/}"
	done
	[ -z "$vifs" ] || why+=("vifs bound to a backend:$vifs")
	addrs=$(ip -o -4 addr show 2>/dev/null | awk '$4 ~ /^192\.0\.2\./ { printf "%s%s on %s", s, $4, $2; s = ", " }')
	[ -z "$addrs" ] ||
		why+=("$addrs: the bench's guests use 192.0.2.0/24 (TEST-NET-1) on a bridge of its own")
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
want=$((BENCH_GUESTS * ${LAB_GUEST_MEM:-256} + 64))
if [ "${free:-0}" -lt "$want" ]; then
	say "warning: Xen has ${free:-?} MiB free, the guests need about $want MiB: xl balloons dom0 down if it may (autoballoon), else the guests fail to start"
fi
if nft list chains 2>/dev/null | grep -q 'hook input.*policy drop' ||
   iptables -S INPUT 2>/dev/null | grep -q '^-P INPUT DROP'; then
	say "warning: the firewall drops input by default: the UDP guest->dom0 row needs iperf3 traffic from 192.0.2.0/24 to dom0 let in on $br"
fi
if [ "$check" = 1 ]; then
	say "ready: the prerequisites are there and the host is free (--check: nothing changed)"
	exit 0
fi

# --- our module, the guest, the staged library --------------------------------------
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
# The library where the lab has /lab: lib.sh, xnb.sh, bench-lib.sh and
# our module (no config: this host's defaults).
mkdir -p "$stage/lab" "$stage/run" &&
	cp "$lab/lib.sh" "$lab/xnb.sh" "$lab/bench-lib.sh" "$stage/lab/" ||
	RC=1 die "cannot stage the library in $stage"
[ "$netback" = ours ] && { cp "$ours_ko" "$stage/lab/xen-netback.ko" || RC=1 die "cannot copy $ours_ko"; }
# libxl runs the vif hotplug script from here: the filesystem must allow it.
printf '#!/bin/sh\nexit 0\n' > "$stage/run/exec-test" && chmod +x "$stage/run/exec-test"
"$stage/run/exec-test" 2> /dev/null || RC=1 die "$stage is on a noexec filesystem: check the tree out elsewhere"
export LAB_DIR=$stage/lab LAB_RUN=$stage/run LAB_IMAGES=$images LAB_GUEST_KERNEL=$kernel LAB_BRIDGE=$br
# The stock module by file when modprobe's pick is another one.
if [ "$stocked" = 1 ] && [ "$modprobe_ko" != "$stock_ko" ]; then
	export LAB_STOCK_KO=$stock_ko
	say "modprobe xen-netback loads $modprobe_ko: stock is insmodded from $stock_ko"
else
	unset LAB_STOCK_KO
fi

# --- the backend loaded before, to load again -----------------------------------------
# Modules with a version have a srcversion (ours); the kernel's own has
# none.  Its readable parameters are passed again.
before=none before_src="" before_params=""
if [ -d /sys/module/xen_netback ]; then
	before_src=$(cat /sys/module/xen_netback/srcversion 2> /dev/null)
	for f in /sys/module/xen_netback/parameters/*; do
		[ -r "$f" ] && before_params+="${before_params:+ }${f##*/}=$(cat "$f" 2> /dev/null)"
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
# restore_module: unload what the bench left, load what was there before.
restore_module() {
	local f n=60 how
	while [ -d /sys/module/xen_netback ] && [ $n -gt 0 ]; do
		rmmod xen-netback 2> /dev/null && break
		sleep 0.5; n=$((n - 1))
	done
	[ -d /sys/module/xen_netback ] && { say "could not unload xen-netback: left as it is"; return 1; }
	[ "$before" = none ] && { say "no xen-netback was loaded before: none is now"; return 0; }
	if ! f=$(before_file); then
		say "the xen-netback loaded before (srcversion $before_src) is in no file found: loading modprobe's"
		f=$modprobe_ko before_params=""
	fi
	how="insmod $f"
	[ "$f" = "$modprobe_ko" ] && how="modprobe xen-netback"
	# shellcheck disable=SC2086	# the parameters' words
	if $how $before_params 2> /dev/null || { [ -n "$before_params" ] && $how; }; then
		say "loaded again: $how $before_params"
	else
		say "could not load the module of before again ($how)"
		return 1
	fi
}

# --- run --------------------------------------------------------------------------------
bench_pid="" br_made=0 started=0 torn=0
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
# teardown: the bench stopped, its guests, servers, namespaces and bridge
# gone, the module of before loaded again, the staging directory removed.
# It runs from the EXIT trap: every return here and below states its
# status (a bare one would return that of the command the trap cut short).
teardown() {
	local pids p d
	[ "$torn" = 0 ] || return 0
	torn=1
	if [ -n "$bench_pid" ] && kill -0 "$bench_pid" 2> /dev/null; then
		say "stopping the bench"
		pids=$(stop_tree "$bench_pid")
		# shellcheck disable=SC2086	# pids
		kill -KILL $pids 2> /dev/null
		wait "$bench_pid" 2> /dev/null
	fi
	if [ "$started" = 1 ]; then
		# iperf3 -D servers the bench started (they leave its process tree).
		for p in $(ps -eo pid=,etimes=,args= | awk -v t="$SECONDS" \
			'$2 <= t && $3 == "iperf3" && $4 == "-s" && $5 == "-1" && $6 == "-p" && $8 == "-D" { print $1 }'); do
			kill "$p" 2> /dev/null
		done
		for d in $(xl list 2> /dev/null | awk 'NR > 1 && $1 ~ /^g[0-9]+$/ { print $1 }'); do
			xl destroy "$d" > /dev/null 2>&1 &
		done
		wait
		for ((p = 0; p < 120; p++)); do
			compgen -G '/sys/class/net/vif*' > /dev/null || break
			sleep 0.5
		done
		ip netns del xnbA 2> /dev/null
		ip netns del xnbB 2> /dev/null
		restore_module
	fi
	[ "$br_made" = 1 ] && ip link del "$br" 2> /dev/null
	rm -rf "$stage"
	rmdir "$top/build/bench-host" 2> /dev/null
	return 0
}
trap 'teardown' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

info=$results/host-$stamp.env
raw=$results/host-$stamp.log
out=$results/host-$stamp
"$here/bench-info.sh" "$QUICK" host > "$info"
{
	echo "LOAD_start=$(cut -d' ' -f1-3 /proc/loadavg)"
	[ "$netback" = ours ] && echo "OURS=$(modinfo -F version "$ours_ko") ($ours_ko)"
	[ "$stocked" = 1 ] && echo "STOCK=the kernel's ($stock_ko${LAB_STOCK_KO:+, shadowed by $modprobe_ko})"
	echo "BEFORE=${before}${before_params:+ ($before_params)}"
} >> "$info"

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
teardown
{
	echo "LOAD_end=$(cut -d' ' -f1-3 /proc/loadavg)"
	echo "SECS=$((SECONDS - t0))"
	if [ $rc = 0 ]; then echo "RC=completed"; else echo "RC=FAILED (bench_run exit $rc)"; fi
} >> "$info"

status=0
[ $rc = 0 ] || { say "the bench ended with status $rc"; status=1; }
for b in $BENCH_BACKENDS; do
	grep -q "XNB-METRIC bench b=$b " "$raw" || { say "no figures of $b"; status=1; }
done
if [ "$report" = 0 ]; then
	say "figures in $raw, the machine in $info; the report (--no-report: not made here):"
	echo "    python3 bench/aggregate.py --info $info --out $out $raw"
	exit $status
fi
python3 "$top/bench/aggregate.py" --info "$info" --out "$out" "$raw" > /dev/null ||
	{ say "aggregation failed"; exit 1; }
[ -s "$out.md" ] && [ -s "$out.csv" ] || { say "no results written"; exit 1; }
[ -s "$out.png" ] || say "no plot (gnuplot-nox?)"
say "results: $out.md (send this one back), $out.csv, $out.png; raw: $raw, $info"
exit $status
