# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# deb: install xen-netback-wg-dkms as an admin would (apt, from the local
# repository /lab/deb that `make lab SCENARIOS=deb` adds to dom0), let DKMS
# build it against dom0's headers, modprobe it, check that the DKMS build
# is what runs and that a guest gets traffic; then a kernel "upgrade":
# headers for a second kernel release make DKMS build for that one too.
# Slow under TCG (two module builds with gcc in dom0; measured: apt +
# first build 225 s, rebuild 209 s, 732 s for the whole boot): give it
# LAB_SCENARIO_TIMEOUT=2400.
repo=/lab/deb
[ -r $repo/Packages ] || lab_skip "no $repo (make lab SCENARIOS=deb builds it)"
kver=$(uname -r)
want=$(cat $repo/VERSION)
lab_assert "repository made for this kernel ($(cat $repo/KVER))" test "$(cat $repo/KVER)" = "$kver"
export DEBIAN_FRONTEND=noninteractive
# The image has no network and no apt lists: the local repository is the
# only source.
echo "deb [trusted=yes] file:$repo ./" > /etc/apt/sources.list
# (The image builder emptied apt's cache directories.)
mkdir -p /var/cache/apt/archives/partial /var/lib/apt/lists/partial
rm -f /etc/apt/sources.list.d/*
apt-get update -q || lab_fail "apt-get update"

# Whatever the runner loaded goes; from now on modprobe decides.
lab_unload_backend
lab_log "apt install linux-headers-$kver"
apt-get install -y -q --no-install-recommends "linux-headers-$kver" ||
	lab_fail "apt-get install linux-headers-$kver"
lab_log "apt install xen-netback-wg-dkms (DKMS builds it now)"
t0=$(cut -d' ' -f1 /proc/uptime)
apt-get install -y -q --no-install-recommends $repo/xen-netback-wg-dkms_*_all.deb ||
	{ cat /var/lib/dkms/xen-netback-wg/*/build/make.log 2>/dev/null | tail -n 30
	  lab_fail "apt-get install xen-netback-wg-dkms"; }
t1=$(cut -d' ' -f1 /proc/uptime)
echo "XNB-METRIC deb install_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", b - a }')"
dkms status
lab_assert "dkms installed the module for $kver" \
	sh -c "dkms status -k $kver | grep -q 'xen-netback-wg/$want.*installed'"
f=$(modinfo -F filename xen-netback)
lab_log "modinfo: $f"
lab_assert "modprobe picks the DKMS build ($f)" \
	sh -c "echo '$f' | grep -q '/updates/dkms/xen-netback.ko'"

modprobe xen-netback || lab_fail "modprobe xen-netback"
got=$(cat /sys/module/xen_netback/version 2>/dev/null)
lab_log "loaded xen_netback version '$got', package version '$want'"
lab_assert "loaded module version $got = $want" test "$got" = "$want"
lab_guest_start 1
ip=$(lab_guest_ip 1)
tx=$(lab_iperf "$ip" -R 3)
rx=$(lab_iperf "$ip" 3)
lab_log "g1 guest->dom0 $tx Gbit/s, dom0->guest $rx Gbit/s"
echo "XNB-METRIC deb g1 guest_to_dom0_gbps=$tx dom0_to_guest_gbps=$rx"
lab_assert_gt "$tx" 0 "guest->dom0 throughput"
lab_assert_gt "$rx" 0 "dom0->guest throughput"
lab_destroy_all

# Kernel upgrade: a second release's headers appear (a renamed copy of
# this kernel's, with that release in utsrelease.h so the module's
# vermagic shows which build it is), and the kernel's postinst hook runs
# DKMS for it, as the linux-image package's postinst does.
kv2=${kver%-*}.1-${kver##*-}
lab_log "kernel upgrade to $kv2"
cp -a "/usr/src/linux-headers-$kver" "/usr/src/linux-headers-$kv2"
sed -i "s/\"$kver\"/\"$kv2\"/" "/usr/src/linux-headers-$kv2/include/generated/utsrelease.h"
mkdir -p "/lib/modules/$kv2"
ln -sfn "/usr/src/linux-headers-$kv2" "/lib/modules/$kv2/build"
cp /lib/modules/"$kver"/modules.{order,builtin,builtin.modinfo} "/lib/modules/$kv2/" 2>/dev/null
hook=/etc/kernel/postinst.d/dkms
[ -x $hook ] || hook=/etc/kernel/header_postinst.d/dkms
lab_assert "dkms kernel hook present" test -x $hook
t0=$(cut -d' ' -f1 /proc/uptime)
$hook "$kv2" || lab_fail "$hook $kv2"
t1=$(cut -d' ' -f1 /proc/uptime)
echo "XNB-METRIC deb rebuild_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", b - a }')"
dkms status
lab_assert "dkms installed the module for $kv2" \
	sh -c "dkms status -k $kv2 | grep -q 'xen-netback-wg/$want.*installed'"
f2=$(modinfo -k "$kv2" -F filename xen-netback)
vm=$(modinfo -k "$kv2" -F vermagic xen-netback)
lab_log "for $kv2: $f2 ($vm)"
lab_assert "module for $kv2 in updates/dkms" \
	sh -c "echo '$f2' | grep -q '^/lib/modules/$kv2/updates/dkms/xen-netback.ko'"
lab_assert "built against $kv2's headers ($vm)" sh -c "echo '$vm' | grep -q '^$kv2 '"
lab_assert "still $f for $kver" test "$(modinfo -F filename xen-netback)" = "$f"

# Leave the backend under test for the scenarios after this one.
lab_unload_backend
