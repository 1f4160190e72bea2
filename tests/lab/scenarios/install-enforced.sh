# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# install-enforced: make install's script (scripts/install.sh, here
# /lab/install.sh) on a real kernel, modinfo and depmod.  First with
# signatures not enforced: ours goes into updates/, modprobe takes and
# loads it, the script says how to activate it and what is loaded, and
# the uninstall gives the kernel's own driver back.  Then with
# module.sig_enforce=Y: the script refuses our unsigned module and
# changes nothing, the kernel indeed rejects that module and loads
# Debian's signed one, and a signed module (Debian's, as a stand-in) is
# installed and uninstalled.
# sig_enforce cannot be turned off again before the next boot, and our
# module is unsigned: run this scenario alone (or last):
#     make lab SCENARIOS=install-enforced
# Lockdown cannot be lowered at run time either and would restrict the
# lab's own tools: tests/install/ covers it, with a fake /sys.
se=/sys/module/module/parameters/sig_enforce
kver=$(uname -r)
dest=/lib/modules/$kver/updates/xen-netback.ko
stock=/lib/modules/$kver/kernel/drivers/net/xen-netback/xen-netback.ko
state=/var/lib/xen-netback-wg/$kver
out=/run/install-enforced.out
[ "$NETBACK" = ours ] || lab_skip "it installs our module: NETBACK=ours"
[ -x "$LAB_DIR/install.sh" ] || lab_fail "no $LAB_DIR/install.sh (lab-run.sh copies scripts/install.sh)"
[ -f "$se" ] || lab_skip "a kernel without module signatures (no $se)"
[ "$(cat $se)" = N ] || lab_skip "sig_enforce is Y already: a scenario before this one, or a boot option"
[ -f "$stock" ] || lab_skip "no stock module at $stock"
[ ! -e "$dest" ] || lab_fail "$dest there before the scenario"

# inst ARGS...: install.sh ARGS, its output shown and kept in $out.
inst() {
	local rc
	"$LAB_DIR/install.sh" "$@" > $out 2>&1
	rc=$?
	sed 's/^/  | /' $out
	return $rc
}
said() { grep -qF -- "$1" $out || lab_fail "install.sh did not say: $1"; }
takes() { modinfo -F filename xen-netback 2> /dev/null; }

lab_log "not enforced: install, modprobe, uninstall"
ver=$(modinfo -F version "$LAB_DIR/xen-netback.ko")
lab_assert "install, signatures not enforced" inst install "$LAB_DIR/xen-netback.ko" "$kver"
said "installed $dest (version $ver)"
said "before it, modprobe took: $stock (stock: the kernel's own)"
said 'active after `modprobe -r xen-netback && modprobe xen-netback` with no guest running, or the next boot'
said "loaded now: xen-netback-wg $(cat /sys/module/xen_netback/version)"
lab_assert "modprobe takes ours ($(takes))" test "$(takes)" = "$dest"
lab_assert "state kept in $state" test -f "$state/info"
# What the script says activates it: with no guest, unload and modprobe.
lab_unload_backend
modprobe xen-netback || lab_fail "modprobe xen-netback (ours, installed)"
lab_assert "modprobe loaded ours, $ver" test "$(cat /sys/module/xen_netback/version)" = "$ver"
lab_unload_backend
lab_assert "uninstall" inst uninstall "$kver"
said "modprobe now takes: $stock (stock: the kernel's own)"
said "loaded now: none (xen-netback is not loaded)"
lab_assert "modprobe takes the stock driver again ($(takes))" test "$(takes)" = "$stock"
lab_assert "no state left" test ! -e "$state"

lab_log "module.sig_enforce=Y, until the next boot"
echo Y > $se || lab_fail "could not turn sig_enforce on"
lab_assert "sig_enforce is Y" test "$(cat $se)" = Y
if inst install "$LAB_DIR/xen-netback.ko" "$kver"; then
	lab_fail "install.sh installed an unsigned module under sig_enforce"
fi
said "refused: the running kernel loads only signed modules (module.sig_enforce=Y)"
said "scripts/sign-file sha256 /var/lib/dkms/mok.key /var/lib/dkms/mok.pub"
said "XNB_ALLOW_UNSIGNED=1"
lab_assert "nothing installed" test ! -e "$dest"
lab_assert "no state written" test ! -e "$state"
lab_assert "modprobe still takes the stock driver" test "$(takes)" = "$stock"
# The host it saved: the kernel refuses our module now...
if insmod "$LAB_DIR/xen-netback.ko" 2> /run/insmod.err; then
	lab_fail "the kernel loaded an unsigned module under sig_enforce"
fi
lab_log "insmod of ours: $(cat /run/insmod.err)"
# ... and takes Debian's, which is signed.
modprobe xen-netback || lab_fail "modprobe of the stock (signed) module under sig_enforce"
lab_assert "the stock driver loaded" test ! -e /sys/module/xen_netback/version

# A signed module is installed under enforcement: Debian's own.
cp "$stock" /run/signed-xen-netback.ko
lab_assert "install of a signed module" inst install /run/signed-xen-netback.ko "$kver"
said "/run/signed-xen-netback.ko is signed by"
said "loaded now: stock (the kernel's own xen-netback)"
lab_assert "modprobe takes it ($(takes))" test "$(takes)" = "$dest"
lab_assert "uninstall" inst uninstall "$kver"
lab_assert "modprobe takes the stock driver again" test "$(takes)" = "$stock"
lab_assert "nothing left in updates/" test ! -e "$dest"
