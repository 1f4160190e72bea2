#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# For the lab scenario `deb`: a local apt repository that lets dom0 (which
# has no network) install xen-netback-wg-dkms the way an admin would.
#
#   tests/lab/host/lab-debrepo.sh OUT
#
# OUT/lab/deb/ gets build/deb/xen-netback-wg-dkms_<v>_all.deb (make deb),
# every package apt needs on top of the dom0 image to install it and the
# headers of the lab kernel (dkms, gcc, make, linux-headers-<kver>...),
# a Packages index and VERSION (what MODULE_VERSION the DKMS build must
# report).  apt resolves against the dom0 image's own dpkg status, so
# nothing the image already has is fetched; only --download-only is run,
# nothing is installed on the host.  lab-run.sh appends OUT to the dom0
# initramfs (LAB_DOM0_EXTRA_DIR).  About 75 MB for bookworm.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
# shellcheck source=tests/lab/host/lab-env.sh
. "$(dirname "$0")/lab-env.sh"
export BUILDROOT=${BUILDROOT:-/var/cache/xnb-lab/buildroot-trixie}
out=${1:?usage: $0 OUT}

log() { echo "lab-debrepo: $*" >&2; }

# shellcheck source=/dev/null
. "$LAB_CACHE/lab.env"
base=$(find "$LAB_CACHE" -maxdepth 1 -name 'base-*' | head -n1)
[ -e "$base/.done" ] || { log "no dom0 base in $LAB_CACHE: run make lab-images"; exit 2; }
pkg=$(find "$top/build/deb" -maxdepth 1 -name 'xen-netback-wg-dkms_*_all.deb' 2>/dev/null | head -n1)
[ -n "$pkg" ] || { log "no package: run make deb"; exit 2; }

repo=$out/lab/deb
rm -rf "$out"
mkdir -p "$repo/partial"
cp "$pkg" "$base/var/lib/dpkg/status" "$repo/"
cd "$repo"
# Absolute paths: apt takes relative ones below its own directories.
# Inside the build root the repository is /xnb.
d=$PWD
[ "$LAB_DIST" = bookworm ] || d=/xnb
apt_opts=(-q -y -o "Dir::State::status=$d/status" -o "Dir::Cache::archives=$d"
	-o APT::Install-Recommends=false -o Debug::NoLocking=1
	-o APT::Sandbox::User=root)
hdr=linux-headers-$LAB_KVER
log "$LAB_DIST: what dom0 lacks for ${pkg##*/} and $hdr"
if [ "$LAB_DIST" = bookworm ]; then
	apt-get "${apt_opts[@]}" install -d "./${pkg##*/}" "$hdr" > download.log
else
	# Trixie's apt, in the build root; the repository is its /xnb.
	"$top/scripts/buildroot.sh" exec "$repo" apt-get "${apt_opts[@]}" \
		install -d "./${pkg##*/}" "$hdr" > download.log
fi
rm -rf status partial download.log
dpkg-scanpackages -m . > Packages 2> /dev/null
cat "$top/VERSION" > VERSION
echo "$LAB_KVER" > KVER
log "$(grep -c '^Package:' Packages) packages, $(du -sh . | cut -f1) in $repo"
