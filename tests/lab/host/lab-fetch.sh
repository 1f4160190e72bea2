#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Lab step 1: host dependencies + the Debian kernel/Xen packages the lab boots.
#
# The kernel ABI is taken from what linux-image-amd64 depends on *today*, so
# the lab follows Debian's point releases without edits here.  Packages are
# only downloaded (apt-get download) and unpacked with dpkg -x into the cache;
# nothing is installed as the host kernel.
#
# LAB_DIST=bookworm (default) uses the host's own apt: the host is Debian 12.
# LAB_DIST=trixie asks apt inside the Debian 13 build root
# (scripts/buildroot.sh) instead, and takes the kernel whose headers that
# root holds, so the module built there (make lab-module) matches it.
#
# Output: $LAB_CACHE/kernel-<key>/ (unpacked image+headers+kbuild),
#         $LAB_CACHE/xen-<key>/xen (gunzipped hypervisor),
#         $LAB_CACHE/kdir -> headers dir, $LAB_CACHE/lab.env (paths, versions).
set -euo pipefail

# shellcheck source=tests/lab/host/lab-env.sh
. "$(dirname "$0")/lab-env.sh"
export BUILDROOT=${BUILDROOT:-/var/cache/xnb-lab/buildroot-trixie}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
case $LAB_DIST in
bookworm) XEN_PKG=${XEN_PKG:-xen-hypervisor-4.17-amd64} ;;
trixie) XEN_PKG=${XEN_PKG:-xen-hypervisor-4.20-amd64} ;;
*) echo "lab-fetch: LAB_DIST must be bookworm or trixie" >&2; exit 2 ;;
esac

log() { echo "lab-fetch: $*" >&2; }
# The cache is shared by every checkout on the machine: one fetch at a time.
mkdir -p "$LAB_CACHE"
exec 9>"$LAB_CACHE/.fetch.lock"
flock 9

# --- host packages ---------------------------------------------------------
"$top/scripts/need.sh" -f "$here/lab-deps.txt"
updated=0
apt_update() { [ $updated = 1 ] || { apt-get update -qq; updated=1; }; }

# --- which kernel ------------------------------------------------------------
mkdir -p "$LAB_CACHE/debs"
if [ "$LAB_DIST" = trixie ]; then
	# apt of the build root, with $LAB_CACHE/debs as its working directory.
	BUILDROOT=$("$top/scripts/buildroot.sh")
	apt_cache() { "$top/scripts/buildroot.sh" exec "$LAB_CACHE/debs" apt-cache "$@"; }
	apt_download() { "$top/scripts/buildroot.sh" exec "$LAB_CACHE/debs" apt-get download -q -o APT::Sandbox::User=root "$@"; }
	hdr=$(cd "$BUILDROOT/usr/src" && ls -d linux-headers-*-amd64 | head -n1)
	abi=${hdr#linux-headers-}; abi=${abi%-amd64}
	pkgs=("linux-image-$abi-amd64" "$XEN_PKG")
	kdir=$BUILDROOT/usr/src/$hdr
else
	apt_cache() { apt-cache "$@"; }
	apt_download() { (cd "$LAB_CACHE/debs" && apt-get download -q "$@"); }
# apt-cache knows nothing before the first `apt-get update`.
img_pkg=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/ {print $2; exit}') || true
if [ -z "$img_pkg" ]; then
	apt_update
	img_pkg=$(apt-cache depends linux-image-amd64 | awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
fi
abi=${img_pkg#linux-image-}; abi=${abi%-amd64}          # e.g. 6.1.0-57
hdr_pkg=linux-headers-$abi-amd64
# -common and linux-kbuild-X.Y come from the headers package's own Depends.
mapfile -t hdr_deps < <(apt-cache depends "$hdr_pkg" | awk '/Depends: linux-(headers|kbuild)-/ {print $2}')
pkgs=("$img_pkg" "$hdr_pkg" "${hdr_deps[@]}" "$XEN_PKG")
kdir=
fi
log "$LAB_DIST: kernel $abi, packages: ${pkgs[*]}"

# --- download (only what is not cached at the candidate version) ------------
debs=()
for p in "${pkgs[@]}"; do
	ver=$(apt_cache show --no-all-versions "$p" | awk '/^Version:/ {print $2; exit}')
	f=$(ls "$LAB_CACHE/debs/${p}_${ver//:/%3a}_"*.deb 2>/dev/null | head -n1 || true)
	if [ -z "$f" ]; then
		log "downloading $p $ver"
		apt_download "$p=$ver"
		f=$(ls "$LAB_CACHE/debs/${p}_${ver//:/%3a}_"*.deb | head -n1)
	fi
	debs+=("$f")
done

# --- unpack, keyed by the exact .deb files ----------------------------------
key=$(printf '%s\n' "${debs[@]##*/}" | sha256sum | cut -c1-12)
kroot=$LAB_CACHE/kernel-$key
if [ ! -e "$kroot/.done" ]; then
	log "unpacking into $kroot"
	rm -rf "$kroot" && mkdir -p "$kroot"
	for f in "${debs[@]}"; do
		case ${f##*/} in xen-*) continue ;; esac
		dpkg -x "$f" "$kroot"
	done
	if [ -z "$kdir" ]; then
		# The arch headers include the -common Makefile by absolute
		# /usr/src path; point it into the unpacked tree instead.
		sed -i "s|^include /usr/src/|include $kroot/usr/src/|" \
			"$kroot/usr/src/$hdr_pkg/Makefile"
	fi
	# Debian 13 is usrmerged and xz-compresses its modules.  Give the
	# tree the /lib the later steps (modprobe -d, depmod -b) look in, and
	# plain .ko files that any insmod (busybox's in the guests) loads.
	[ -e "$kroot/lib" ] || ln -s usr/lib "$kroot/lib"
	find "$kroot/lib/modules/" -name '*.ko.xz' -print0 | xargs -0 -r -n 200 xz -d
	# modules.dep is made by the package's postinst, which we do not run.
	depmod -b "$kroot" "$abi-amd64"
	touch "$kroot/.done"
fi
xroot=$LAB_CACHE/xen-$key
if [ ! -e "$xroot/.done" ]; then
	rm -rf "$xroot" && mkdir -p "$xroot/pkg"
	for f in "${debs[@]}"; do
		case ${f##*/} in xen-*) dpkg -x "$f" "$xroot/pkg" ;; esac
	done
	# QEMU's multiboot loader wants the plain ELF, not the .gz.
	gunzip -c "$xroot"/pkg/boot/xen-*.gz > "$xroot/xen"
	touch "$xroot/.done"
fi

kdir=${kdir:-$kroot/usr/src/$hdr_pkg}
ln -sfn "$kdir" "$LAB_CACHE/kdir"
# Drop what an older kernel/Xen left behind (hundreds of MB each).
for d in "$LAB_CACHE"/kernel-* "$LAB_CACHE"/xen-*; do
	[ "$d" = "$kroot" ] || [ "$d" = "$xroot" ] || rm -rf "$d"
done
for f in "$LAB_CACHE"/debs/*.deb; do
	case " ${debs[*]} " in *" $f "*) ;; *) rm -f "$f" ;; esac
done

# Everything later steps need, in one sourceable file.
cat > "$LAB_CACHE/lab.env.tmp" <<ENV
LAB_KEY=$key
LAB_KVER=$abi-amd64
LAB_KROOT=$kroot
LAB_KDIR=$kdir
LAB_DIST=$LAB_DIST
LAB_VMLINUZ=$kroot/boot/vmlinuz-$abi-amd64
LAB_XEN=$xroot/xen
LAB_DEBS="${debs[*]##*/}"
ENV
mv "$LAB_CACHE/lab.env.tmp" "$LAB_CACHE/lab.env"
log "ok: kdir -> $(readlink "$LAB_CACHE/kdir")"
