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
# the headers of a second kernel release of the same flavour for the
# scenario's kernel upgrade (the newest other one the suite has: KVER2,
# empty when there is none, then the scenario simulates one), a Packages
# index and VERSION (what MODULE_VERSION the DKMS build must report).  apt resolves against the dom0 image's own dpkg status, so
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
# in_dist CMD...: CMD with the lab suite's apt: the host's for bookworm,
# the build root's for trixie (where the repository is /xnb).
in_dist() {
	if [ "$LAB_DIST" = bookworm ]; then
		"$@"
	else
		"$top/scripts/buildroot.sh" exec "$repo" "$@"
	fi
}
# The second release: the newest other linux-headers-<release>-amd64 of
# the same series (not -cloud-, -rt-), e.g. the previous ABI that
# security updates keep, unless its headers need that release's kernel
# image too (trixie's do: 108 MB more, and initramfs-tools, in a dom0
# that lives in RAM): then none, and the scenario simulates the upgrade.
series=$(echo "$LAB_KVER" | cut -d. -f1,2)
kver2=$(in_dist apt-cache search --names-only '^linux-headers-[0-9].*-amd64$' |
	cut -d' ' -f1 | grep -v -e '-cloud-amd64$' -e '-rt-amd64$' |
	sed 's/^linux-headers-//' | grep -F "$series." | grep -vFx "$LAB_KVER" |
	sort -V | tail -n1) || kver2=
case $kver2 in "$series".*) ;; *) kver2= ;; esac
if [ -n "$kver2" ] && in_dist apt-cache depends "linux-headers-$kver2" |
	grep -q 'Depends: linux-image-'; then
	log "linux-headers-$kver2 needs linux-image-$kver2: the scenario simulates the upgrade"
	kver2=
fi
log "$LAB_DIST: what dom0 lacks for ${pkg##*/} and $hdr${kver2:+, and linux-headers-$kver2}"
if ! in_dist apt-get "${apt_opts[@]}" install -d "./${pkg##*/}" "$hdr" \
	${kver2:+"linux-headers-$kver2"} > download.log; then
	[ -n "$kver2" ] || { cat download.log >&2; exit 1; }
	log "no linux-headers-$kver2 to be had: the scenario will simulate the upgrade"
	kver2=
	in_dist apt-get "${apt_opts[@]}" install -d "./${pkg##*/}" "$hdr" > download.log ||
		{ cat download.log >&2; exit 1; }
fi
rm -rf status partial download.log
dpkg-scanpackages -m . > Packages 2> /dev/null
cat "$top/VERSION" > VERSION
echo "$LAB_KVER" > KVER
echo "$kver2" > KVER2
log "$(grep -c '^Package:' Packages) packages, $(du -sh . | cut -f1) in $repo"
