# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The lab's small guest, sourced by lab-build.sh (from the debootstrapped
# base and the lab's kernel) and by bench/bench-host.sh (from a real
# dom0's own files and running kernel): a busybox initramfs with
# xen-netfront, iperf3 and the xenstore clients, whose /init configures
# every vif from the domain's number and runs dom0's commands (lib.sh's
# lab_guest_exec).  Its kernel is dom0's.
#
#   lab_pack DIR                     newc cpio of DIR on stdout
#   lab_copy_modules KROOT KVER ROOT NAMES...
#   lab_guest_image SRC KROOT KVER DIR   DIR/guest/ and DIR/guest.cpio.gz
#
# SRC and KROOT are roots to take binaries and modules from: "" is this
# machine's.  Needs busybox (the build machine's), cpio, gzip, kmod, and
# xz or zstd for compressed modules.

# lab_pack DIR: newc cpio of DIR on stdout, owned by root.
lab_pack() {
	(cd "$1" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet)
}

# lab_copy_modules KROOT KVER ROOT NAMES...: kernel modules NAMES (plus
# what they depend on) from KROOT's /lib/modules/KVER into ROOT,
# uncompressed (busybox's insmod reads plain .ko; Debian 13 ships .ko.xz),
# then indexed there.  A module built into the kernel is nothing to copy.
lab_copy_modules() {
	local kroot=$1 kver=$2 root=$3 m f d
	shift 3
	for m in "$@"; do
		modprobe -d "${kroot:-/}" -S "$kver" --show-depends "$m" |
			awk '$1 == "insmod" {print $2}'
	done | sort -u | while read -r f; do
		d=$root/$(dirname "${f#"$kroot"}")
		mkdir -p "$d" || return 1
		case $f in
		*.ko.xz) xz -dc "$f" > "$d/$(basename "$f" .xz)" ;;
		*.ko.zst) zstd -dcq "$f" > "$d/$(basename "$f" .zst)" ;;
		*) cp "$f" "$d/" ;;
		esac || return 1
	done || return 1
	cp "$kroot/lib/modules/$kver"/modules.{builtin,builtin.modinfo,order} \
		"$root/lib/modules/$kver/" && depmod -b "$root" "$kver"
}

# lab_guest_image SRC KROOT KVER DIR: the guest's root in DIR/guest,
# packed into DIR/guest.cpio.gz.  iperf3 and the xenstore clients come
# with their libraries from SRC (so their versions match dom0's), busybox
# from this machine, xen-netfront from KROOT's KVER.
lab_guest_image() {
	local src=$1 kroot=$2 kver=$3 groot=$4/guest a b f
	mkdir -p "$groot"/{bin,sbin,etc,proc,sys,dev,tmp,run,root,lib/modules/"$kver",etc/guest-init.d} ||
		return 1
	cp /bin/busybox "$groot/bin/busybox" || return 1
	for a in $(/bin/busybox --list); do
		[ -e "$groot/bin/$a" ] || ln -s busybox "$groot/bin/$a"
	done
	lab_copy_modules "$kroot" "$kver" "$groot" xen-netfront || return 1
	for b in /usr/bin/iperf3 /usr/bin/xenstore-read /usr/bin/xenstore-write /usr/bin/xenstore-rm \
		/usr/bin/xenstore-watch; do
		for f in $b $(if [ -n "$src" ]; then chroot "$src" ldd "$b"; else ldd "$b"; fi |
			awk '/=> \// {print $3} /^\t\/lib/ {print $1}'); do
			mkdir -p "$groot$(dirname "$f")"
			cp -L "$src$f" "$groot$f" || return 1
		done
	done

	cat > "$groot/init" <<'INIT'
#!/bin/sh
# Lab guest /init.  Kernel command line: xnb_id=N.  Interface ethK gets
# 192.0.2.(10*N+K)/24 whenever it appears (hot-attached vifs too), with a
# per-interface routing table so replies leave through the vif they came in on.
# An interface is known by name and ifindex: a vif detached and another
# attached between two looks get the same name, not the same ifindex.
# Commands from dom0 arrive in xenstore data/cmd ("ID shell-command"); the
# last 3000 bytes of the output go to data/out and data/out1 (xenstored
# refuses a guest's node over 2048 bytes) and "ID rc" to data/rc.
# Idle, the guest runs nothing: every wait is a xenstore watch.
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mkdir -p /dev/pts && mount -t devpts devpts /dev/pts
exec </dev/console >/dev/console 2>&1
ip link set lo up
N=$(sed -n 's/.*xnb_id=\([0-9]*\).*/\1/p' /proc/cmdline)
echo 1 > /proc/sys/net/ipv4/conf/all/arp_ignore
echo 2 > /proc/sys/net/ipv4/conf/all/arp_announce
insmod /lib/modules/*/kernel/drivers/net/xen-netfront.ko
iperf3 -s -D
for f in /etc/guest-init.d/*; do [ -x "$f" ] && "$f"; done
echo "XNB-GUEST $N up"

# An interface counts as done only once all of its configuration took.
# One that fails but is still there (netfront refuses "up" until the
# backend connects) waits for the next xenstore event, which its connect
# brings.  One that vanished meanwhile (a vif detached and another
# attached under the same devid: the guest's xenbus met the old node's
# removal after the new one) may bring no later event: look again, at
# most 10 times a second apart.
done_ifs=" "
config_if() { # config_if IF K
	a=192.0.2.$((10 * N + $2)); t=$((100 + $2))
	ip link set "$1" up || return 1
	# busybox's ip has no "addr replace": an address already there is fine.
	ip addr add "$a/24" dev "$1" 2>/dev/null ||
		ip addr show dev "$1" | grep -qF "inet $a/" || return 1
	ip rule del from "$a" 2>/dev/null
	ip rule add from "$a" table $t || return 1
	ip route replace 192.0.2.0/24 dev "$1" src "$a" table $t || return 1
	echo "XNB-GUEST $1 $a"
}
setup_ifs() {
	tries=10
	while :; do
		now=" " vanished=
		for d in /sys/class/net/eth*; do
			read -r x 2>/dev/null < "$d/ifindex" || continue
			i=${d##*/}
			case "$done_ifs" in
			*" $i:$x "*) now="$now$i:$x " ;;
			*) if config_if "$i" "${i#eth}"; then
				now="$now$i:$x "
			   elif ! read -r y 2>/dev/null < "$d/ifindex" || [ "$y" != "$x" ]; then
				echo "XNB-GUEST $N $i vanished while set up"
				vanished=1
			   fi ;;
			esac
		done
		done_ifs=$now
		tries=$((tries - 1))
		[ -z "$vanished" ] || [ "$tries" -eq 0 ] && return
		sleep 1
	done
}

# run_cmd ID COMMAND: in the background, so the loop keeps listening;
# stdin is not the loop's pipe of watch events.
run_cmd() {
	( o=/tmp/out.$1 t=/tmp/tail.$1
	  sh -c "$2" > "$o" 2>&1; rc=$?
	  tail -c 3000 "$o" > "$t"
	  # A trailing newline of the first half must survive $(...).
	  h=$(head -c 1500 "$t"; echo x)
	  xenstore-write -- data/out "${h%x}" data/out1 "$(tail -c +1501 "$t")" \
		data/rc "$1 $rc"
	  rm -f "$o" "$t" ) </dev/null &
}

# Both watches fire once when set, then on every change: data/cmd for
# commands, device/ for vifs (a hot-attached one writes its frontend
# state there once its ethK exists).  Should the watches die, start over.
while :; do
	last=$(cat /tmp/cmd.last 2>/dev/null)
	{ xenstore-watch data/cmd & xenstore-watch device & wait; } 2>/dev/null |
	while read -r p; do
		case "$p" in
		device*)
			setup_ifs ;;
		*)
			c=$(xenstore-read data/cmd 2>/dev/null)
			if [ -n "$c" ] && [ "${c%% *}" != "$last" ]; then
				last=${c%% *}
				echo "$last" > /tmp/cmd.last
				run_cmd "$last" "${c#* }"
			fi ;;
		esac
	done
	echo "XNB-GUEST $N xenstore watches ended, restarting them"
	sleep 1
done
INIT
	chmod +x "$groot/init" &&
		lab_pack "$groot" | gzip -6 > "$4/guest.cpio.gz"
}
