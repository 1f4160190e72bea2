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
# Output: $LAB_CACHE/kernel-<key>/ (unpacked image+headers+kbuild),
#         $LAB_CACHE/xen-<key>/xen (gunzipped hypervisor),
#         $LAB_CACHE/kdir -> headers dir, $LAB_CACHE/lab.env (paths, versions).
set -euo pipefail

LAB_CACHE=${LAB_CACHE:-/var/cache/xnb-lab}
here=$(cd "$(dirname "$0")" && pwd)
XEN_PKG=${XEN_PKG:-xen-hypervisor-4.17-amd64}

log() { echo "lab-fetch: $*" >&2; }
# The cache is shared by every checkout on the machine: one fetch at a time.
mkdir -p "$LAB_CACHE"
exec 9>"$LAB_CACHE/.fetch.lock"
flock 9

# --- host packages ---------------------------------------------------------
"$here/need.sh" -f "$here/lab-deps.txt"
updated=0
apt_update() { [ $updated = 1 ] || { apt-get update -qq; updated=1; }; }

# --- which kernel ------------------------------------------------------------
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
log "kernel $img_pkg, packages: ${pkgs[*]}"

# --- download (only what is not cached at the candidate version) ------------
mkdir -p "$LAB_CACHE/debs"
debs=()
for p in "${pkgs[@]}"; do
	ver=$(apt-cache show --no-all-versions "$p" | awk '/^Version:/ {print $2; exit}')
	f=$(ls "$LAB_CACHE/debs/${p}_${ver//:/%3a}_"*.deb 2>/dev/null | head -n1 || true)
	if [ -z "$f" ]; then
		log "downloading $p $ver"
		(cd "$LAB_CACHE/debs" && apt-get download -q "$p=$ver")
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
	# The arch headers include the -common Makefile by absolute /usr/src
	# path; point it into the unpacked tree instead.
	sed -i "s|^include /usr/src/|include $kroot/usr/src/|" \
		"$kroot/usr/src/$hdr_pkg/Makefile"
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

ln -sfn "$kroot/usr/src/$hdr_pkg" "$LAB_CACHE/kdir"
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
LAB_KDIR=$kroot/usr/src/$hdr_pkg
LAB_VMLINUZ=$kroot/boot/vmlinuz-$abi-amd64
LAB_XEN=$xroot/xen
LAB_DEBS="${debs[*]##*/}"
ENV
mv "$LAB_CACHE/lab.env.tmp" "$LAB_CACHE/lab.env"
log "ok: kdir -> $(readlink "$LAB_CACHE/kdir")"
