# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# deb: install xen-netback-wg-dkms as an admin would (apt, from the local
# repository /lab/deb that `make lab SCENARIOS=deb` adds to dom0), let DKMS
# build it against dom0's headers, modprobe it, check that the DKMS build
# is what runs, that the package's modprobe.d file is a conffile whose
# commented-out defaults are the module's own, that the admin tool
# xnbctl is installed and sees the guest's vif (and its vif-post.d hook
# is installed, a conffile), and that a guest gets
# traffic; then a kernel "upgrade": headers for a second kernel release
# make DKMS build for that one too (a real second release's headers
# where the suite has some, else simulated); last, apt purge takes it
# all away.
# Debian 12 (dkms 3.0) and 13 (dkms 3.2: modules compressed like the
# kernel's, no CLEAN) alike: `make lab [LAB_DIST=trixie] SCENARIOS=deb`.
# Slow under TCG (two module builds with gcc in dom0; measured on
# bookworm: apt + first build 225 s, rebuild 209 s, 732 s for the whole
# boot): lab.mk gives it LAB_DEB_TIMEOUT (2400 s, trixie 3600 s).
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

# A failed DKMS build's log: in its build directory (dkms 3.0), or kept
# under the kernel's (3.2).
dkms_log() {
	tail -n 30 /var/lib/dkms/xen-netback-wg/*/build/make.log \
		/var/lib/dkms/xen-netback-wg/*/*/*/log/make.log 2>/dev/null
}

# Debian 13's headers depend on their kernel's image package, which a
# real dom0 has and this one (booted from the host's files) has not: apt
# installs it.  A dom0 living in RAM has no room for a second copy of the
# modules it already has, nor for an initramfs it has no use for: dpkg
# leaves the image's modules out (those of the running kernel stay) and
# its postinst makes no initramfs.  As on a real dom0, apt then adds only
# the headers and the build tools.
export INITRD=No
printf 'path-exclude=%s/modules/%s/kernel/*\n' /lib "$kver" /usr/lib "$kver" \
	> /etc/dpkg/dpkg.cfg.d/xnb-lab-no-modules

# Whatever the runner loaded goes; from now on modprobe decides.
lab_unload_backend
lab_log "apt install linux-headers-$kver"
apt-get install -y -q --no-install-recommends "linux-headers-$kver" ||
	lab_fail "apt-get install linux-headers-$kver"
lab_log "apt install xen-netback-wg-dkms (DKMS builds it now)"
t0=$(cut -d' ' -f1 /proc/uptime)
apt-get install -y -q --no-install-recommends $repo/xen-netback-wg-dkms_*_all.deb 2>&1 |
	tee /run/deb-apt.log
[ "${PIPESTATUS[0]}" = 0 ] ||
	{ dkms_log
	  lab_fail "apt-get install xen-netback-wg-dkms"; }
t1=$(cut -d' ' -f1 /proc/uptime)
# The postinst says what is loaded (nothing: unloaded above), what
# modprobe takes (the DKMS build) and when that is active.
lab_assert "postinst: loaded now: none" \
	grep -qF "xen-netback-wg-dkms: loaded now: none (xen-netback is not loaded)" /run/deb-apt.log
lab_assert "postinst: modprobe takes the DKMS build" \
	grep -q "xen-netback-wg-dkms: modprobe takes, for the running kernel (uname -r: $kver): .*/updates/dkms/xen-netback.ko" /run/deb-apt.log
lab_assert "postinst: when it is active" \
	grep -qF 'xen-netback-wg-dkms: active after `modprobe -r xen-netback && modprobe xen-netback` with no guest running, or the next boot' /run/deb-apt.log
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
lab_assert "xen-netback(4) installed" \
	sh -c "dpkg -L xen-netback-wg-dkms | grep -q '^/usr/share/man/man4/xen-netback.4.gz\$'"
lab_assert "xnbctl and xnbctl(8) installed" \
	sh -c "test -x /usr/sbin/xnbctl && dpkg -L xen-netback-wg-dkms | grep -q '^/usr/share/man/man8/xnbctl.8.gz\$'"
lab_assert "xnbctl's bash completion installed" \
	sh -c "dpkg -L xen-netback-wg-dkms | grep -q '^/usr/share/bash-completion/completions/xnbctl\$'"
lab_assert "xnbctl --version: the package's $want, the driver's $got" \
	test "$(/usr/sbin/xnbctl --version)" = "xnbctl $want
xen-netback $got"
pinhook=/etc/xen/scripts/vif-post.d/xen-netback-wg-pins.hook
lab_assert "$pinhook installed, executable, a conffile, running /usr/sbin/xnbctl" \
	sh -c "test -x $pinhook && grep -q '/usr/sbin/xnbctl vif pin-apply' $pinhook &&
		dpkg-query -W -f='\${Conffiles}\n' xen-netback-wg-dkms | grep -q ' $pinhook '"

# The options file: a conffile, nothing active, and each commented-out
# line, uncommented, gives the module what it has by default.
conf=/etc/modprobe.d/xen-netback-wg.conf
lab_assert "$conf installed" test -r $conf
lab_assert "$conf is a conffile" \
	sh -c "dpkg-query -W -f='\${Conffiles}\n' xen-netback-wg-dkms | grep -q ' $conf '"
lab_assert "no option active in $conf" sh -c "! grep -q '^[[:space:]]*options' $conf"
params() {
	local p
	for p in /sys/module/xen_netback/parameters/*; do
		echo "${p##*/}=$(cat "$p")"
	done
}
defaults=$(params)
n=$(grep -c '^#options xen_netback ' $conf)
lab_log "$conf: $n options; the module has $(echo "$defaults" | wc -l) parameters"
lab_assert "$conf lists every parameter" test "$n" = "$(echo "$defaults" | wc -l)"
lab_unload_backend
unknown0=$(dmesg | grep -c 'xen_netback: unknown parameter')
sed 's/^#options/options/' $conf > /etc/modprobe.d/xnb-lab-defaults.conf
lab_assert "modprobe -c shows the $n options" \
	test "$(modprobe -c | grep -c '^options xen_netback ')" = "$n"
modprobe xen-netback ||
	{ rm -f /etc/modprobe.d/xnb-lab-defaults.conf; lab_fail "modprobe with $conf's defaults"; }
explicit=$(params)
rm -f /etc/modprobe.d/xnb-lab-defaults.conf
if [ "$explicit" != "$defaults" ]; then
	diff <(echo "$defaults") <(echo "$explicit")
	lab_fail "$conf's defaults differ from the module's (- module, + file)"
fi
lab_assert "no unknown parameter in $conf" \
	test "$(dmesg | grep -c 'xen_netback: unknown parameter')" = "$unknown0"
lab_guest_start 1
lab_assert "the packaged xnbctl shows g1's vif" \
	sh -c "/usr/sbin/xnbctl status | grep -q '^$(lab_vif_name 1) '"
ip=$(lab_guest_ip 1)
tx=$(lab_iperf "$ip" -R 3)
rx=$(lab_iperf "$ip" 3)
lab_log "g1 guest->dom0 $tx Gbit/s, dom0->guest $rx Gbit/s"
echo "XNB-METRIC deb g1 guest_to_dom0_gbps=$tx dom0_to_guest_gbps=$rx"
lab_assert_gt "$tx" 0 "guest->dom0 throughput"
lab_assert_gt "$rx" 0 "dom0->guest throughput"
lab_destroy_all

# Kernel upgrade: a second release's headers appear and their package's
# hook runs DKMS for that release.  Real where lab-debrepo found headers
# of another release that need no kernel image of their own (bookworm:
# the previous ABI; KVER2): apt installs them and linux-headers' postinst
# runs /etc/kernel/header_postinst.d/dkms.  Else (trixie, whose headers
# pull a 108 MB image and initramfs-tools into a dom0 that lives in RAM)
# simulated: a renamed copy of this kernel's headers, with that release
# in utsrelease.h so the module's vermagic shows which build it is, and
# the kernel postinst hook run by hand, as linux-image's postinst does.
# (KVER2 holds an empty line when the suite has no such release.)
kv2=$(cat $repo/KVER2 2>/dev/null) real_upgrade=$kv2
if [ -z "$kv2" ]; then
	# The repository is not needed any more: give dom0's RAM back.
	rm -f $repo/*.deb
	kv2=${kver%-*}.1-${kver##*-}
fi
mkdir -p "/lib/modules/$kv2"
# What a kernel image would bring along; depmod warns without them.
cp /lib/modules/"$kver"/modules.{order,builtin,builtin.modinfo} "/lib/modules/$kv2/" 2>/dev/null
t0=$(cut -d' ' -f1 /proc/uptime)
if [ -n "$real_upgrade" ]; then
	lab_log "kernel upgrade: apt install linux-headers-$kv2 (its postinst runs DKMS)"
	lab_assert "dkms header hook present" test -x /etc/kernel/header_postinst.d/dkms
	apt-get install -y -q --no-install-recommends "linux-headers-$kv2" ||
		{ dkms_log
		  lab_fail "apt-get install linux-headers-$kv2"; }
else
	lab_log "kernel upgrade, simulated: headers for $kv2"
	cp -a "/usr/src/linux-headers-$kver" "/usr/src/linux-headers-$kv2"
	sed -i "s/\"$kver\"/\"$kv2\"/" "/usr/src/linux-headers-$kv2/include/generated/utsrelease.h"
	ln -sfn "/usr/src/linux-headers-$kv2" "/lib/modules/$kv2/build"
	hook=/etc/kernel/postinst.d/dkms
	[ -x $hook ] || hook=/etc/kernel/header_postinst.d/dkms
	lab_assert "dkms kernel hook present" test -x $hook
	$hook "$kv2" || lab_fail "$hook $kv2"
fi
t1=$(cut -d' ' -f1 /proc/uptime)
echo "XNB-METRIC deb rebuild_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", b - a }')"
dkms status
lab_assert "dkms installed the module for $kv2" \
	sh -c "dkms status -k $kv2 | grep -q 'xen-netback-wg/$want.*installed'"
# By modprobe's index where depmod made one for the new release (the
# real upgrade); else (the simulated release on Debian 13, whose depmod
# index modinfo did not find) the file DKMS says it installed.
f2=$(modinfo -k "$kv2" -F filename xen-netback 2>/dev/null) ||
	f2=$(ls /lib/modules/"$kv2"/updates/dkms/xen-netback.ko* /usr/lib/modules/"$kv2"/updates/dkms/xen-netback.ko* 2>/dev/null | head -n1)
if [ -z "$real_upgrade" ]; then
	ls -l /lib/modules/"$kv2"/ /usr/lib/modules/"$kv2"/ 2>&1 | head -n 20
fi
vm=$(modinfo -F vermagic "$f2")
lab_log "for $kv2: $f2 ($vm)"
# (/usr/lib/modules where kmod is built for the merged /usr.)
# (A pattern, not a regular expression: Debian 13's releases have a '+'.)
in_updates() { [[ $f2 == ?(/usr)/lib/modules/"$kv2"/updates/dkms/xen-netback.ko* ]]; }
lab_assert "module for $kv2 in updates/dkms" in_updates
lab_assert "built against $kv2's headers ($vm)" test "${vm%% *}" = "$kv2"
lab_assert "still $f for $kver" test "$(modinfo -F filename xen-netback)" = "$f"

# Undo, as docs/install.md says: purge removes the DKMS builds of both
# releases, the depmod.d override and the options file; modprobe is back
# to the kernel's own driver.
lab_unload_backend
apt-get purge -y -q xen-netback-wg-dkms || lab_fail "apt-get purge xen-netback-wg-dkms"
dkms status
lab_assert "no DKMS build left" sh -c "! dkms status | grep -q xen-netback-wg"
lab_assert "purge removed $conf" test ! -e $conf
lab_assert "purge removed the depmod.d override" test ! -e /etc/depmod.d/xen-netback-wg.conf
f3=$(modinfo -F filename xen-netback)
lab_log "after purge: $f3"
lab_assert "the in-tree driver again ($f3)" \
	sh -c "echo '$f3' | grep -q '/kernel/drivers/net/xen-netback/xen-netback.ko'"

# Leave the backend under test for the scenarios after this one.
lab_unload_backend
