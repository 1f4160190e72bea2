#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Lab step 2: the cached boot images (outside the checkout, in $LAB_CACHE).
#
#   base-<k>/         debootstrap'd $LAB_DIST (slow: minutes).  Key: suite,
#                     package list and the candidate versions of those packages.
#   img-<k>/dom0.cpio.zst   dom0 initramfs: base + trimmed kernel modules + /init
#                     + the guest images under /lab-images.
#   img-<k>/guest.cpio.gz   guest initramfs (busybox, xen-netfront, iperf3:
#                     lab-guest.sh, which bench/bench-host.sh uses too).
#   img-<k>/vmlinux   the kernel (dom0's and the guests'), uncompressed ELF.
#                     Key for img-*: base key + kernel/xen packages + the
#                     text of this script and lab-guest.sh (the recipe), so
#                     editing an /init rebuilds the images but not the
#                     debootstrap.
#
# Prints nothing but progress; writes $LAB_CACHE/images.env for lab-run.sh.
set -euo pipefail

# shellcheck source=tests/lab/host/lab-env.sh
. "$(dirname "$0")/lab-env.sh"
export BUILDROOT=${BUILDROOT:-/var/cache/xnb-lab/buildroot-trixie}
SUITE=$LAB_DIST
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/lab/host/lab-guest.sh
. "$here/lab-guest.sh"
top=$(cd "$here/../../.." && pwd)
MIRROR=$("$top/scripts/apt-mirror.sh")
log() { echo "lab-build: $*" >&2; }
# The cache is shared by every checkout on the machine: one build at a time.
mkdir -p "$LAB_CACHE"
exec 9>"$LAB_CACHE/.build.lock"
flock 9

[ -e "$LAB_CACHE/lab.env" ] || LAB_DIST=$LAB_DIST LAB_CACHE=$LAB_CACHE "$here/lab-fetch.sh"
# shellcheck source=/dev/null
. "$LAB_CACHE/lab.env"
# Package versions of the suite: the host's apt is bookworm's; trixie's is
# the build root's (scripts/buildroot.sh).
case $SUITE in
bookworm) XENV=4.17; apt_cache() { apt-cache "$@"; } ;;
trixie) XENV=4.20; apt_cache() { "$top/scripts/buildroot.sh" exec /tmp apt-cache "$@"; } ;;
*) log "LAB_DIST must be bookworm or trixie"; exit 2 ;;
esac

# Packages of the dom0 root filesystem (dependencies come along).
BASE_PKGS="xen-utils-$XENV xen-utils-common xenstore-utils iproute2 bridge-utils
 iperf3 ethtool kmod procps busybox iputils-ping util-linux irqbalance"
# Kernel modules dom0 may need (dependencies are resolved with modprobe);
# netconsole for the hostile campaign's netconsole phase.
DOM0_MODS="xen-netback xen-netfront xen-evtchn xen-gntdev xen-gntalloc
 xen-privcmd xenfs bridge veth dummy tun netconsole"

# --- stage 1: debootstrap ------------------------------------------------------
versions=$(for p in $BASE_PKGS; do
	apt_cache show --no-all-versions "$p" 2>/dev/null | awk -v p="$p" '/^Version:/ {print p, $2; exit}'
done)
base_key=$(printf '%s\n' "$SUITE" "$MIRROR" "$versions" | sha256sum | cut -c1-12)
base=$LAB_CACHE/base-$base_key
if [ ! -e "$base/.done" ]; then
	log "debootstrap $SUITE into $base (takes a few minutes)"
	rm -rf "$base"
	debootstrap --variant=minbase --include="$(echo $BASE_PKGS | tr ' ' ,)" \
		"$SUITE" "$base" "$MIRROR" > "$LAB_CACHE/debootstrap.log" 2>&1 ||
		{ tail -n 30 "$LAB_CACHE/debootstrap.log"; exit 1; }
	touch "$base/.done"
	# Older bases are unreachable now; they are ~300 MB each.
	for d in "$LAB_CACHE"/base-*; do [ "$d" = "$base" ] || rm -rf "$d"; done
fi

# --- stage 2: images -----------------------------------------------------------
# extract_vmlinux BZIMAGE OUT: the ELF kernel inside an xz (Debian 12) or
# zstd (Debian 13) bzImage, found through the boot protocol's
# payload_offset/payload_length fields.
extract_vmlinux() {
	python3 - "$1" "$2" <<'PY'
import lzma
import struct
import subprocess
import sys

d = open(sys.argv[1], 'rb').read()
setup_sects = d[0x1f1] or 4
off, length = struct.unpack_from('<II', d, 0x248)
start = (setup_sects + 1) * 512 + off
payload = d[start:start + length]
if payload.startswith(b'\x28\xb5\x2f\xfd'):
    # kbuild appends the decompressed size (4 bytes) to a zstd payload.
    elf = subprocess.run(['zstd', '-dcq'], input=payload[:-4],
                         stdout=subprocess.PIPE, check=True).stdout
else:
    elf = lzma.LZMADecompressor(format=lzma.FORMAT_XZ).decompress(payload)
if not elf.startswith(b'\x7fELF'):
    sys.exit('extract_vmlinux: the payload of %s is not an ELF' % sys.argv[1])
open(sys.argv[2], 'wb').write(elf)
PY
}
recipe=$(cat "$0" "$here/lab-guest.sh" | sha256sum | cut -c1-12)
img_key=$(printf '%s\n' "$base_key" "$LAB_KEY" "$recipe" | sha256sum | cut -c1-12)
img=$LAB_CACHE/img-$img_key
write_env() {
	cat > "$LAB_CACHE/images.env" <<ENV
LAB_IMG=$img
LAB_DOM0_INITRD=$img/dom0.cpio.zst
LAB_DOM0_KERNEL=$img/vmlinux
LAB_XEN=$LAB_XEN
LAB_KVER=$LAB_KVER
ENV
}
if [ -e "$img/.done" ]; then
	log "images cached: $img"
	write_env
	exit 0
fi
rm -rf "$img" && mkdir -p "$img"
stage=$img/stage

# --- dom0 ---
log "dom0 rootfs"
cp -a "$base" "$stage"
rm -f "$stage/.done"
rm -rf "${stage:?}/lib/modules" "${stage:?}/boot"
lab_copy_modules "$LAB_KROOT" "$LAB_KVER" "$stage" $DOM0_MODS
# Nothing may load a backend behind the runner's back: we never start udev,
# and the stock module is blacklisted for alias-driven loads anyway
# (`modprobe xen-netback` by name still works for NETBACK=stock).
echo "blacklist xen-netback" > "$stage/etc/modprobe.d/xnb-lab.conf"
# Trim what a RAM-only, never-upgraded box does not use; boot time under TCG
# is dominated by unpacking the initramfs.
rm -rf "$stage"/usr/share/{doc,man,info,locale,i18n,lintian,linda,bug,zoneinfo} \
	"$stage"/var/lib/apt/lists/* "$stage"/var/cache/apt/* "$stage"/var/cache/debconf/*-old \
	"$stage"/usr/lib/python3* "$stage"/usr/lib/xen-*/boot \
	"$stage"/usr/lib/x86_64-linux-gnu/gconv "$stage"/lib/udev/hwdb.* "$stage"/etc/udev/hwdb.*
find "$stage" -name __pycache__ -prune -exec rm -rf {} +
echo dom0 > "$stage/etc/hostname"
mkdir -p "$stage"/{lab,lab-images,var/log/xen/console,var/lib/xen,var/lib/xenstored,run}
# Kernels go in as plain ELF: Xen and libxc accept it, and unpacking
# Debian's xz bzImage is slow under TCG (libxc took ~15 s of each guest's
# xl create doing it; Xen a few seconds at boot).
extract_vmlinux "$LAB_VMLINUZ" "$img/vmlinux"
cp "$img/vmlinux" "$stage/lab-images/vmlinux"

cat > "$stage/init" <<'INIT'
#!/bin/bash
# dom0 /init: bring up the Xen toolstack and a bridge, then hand over to the
# lab runner that the per-run cpio put in /lab (or to a shell).
PATH=$(echo /usr/lib/xen-[0-9]*/bin):/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export PATH
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mkdir -p /dev/pts /dev/shm /run/lock /run/xen /var/run/xen-hotplug
# What udev would add: bash's <(...) (dkms uses it) needs /dev/fd.
ln -sf /proc/self/fd /dev/fd
mount -t devpts devpts /dev/pts
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
exec </dev/console >/dev/console 2>&1
hostname dom0
ip link set lo up
echo "XNB-BOOT dom0 up $(cut -d' ' -f1 /proc/uptime)"
for m in xen-evtchn xen-gntdev xen-gntalloc xen-privcmd xenfs bridge; do
	modprobe "$m" || echo "XNB-BOOT modprobe $m failed"
done
mount -t xenfs xenfs /proc/xen
xenstored --pid-file=/run/xenstored.pid
xen-init-dom0 || echo "XNB-BOOT xen-init-dom0 failed"
xenconsoled --pid-file=/run/xenconsoled.pid --log=guest --log-dir=/var/log/xen/console
ip link add xenbr0 type bridge stp_state 0 forward_delay 0
ip addr add 192.0.2.1/24 dev xenbr0
ip link set xenbr0 up
echo "XNB-BOOT toolstack up $(cut -d' ' -f1 /proc/uptime)"
[ -r /lab/config ] && . /lab/config
if [ "${MODE:-shell}" = run ] && [ -x /lab/runner.sh ]; then
	/lab/runner.sh
else
	echo "XNB-BOOT shell (exit to power off); helpers: . /lab/lib.sh"
	cd /lab 2>/dev/null || cd /
	setsid -c bash -l </dev/hvc0 >/dev/hvc0 2>&1
fi
sync
echo "XNB-BOOT poweroff"
busybox poweroff -f
INIT
chmod +x "$stage/init"

# --- guest ---
log "guest rootfs"
lab_guest_image "$base" "$LAB_KROOT" "$LAB_KVER" "$img"
cp "$img/guest.cpio.gz" "$stage/lab-images/guest.cpio.gz"

log "packing dom0 initramfs"
lab_pack "$stage" | zstd -q -T0 -10 > "$img/dom0.cpio.zst"
rm -rf "$stage"
touch "$img/.done"
for d in "$LAB_CACHE"/img-*; do [ "$d" = "$img" ] || rm -rf "$d"; done
write_env
log "images built: $img ($(du -h "$img/dom0.cpio.zst" | cut -f1) dom0, $(du -h "$img/guest.cpio.gz" | cut -f1) guest)"
