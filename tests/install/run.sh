#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make install-test: scripts/install.sh (make install, make uninstall)
# against a fake root: /sys files saying whether the kernel enforces
# module signatures, a /lib/modules tree, fake module files, and
# stand-ins for modinfo and depmod (stubs/).  No root, no kernel.  And
# scripts/need.sh, which installs a make target's missing packages only
# when asked to, with stand-ins for apt-get, dpkg-query and id
# (need-stubs/): the need_* cases.
#
# One case per function t_<name>, listed in CASES.  A case builds its
# root under $R (the fx_* helpers), runs the script with `x [VAR=VALUE...]
# install|uninstall ARGS...`, and ends with `expect`, which compares the
# transcript with its here-document exactly: for each run "$ ARGS", its
# stdout, its stderr lines prefixed "stderr: ", the depmod runs, "[exit
# N]", no blank at a line's end; `files` adds the files of the module tree and the state.  $R is
# written ROOT.  `n` runs need.sh the same way, apt-get's runs in the
# transcript.  A here-document's "@NAME ARG" line stands for the block
# g_NAME prints (@refusal, @installed, @now_takes and the like: the text
# many runs share); expect and the case loop are tests/common/golden.sh's.
#
#   tests/install/run.sh [CASE...]    all cases, or those named
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
INSTALL=$top/scripts/install.sh
STUBS=$here/stubs
NEED=$top/scripts/need.sh
NEED_STUBS=$here/need-stubs
MIRROR=$top/scripts/apt-mirror.sh
# shellcheck source=tests/common/golden.sh
. "$top/tests/common/golden.sh"
# The modes the root_* cases expect.
umask 022
work=$(mktemp -d /tmp/install-test.XXXXXX)
trap 'rm -rf "$work"' EXIT
KV=6.1.0-57-amd64
MOD=lib/modules/$KV

# --- fixtures ---------------------------------------------------------------

# fx_sys SIG_ENFORCE LOCKDOWN: the kernel's word on signatures; "-" for
# a file it does not have.
fx_sys() {
	local p=$R/sys/module/module/parameters
	mkdir -p "$p" "$R/sys/kernel/security"
	[ "$1" = - ] || echo "$1" > "$p/sig_enforce"
	[ "$2" = - ] || echo "$2" > "$R/sys/kernel/security/lockdown"
}
# fx_efi on|off|silent [MOKUTIL]: an EFI system whose SecureBoot
# variable says on or off, or is not there (silent); MOKUTIL: what
# mokutil --sb-state prints (without: it fails).
fx_efi() {
	local v=$R/sys/firmware/efi/efivars
	mkdir -p "$v"
	case $1 in
	on) printf '\x06\x00\x00\x00\x01' > "$v/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c" ;;
	off) printf '\x06\x00\x00\x00\x00' > "$v/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c" ;;
	esac
	[ -z "${2:-}" ] || echo "$2" > "$R/mokutil.sb-state"
}
# fx_no_sysfs_files: no sig_enforce, no lockdown file (a kernel
# without them).
fx_no_sysfs_files() {
	rm -r "$R/sys/module/module" "$R/sys/kernel/security"
}
# fx_os CODENAME: /etc/os-release of Debian CODENAME ("" for none).
fx_os() {
	mkdir -p "$R/etc"
	{
		echo 'ID=debian'
		[ -z "$1" ] || echo "VERSION_CODENAME=$1"
	} > "$R/etc/os-release"
}
# fx_apt FILE: stdin as /etc/apt/FILE.
fx_apt() {
	mkdir -p "$R/etc/apt/sources.list.d"
	cat > "$R/etc/apt/$1"
}
# fx_kernel [KVER [RUNNING]]: kernel KVER (default $KV) with its own
# xen-netback, depmod run; RUNNING (default KVER) runs.
fx_kernel() {
	local k=${1:-$KV}
	mkdir -p "$R/lib/modules/$k/kernel/drivers/net/xen-netback" "$R/proc/sys/kernel"
	echo id=stock > "$R/lib/modules/$k/kernel/drivers/net/xen-netback/xen-netback.ko"
	echo "${2:-$k}" > "$R/proc/sys/kernel/osrelease"
	XNB_INSTALL_ROOT=$R "$STUBS/depmod" -a -b "$R" "$k"
	rm -f "$R/depmod.log"
}
# fx_loaded none|stock|VERSION: the xen-netback running now.
fx_loaded() {
	local m=$R/sys/module/xen_netback
	rm -rf "$m"
	case $1 in
	none) ;;
	stock) mkdir -p "$m/parameters" ;;
	*) mkdir -p "$m/groups" && echo "$1" > "$m/version" ;;
	esac
}
# fx_ko PATH ID VERSION [SIGNER]: a fake module file; signed (the
# kernel's trailer) when SIGNER is given.  With a VERSION ("-": none) a
# build of ours (our description), unless DESC=TEXT fx_ko gives another
# description ("-": none).
fx_ko() {
	local desc=${DESC:-Xen network backend with worker groups and batched grant copies}
	[ "$3" != - ] || desc=${DESC:--}
	mkdir -p "$(dirname "$R/$1")"
	{
		echo "id=$2"
		[ "$3" = - ] || echo "version=$3"
		[ "$desc" = - ] || echo "description=$desc"
		[ -z "${4:-}" ] || printf 'signer=%s\n~Module signature appended~\n' "$4"
	} > "$R/$1"
}
# The usual host: nothing enforced, the stock driver loaded, our build
# in build/ (unsigned).
fx_standard() {
	fx_sys N '[none] integrity confidentiality'
	fx_kernel
	fx_loaded stock
	fx_ko build/xen-netback.ko ours 0.2.0
}

# --- running ----------------------------------------------------------------

# record LINE LOG RC: a run into the transcript: "$ LINE", its stdout
# ($R.out), its stderr ($R.err) prefixed, the stubs' LOG, its exit
# status RC; $R and $top written ROOT and TOP, no blank at a line's end.
record() {
	{
		echo "\$ $1"
		cat "$R.out"
		sed 's/^/stderr: /' "$R.err"
		cat "$2"
		echo "[exit $3]"
	} | sed -e "s|$R|ROOT|g" -e "s|$top|TOP|g" -e 's/[[:space:]]*$//' >> "$T"
	return 0
}
# x [VAR=VALUE...] ARGS...: run install.sh ARGS in this case's root with
# those variables, add the run to the transcript.
x() {
	local vars=() rc
	while [[ $1 == *=* ]]; do
		vars+=("$1")
		shift
	done
	: > "$R/depmod.log"
	(cd "$R" && env -u SUDO_UID -u PKEXEC_UID -u INSTALL_MOD_PATH -u INSTALL_MOD_DIR \
		-u XNB_ALLOW_UNSIGNED -u XNB_INSTALL_EUID -u XNB_INSTALL_ROOT_UID \
		XNB_INSTALL_TEST=1 XNB_INSTALL_ROOT="$R" \
		PATH="$STUBS:$PATH" KDIR=/kdir "${vars[@]}" "$INSTALL" "$@") \
		> "$R.out" 2> "$R.err"
	rc=$?
	record "${vars[*]:+${vars[*]} }$*" "$R/depmod.log" $rc
}
# n [VAR=VALUE...] ARGS...: run need.sh ARGS as root (NEED_UID=0), no
# package installed (NEED_INSTALLED=""), without XNB_YES or CI, input
# not a terminal, unless VARs say otherwise; TTY=ANSWER: on a terminal
# (script(1)) where ANSWER is typed (its echo left out of the transcript).
n() {
	local vars=() rc tty cmd
	unset tty
	while [[ $1 == *=* ]]; do
		case $1 in
		TTY=*) tty=${1#TTY=} ;;
		*) vars+=("$1") ;;
		esac
		shift
	done
	: > "$R/apt.log"
	cmd=(env -u XNB_YES -u CI NEED_LOG="$R/apt.log" NEED_UID=0 NEED_INSTALLED=
	     PATH="$NEED_STUBS:$PATH" "${vars[@]}" "$NEED" "$@")
	if [ -n "${tty+set}" ]; then
		printf '%s\n' "$tty" |
			script -qec "$(printf '%q ' "${cmd[@]}")" /dev/null > "$R.tty"
		rc=$?
		# The typed answer's echo comes where the terminal put it:
		# on a line of its own, or after the question.
		tr -d '\r' < "$R.tty" | sed 's/\(\[y\/N\] \)\(.\)/\1\n\2/' |
			grep -vxF "$tty" > "$R.out"
		: > "$R.err"
	else
		(cd "$R" && "${cmd[@]}") < /dev/null > "$R.out" 2> "$R.err"
		rc=$?
	fi
	record "${tty+TTY=$tty }${vars[*]:+${vars[*]} }need.sh $*" "$R/apt.log" $rc
}
# m [VAR=VALUE...]: run apt-mirror.sh on this case's root (a bookworm
# os-release unless the case wrote one), add the run to the transcript.
m() {
	local vars=() rc
	while [[ ${1:-} == *=* ]]; do
		vars+=("$1")
		shift
	done
	[ -e "$R/etc/os-release" ] || fx_os bookworm
	(cd "$R" && env -u LAB_MIRROR XNB_APT_ROOT="$R" "${vars[@]}" "$MIRROR") \
		> "$R.out" 2> "$R.err"
	rc=$?
	record "${vars[*]:+${vars[*]} }apt-mirror.sh" /dev/null $rc
}
# files: the module tree's and the state's files, a module by its id,
# the state's files in full (a checksum as the id of the file it is of).
files() {
	local f l
	(cd "$R" && find lib var img -type f ! -name modules.dep.stub 2>/dev/null) | sort |
	while read -r f; do
		case $f in
		*.ko) echo "file $f: $(sed -n 's/^id=//p' "$R/$f")" ;;
		*)
			while IFS= read -r l; do
				case $f:$l in
				*:sha256=*) l="sha256=(of $(sha_id "${l#sha256=}"))" ;;
				*/restored:*) l="(of $(sha_id "$l"))" ;;
				esac
				echo "file $f: $l"
			done < "$R/$f"
			;;
		esac
	done | sed "s|$R|ROOT|g" >> "$T"
}
# sha_id SHA256: the id of a module file under $R with that checksum.
sha_id() {
	local f
	while read -r f; do
		[ "$(sha256sum < "$R/$f" | cut -d' ' -f1)" = "$1" ] || continue
		sed -n 's/^id=//p' "$R/$f"
		return
	done < <(cd "$R" && find . -name '*.ko' | sort)
	echo "no file"
}
# note TEXT: a line of the case's own in the transcript.
note() { echo "$*" >> "$T"; }

# The blocks many transcripts share, for expect's @ lines.
# @refusal REASON: install's refusal of an unsigned module, for REASON.
g_refusal() {
	echo "stderr: install: refused: the running kernel loads only signed modules ($1), and"
	cat <<'EOF'
stderr:   build/xen-netback.ko is not signed.  Installed, it would be the
stderr:   xen-netback modprobe takes: the kernel would refuse it at the next load
stderr:   or boot, and every guest would lose its network.  Nothing was changed.
stderr: Either:
stderr:   - install with DKMS, which signs the module with its key (on Debian
stderr:     /var/lib/dkms/mok.key, enrolled once with mokutil --import
stderr:     /var/lib/dkms/mok.pub): the package (make deb, then apt install
stderr:     ./build/deb/xen-netback-wg-dkms_*_all.deb) or make dkms-install;
stderr:   - or sign this build with a key the kernel trusts (an enrolled MOK),
stderr:     then make install again:
stderr:       /kdir/scripts/sign-file sha256 /var/lib/dkms/mok.key /var/lib/dkms/mok.pub build/xen-netback.ko
stderr:   - or, knowing that the kernel will take it: make install XNB_ALLOW_UNSIGNED=1
stderr: docs/install.md, "Secure Boot", has the details.
EOF
}
# The stock driver of $KV as install and uninstall name it.
STOCK_KO="ROOT/$MOD/kernel/drivers/net/xen-netback/xen-netback.ko (stock: the kernel's own)"
# @installed [BEFORE]: our build installed for $KV with the stock driver
# loaded, BEFORE (default: the stock driver) what modprobe took before.
g_installed() {
	cat <<EOF
install: installed ROOT/$MOD/updates/xen-netback.ko (version 0.2.0)
install: before it, modprobe took: ${1:-$STOCK_KO}
install: active after \`modprobe -r xen-netback && modprobe xen-netback\` with no guest running, or the next boot
install: loaded now: stock (the kernel's own xen-netback)
install: undo: make uninstall (with the same KDIR)
depmod -a -b ROOT $KV
EOF
}
# @installed_files: files' lines after @installed: the stock driver
# kept, ours in updates/, the state naming the stock one.
g_installed_files() {
	cat <<EOF
file $MOD/kernel/drivers/net/xen-netback/xen-netback.ko: stock
file $MOD/updates/xen-netback.ko: ours
file var/lib/xen-netback-wg/$KV/info: before=ROOT/$MOD/kernel/drivers/net/xen-netback/xen-netback.ko
file var/lib/xen-netback-wg/$KV/info: sha256=(of ours)
EOF
}
# @now_takes [FILE]: the end of an uninstall for $KV with the stock
# driver loaded, FILE (default: the stock driver) what modprobe takes.
g_now_takes() {
	cat <<EOF
uninstall: modprobe now takes: ${1:-$STOCK_KO}
uninstall: active after \`modprobe -r xen-netback && modprobe xen-netback\` with no guest running, or the next boot
uninstall: loaded now: stock (the kernel's own xen-netback)
depmod -a -b ROOT $KV
EOF
}
# @replaced WHAT: another's module in updates/, WHAT, kept aside and
# replaced by our build.
g_replaced() {
	echo "install: replacing ROOT/$MOD/updates/xen-netback.ko ($1); kept in ROOT/var/lib/xen-netback-wg/$KV/replaced.ko"
	g_installed "ROOT/$MOD/updates/xen-netback.ko ($1)"
}
# @put_back WHAT: ours removed, the module @replaced WHAT put back.
g_put_back() {
	echo "uninstall: removed ROOT/$MOD/updates/xen-netback.ko"
	echo "uninstall: put back ROOT/$MOD/updates/xen-netback.ko ($1), the file make install had replaced"
	g_now_takes "ROOT/$MOD/updates/xen-netback.ko ($1)"
}

# --- cases ------------------------------------------------------------------

CASES=(
	"refuse_sig_enforce  sig_enforce=Y, unsigned: refused, how to sign, nothing changed"
	"refuse_lockdown     lockdown=integrity, unsigned: refused"
	"refuse_both         both, and XNB_ALLOW_UNSIGNED=0: refused, both reasons"
	"not_enforced        neither: installed; depmod; activation; stock loaded"
	"no_sysfs_files      no sig_enforce, no lockdown file, no EFI: installed"
	"sb_on               neither file, EFI Secure Boot on: refused; allowed with XNB_ALLOW_UNSIGNED=1"
	"sb_off              neither file, EFI Secure Boot off: installed"
	"sb_unknown          neither file, EFI, the state not told: refused"
	"sb_mokutil          neither file, EFI, no variable: mokutil --sb-state decides"
	"sb_other_kernel     another kernel than the running one: the running one's policy, said so"
	"signed              sig_enforce=Y, signed: installed, the signer named"
	"allow_unsigned      sig_enforce=Y, XNB_ALLOW_UNSIGNED=1: installed, warned"
	"uninstall_stock     install, uninstall: the stock driver is modprobe's again"
	"replace_restore     another's file replaced: kept; a second install keeps it; uninstall puts it back"
	"upgrade_ours        an earlier install of ours without state: not kept; uninstall leaves stock"
	"uninstall_twice     a second uninstall leaves the file put back; an install after it keeps it again"
	"uninstall_legacy    an install without state: removed, nothing to put back"
	"replace_stock_copy  a module without a version replaced: said so, put back"
	"uninstall_nothing   nothing installed: said, depmod all the same"
	"uninstall_changed   our file changed since: said, removed"
	"loaded_ours         ours loaded now: its version"
	"loaded_none         no xen-netback loaded now"
	"other_kernel        not the running kernel: active when it boots"
	"override_wins       a depmod.d override to updates/dkms: warned"
	"image               INSTALL_MOD_PATH: no host check, state in the image"
	"no_module           no built module: an error, nothing changed"
	"bad_kver            a kernel release with a slash: refused"
	"env_ignored         no test mode, or under sudo: the fake root unused"
	"mod_dir             INSTALL_MOD_DIR with '..' or absolute: refused"
	"root_ok             as root into a tree of root's: installed; a planted <kver>.new link not followed"
	"root_not_roots      as root, a directory of the path not root's: refused, install and uninstall"
	"root_link           as root, a symbolic link in the path not root's: refused"
	"root_writable       as root, a directory writable by every user: refused"
	"root_link_writable  as root, root's link to a directory writable by every user: refused"
	"need_present        need.sh: nothing missing: nothing said or run"
	"need_user           need.sh, not root: the sudo command, apt-get not run"
	"need_no_tty         need.sh, root, no terminal: the command, apt-get not run"
	"need_yes            need.sh, XNB_YES=1: installed unasked"
	"need_ci             need.sh, CI=true alone: not installed; with XNB_YES=1: installed"
	"need_usage          need.sh -f without a LIST: the usage"
	"need_tty_no         need.sh on a terminal, answered n: not installed"
	"need_tty_yes        need.sh on a terminal, answered y: installed"
	"need_list           need.sh -f LIST: the missing ones of the list"
	"need_update_retry   need.sh: an install that fails retried after apt-get update"
	"mirror_one_line     apt-mirror.sh: a sources.list line, its options and slash dropped"
	"mirror_deb822       apt-mirror.sh: Debian's own .sources, security first: the archive"
	"mirror_skipped      apt-mirror.sh: deb-src, disabled, other suites and files: none, an error"
	"mirror_order        apt-mirror.sh: sources.list first, then sources.list.d by name"
	"mirror_alias        apt-mirror.sh: the suite aliases stable ... sid too; -updates, experimental: none"
	"mirror_override     apt-mirror.sh: LAB_MIRROR wins"
	"mirror_no_codename  apt-mirror.sh: an os-release without a codename: an error"
)


# refuse_case SIG_ENFORCE LOCKDOWN REASON [VAR=VALUE...]: the usual
# host whose kernel says SIG_ENFORCE and LOCKDOWN (fx_sys); install of
# the unsigned build, with those variables, refused for REASON, the
# module tree unchanged.
refuse_case() {
	local reason=$3
	fx_standard
	fx_sys "$1" "$2"
	shift 3
	x "$@" install build/xen-netback.ko $KV
	files
	expect <<EOF
\$ ${*:+$* }install build/xen-netback.ko $KV
@refusal $reason
[exit 1]
file $MOD/kernel/drivers/net/xen-netback/xen-netback.ko: stock
EOF
}

t_refuse_sig_enforce() {
	refuse_case Y '[none] integrity confidentiality' module.sig_enforce=Y
}

t_refuse_lockdown() {
	refuse_case N 'none [integrity] confidentiality' lockdown=integrity
}

t_refuse_both() {
	refuse_case Y 'none integrity [confidentiality]' \
		'module.sig_enforce=Y lockdown=confidentiality' XNB_ALLOW_UNSIGNED=0
}

# installed_case [FIXTURE]: the usual host, changed by the fx_ function
# FIXTURE where given; our build installed, the stock driver kept.
installed_case() {
	fx_standard
	"${@:-:}"
	x install build/xen-netback.ko $KV
	files
	expect <<'EOF'
$ install build/xen-netback.ko 6.1.0-57-amd64
@installed
[exit 0]
@installed_files
EOF
}

t_not_enforced() {
	installed_case
}

t_no_sysfs_files() {
	installed_case fx_no_sysfs_files
}

# The refusal's text after its first line, which the sb_* cases leave
# out.
refusal_tail() {
	sed -i '/^stderr:   build\/xen-netback.ko is not signed/,/^stderr: docs\/install.md/d' "$T"
}

t_sb_on() {
	fx_standard
	fx_no_sysfs_files
	fx_efi on
	x install build/xen-netback.ko $KV
	x XNB_ALLOW_UNSIGNED=1 install build/xen-netback.ko $KV
	refusal_tail
	expect <<'EOF'
$ install build/xen-netback.ko 6.1.0-57-amd64
stderr: install: refused: the running kernel loads only signed modules (Secure Boot on, and no sig_enforce or lockdown file to say more), and
[exit 1]
$ XNB_ALLOW_UNSIGNED=1 install build/xen-netback.ko 6.1.0-57-amd64
install: WARNING: the running kernel loads only signed modules (Secure Boot on, and no sig_enforce or lockdown file to say more) and build/xen-netback.ko is not signed: installing it all the same (XNB_ALLOW_UNSIGNED=1)
@installed
[exit 0]
EOF
}

t_sb_off() {
	fx_standard
	fx_no_sysfs_files
	fx_efi off 'SecureBoot enabled'
	x install build/xen-netback.ko $KV
	expect <<'EOF'
$ install build/xen-netback.ko 6.1.0-57-amd64
@installed
[exit 0]
EOF
}

t_sb_unknown() {
	fx_standard
	fx_no_sysfs_files
	fx_efi silent
	x install build/xen-netback.ko $KV
	fx_efi silent 'This system does not tell'
	x install build/xen-netback.ko $KV
	refusal_tail
	files
	expect <<'EOF'
$ install build/xen-netback.ko 6.1.0-57-amd64
stderr: install: refused: the running kernel loads only signed modules (an EFI system that does not tell whether Secure Boot is on, taken as on; no sig_enforce or lockdown file to say more), and
[exit 1]
$ install build/xen-netback.ko 6.1.0-57-amd64
stderr: install: refused: the running kernel loads only signed modules (an EFI system that does not tell whether Secure Boot is on, taken as on; no sig_enforce or lockdown file to say more), and
[exit 1]
file lib/modules/6.1.0-57-amd64/kernel/drivers/net/xen-netback/xen-netback.ko: stock
EOF
}

t_sb_mokutil() {
	fx_standard
	fx_no_sysfs_files
	fx_efi silent 'SecureBoot enabled'
	x install build/xen-netback.ko $KV
	fx_efi silent 'SecureBoot disabled'
	x install build/xen-netback.ko $KV
	refusal_tail
	expect <<'EOF'
$ install build/xen-netback.ko 6.1.0-57-amd64
stderr: install: refused: the running kernel loads only signed modules (Secure Boot on, and no sig_enforce or lockdown file to say more), and
[exit 1]
$ install build/xen-netback.ko 6.1.0-57-amd64
@installed
[exit 0]
EOF
}

# KVER another kernel: refused by the running kernel's lockdown, and a
# signed module installed, each saying whose policy that is.
t_sb_other_kernel() {
	local k=6.12.41+deb13-amd64
	fx_standard
	fx_sys N 'none [integrity] confidentiality'
	fx_kernel $k $KV
	x install build/xen-netback.ko $k
	fx_ko build/xen-netback.ko ours-signed 0.2.0 'DKMS module signing key'
	x install build/xen-netback.ko $k
	refusal_tail
	expect <<'EOF'
$ install build/xen-netback.ko 6.12.41+deb13-amd64
stderr: install: refused: the running kernel loads only signed modules (lockdown=integrity) (the running kernel's policy: kernel 6.12.41+deb13-amd64 is taken to boot under the same), and
[exit 1]
$ install build/xen-netback.ko 6.12.41+deb13-amd64
install: the running kernel loads only signed modules (lockdown=integrity) (the running kernel's policy: kernel 6.12.41+deb13-amd64 is taken to boot under the same): build/xen-netback.ko is signed by "DKMS module signing key", a key the kernel must trust (mokutil --list-enrolled)
install: installed ROOT/lib/modules/6.12.41+deb13-amd64/updates/xen-netback.ko (version 0.2.0)
install: before it, modprobe took: ROOT/lib/modules/6.12.41+deb13-amd64/kernel/drivers/net/xen-netback/xen-netback.ko (stock: the kernel's own)
install: kernel 6.12.41+deb13-amd64 is not the running one (6.1.0-57-amd64): active when 6.12.41+deb13-amd64 boots
install: loaded now: stock (the kernel's own xen-netback)
install: undo: make uninstall (with the same KDIR)
depmod -a -b ROOT 6.12.41+deb13-amd64
[exit 0]
EOF
}

t_signed() {
	fx_standard
	fx_sys Y 'none [integrity] confidentiality'
	fx_ko build/xen-netback.ko ours-signed 0.2.0 'DKMS module signing key'
	x install build/xen-netback.ko $KV
	files
	expect <<'EOF'
$ install build/xen-netback.ko 6.1.0-57-amd64
install: the running kernel loads only signed modules (module.sig_enforce=Y lockdown=integrity): build/xen-netback.ko is signed by "DKMS module signing key", a key the kernel must trust (mokutil --list-enrolled)
@installed
[exit 0]
file lib/modules/6.1.0-57-amd64/kernel/drivers/net/xen-netback/xen-netback.ko: stock
file lib/modules/6.1.0-57-amd64/updates/xen-netback.ko: ours-signed
file var/lib/xen-netback-wg/6.1.0-57-amd64/info: before=ROOT/lib/modules/6.1.0-57-amd64/kernel/drivers/net/xen-netback/xen-netback.ko
file var/lib/xen-netback-wg/6.1.0-57-amd64/info: sha256=(of ours-signed)
EOF
}

t_allow_unsigned() {
	fx_standard
	fx_sys Y '[none] integrity confidentiality'
	x XNB_ALLOW_UNSIGNED=1 install build/xen-netback.ko $KV
	files
	expect <<'EOF'
$ XNB_ALLOW_UNSIGNED=1 install build/xen-netback.ko 6.1.0-57-amd64
install: WARNING: the running kernel loads only signed modules (module.sig_enforce=Y) and build/xen-netback.ko is not signed: installing it all the same (XNB_ALLOW_UNSIGNED=1)
@installed
[exit 0]
@installed_files
EOF
}

t_uninstall_stock() {
	fx_standard
	x install build/xen-netback.ko $KV
	x uninstall $KV
	files
	expect <<'EOF'
$ install build/xen-netback.ko 6.1.0-57-amd64
@installed
[exit 0]
$ uninstall 6.1.0-57-amd64
uninstall: removed ROOT/lib/modules/6.1.0-57-amd64/updates/xen-netback.ko
@now_takes
[exit 0]
file lib/modules/6.1.0-57-amd64/kernel/drivers/net/xen-netback/xen-netback.ko: stock
EOF
}

t_replace_restore() {
	fx_standard
	DESC='another xen-netback' fx_ko $MOD/updates/xen-netback.ko older 0.1.0
	cp "$R/$MOD/updates/xen-netback.ko" "$R/older.copy"
	fx_kernel
	x install build/xen-netback.ko $KV
	files
	fx_ko build/xen-netback.ko newer 0.2.1
	x install build/xen-netback.ko $KV
	files
	x uninstall $KV
	files
	cmp -s "$R/older.copy" "$R/$MOD/updates/xen-netback.ko" &&
		note "put back: the very file"
	expect <<'EOF'
$ install build/xen-netback.ko 6.1.0-57-amd64
@replaced version 0.1.0: not ours
[exit 0]
file lib/modules/6.1.0-57-amd64/kernel/drivers/net/xen-netback/xen-netback.ko: stock
file lib/modules/6.1.0-57-amd64/updates/xen-netback.ko: ours
file var/lib/xen-netback-wg/6.1.0-57-amd64/info: before=ROOT/lib/modules/6.1.0-57-amd64/updates/xen-netback.ko
file var/lib/xen-netback-wg/6.1.0-57-amd64/info: sha256=(of ours)
file var/lib/xen-netback-wg/6.1.0-57-amd64/replaced.ko: older
$ install build/xen-netback.ko 6.1.0-57-amd64
install: keeping the backup of the first install in ROOT/var/lib/xen-netback-wg/6.1.0-57-amd64: make uninstall puts back what that install replaced
install: installed ROOT/lib/modules/6.1.0-57-amd64/updates/xen-netback.ko (version 0.2.1)
install: before it, modprobe took: ROOT/lib/modules/6.1.0-57-amd64/updates/xen-netback.ko (version 0.2.0)
install: active after `modprobe -r xen-netback && modprobe xen-netback` with no guest running, or the next boot
install: loaded now: stock (the kernel's own xen-netback)
install: undo: make uninstall (with the same KDIR)
depmod -a -b ROOT 6.1.0-57-amd64
[exit 0]
file lib/modules/6.1.0-57-amd64/kernel/drivers/net/xen-netback/xen-netback.ko: stock
file lib/modules/6.1.0-57-amd64/updates/xen-netback.ko: newer
file var/lib/xen-netback-wg/6.1.0-57-amd64/info: before=ROOT/lib/modules/6.1.0-57-amd64/updates/xen-netback.ko
file var/lib/xen-netback-wg/6.1.0-57-amd64/info: sha256=(of newer)
file var/lib/xen-netback-wg/6.1.0-57-amd64/replaced.ko: older
$ uninstall 6.1.0-57-amd64
@put_back version 0.1.0: not ours
[exit 0]
file lib/modules/6.1.0-57-amd64/kernel/drivers/net/xen-netback/xen-netback.ko: stock
file lib/modules/6.1.0-57-amd64/updates/xen-netback.ko: older
file var/lib/xen-netback-wg/6.1.0-57-amd64/restored: (of older)
put back: the very file
EOF
}

# An install from before the backups (or one whose state is gone): the
# file it left is ours, not the one to go back to.
t_upgrade_ours() {
	fx_standard
	fx_ko $MOD/updates/xen-netback.ko older 0.1.0
	fx_kernel
	x install build/xen-netback.ko $KV
	files
	x uninstall $KV
	files
	expect <<'EOF'
$ install build/xen-netback.ko 6.1.0-57-amd64
install: replacing ROOT/lib/modules/6.1.0-57-amd64/updates/xen-netback.ko (version 0.1.0), an earlier install of this driver: not kept, make uninstall removes this driver and modprobe then takes what is beneath it (the kernel's own)
@installed ROOT/lib/modules/6.1.0-57-amd64/updates/xen-netback.ko (version 0.1.0)
[exit 0]
file lib/modules/6.1.0-57-amd64/kernel/drivers/net/xen-netback/xen-netback.ko: stock
file lib/modules/6.1.0-57-amd64/updates/xen-netback.ko: ours
file var/lib/xen-netback-wg/6.1.0-57-amd64/info: before=
file var/lib/xen-netback-wg/6.1.0-57-amd64/info: sha256=(of ours)
$ uninstall 6.1.0-57-amd64
uninstall: removed ROOT/lib/modules/6.1.0-57-amd64/updates/xen-netback.ko
@now_takes
[exit 0]
file lib/modules/6.1.0-57-amd64/kernel/drivers/net/xen-netback/xen-netback.ko: stock
EOF
}

t_uninstall_twice() {
	fx_standard
	DESC='another xen-netback' fx_ko $MOD/updates/xen-netback.ko older 0.1.0
	fx_kernel
	x install build/xen-netback.ko $KV
	x uninstall $KV
	files
	x uninstall $KV
	files
	x install build/xen-netback.ko $KV
	files
	x uninstall $KV
	files
	expect <<'EOF'
$ install build/xen-netback.ko 6.1.0-57-amd64
@replaced version 0.1.0: not ours
[exit 0]
$ uninstall 6.1.0-57-amd64
@put_back version 0.1.0: not ours
[exit 0]
file lib/modules/6.1.0-57-amd64/kernel/drivers/net/xen-netback/xen-netback.ko: stock
file lib/modules/6.1.0-57-amd64/updates/xen-netback.ko: older
file var/lib/xen-netback-wg/6.1.0-57-amd64/restored: (of older)
$ uninstall 6.1.0-57-amd64
uninstall: nothing of ours installed: ROOT/lib/modules/6.1.0-57-amd64/updates/xen-netback.ko is the file make uninstall put back; left there
@now_takes ROOT/lib/modules/6.1.0-57-amd64/updates/xen-netback.ko (version 0.1.0: not ours)
[exit 0]
file lib/modules/6.1.0-57-amd64/kernel/drivers/net/xen-netback/xen-netback.ko: stock
file lib/modules/6.1.0-57-amd64/updates/xen-netback.ko: older
file var/lib/xen-netback-wg/6.1.0-57-amd64/restored: (of older)
$ install build/xen-netback.ko 6.1.0-57-amd64
@replaced version 0.1.0: not ours
[exit 0]
file lib/modules/6.1.0-57-amd64/kernel/drivers/net/xen-netback/xen-netback.ko: stock
file lib/modules/6.1.0-57-amd64/updates/xen-netback.ko: ours
file var/lib/xen-netback-wg/6.1.0-57-amd64/info: before=ROOT/lib/modules/6.1.0-57-amd64/updates/xen-netback.ko
file var/lib/xen-netback-wg/6.1.0-57-amd64/info: sha256=(of ours)
file var/lib/xen-netback-wg/6.1.0-57-amd64/replaced.ko: older
$ uninstall 6.1.0-57-amd64
@put_back version 0.1.0: not ours
[exit 0]
file lib/modules/6.1.0-57-amd64/kernel/drivers/net/xen-netback/xen-netback.ko: stock
file lib/modules/6.1.0-57-amd64/updates/xen-netback.ko: older
file var/lib/xen-netback-wg/6.1.0-57-amd64/restored: (of older)
EOF
}

t_replace_stock_copy() {
	fx_standard
	fx_ko $MOD/updates/xen-netback.ko copied -
	fx_kernel
	x install build/xen-netback.ko $KV
	x uninstall $KV
	files
	expect <<'EOF'
$ install build/xen-netback.ko 6.1.0-57-amd64
@replaced no version: not ours
[exit 0]
$ uninstall 6.1.0-57-amd64
@put_back no version: not ours
[exit 0]
file lib/modules/6.1.0-57-amd64/kernel/drivers/net/xen-netback/xen-netback.ko: stock
file lib/modules/6.1.0-57-amd64/updates/xen-netback.ko: copied
file var/lib/xen-netback-wg/6.1.0-57-amd64/restored: (of copied)
EOF
}

t_uninstall_legacy() {
	fx_standard
	fx_ko $MOD/updates/xen-netback.ko legacy 0.1.0
	fx_kernel
	x uninstall $KV
	files
	expect <<'EOF'
$ uninstall 6.1.0-57-amd64
uninstall: removed ROOT/lib/modules/6.1.0-57-amd64/updates/xen-netback.ko (no backup recorded: nothing to put back)
@now_takes
[exit 0]
file lib/modules/6.1.0-57-amd64/kernel/drivers/net/xen-netback/xen-netback.ko: stock
EOF
}

t_uninstall_nothing() {
	fx_standard
	x uninstall $KV
	files
	expect <<'EOF'
$ uninstall 6.1.0-57-amd64
uninstall: nothing installed at ROOT/lib/modules/6.1.0-57-amd64/updates/xen-netback.ko
@now_takes
[exit 0]
file lib/modules/6.1.0-57-amd64/kernel/drivers/net/xen-netback/xen-netback.ko: stock
EOF
}

t_uninstall_changed() {
	fx_standard
	x install build/xen-netback.ko $KV
	fx_ko $MOD/updates/xen-netback.ko someone 9.9
	x uninstall $KV
	files
	expect <<'EOF'
$ install build/xen-netback.ko 6.1.0-57-amd64
@installed
[exit 0]
$ uninstall 6.1.0-57-amd64
uninstall: note: ROOT/lib/modules/6.1.0-57-amd64/updates/xen-netback.ko changed since make install put it there; removing it all the same
uninstall: removed ROOT/lib/modules/6.1.0-57-amd64/updates/xen-netback.ko
@now_takes
[exit 0]
file lib/modules/6.1.0-57-amd64/kernel/drivers/net/xen-netback/xen-netback.ko: stock
EOF
}

t_loaded_ours() {
	fx_standard
	fx_loaded 0.1.0+g0123456789ab
	x install build/xen-netback.ko $KV
	expect <<'EOF'
$ install build/xen-netback.ko 6.1.0-57-amd64
install: installed ROOT/lib/modules/6.1.0-57-amd64/updates/xen-netback.ko (version 0.2.0)
install: before it, modprobe took: ROOT/lib/modules/6.1.0-57-amd64/kernel/drivers/net/xen-netback/xen-netback.ko (stock: the kernel's own)
install: active after `modprobe -r xen-netback && modprobe xen-netback` with no guest running, or the next boot
install: loaded now: xen-netback-wg 0.1.0+g0123456789ab
install: undo: make uninstall (with the same KDIR)
depmod -a -b ROOT 6.1.0-57-amd64
[exit 0]
EOF
}

t_loaded_none() {
	fx_standard
	fx_loaded none
	x install build/xen-netback.ko $KV
	expect <<'EOF'
$ install build/xen-netback.ko 6.1.0-57-amd64
install: installed ROOT/lib/modules/6.1.0-57-amd64/updates/xen-netback.ko (version 0.2.0)
install: before it, modprobe took: ROOT/lib/modules/6.1.0-57-amd64/kernel/drivers/net/xen-netback/xen-netback.ko (stock: the kernel's own)
install: active after `modprobe -r xen-netback && modprobe xen-netback` with no guest running, or the next boot
install: loaded now: none (xen-netback is not loaded)
install: undo: make uninstall (with the same KDIR)
depmod -a -b ROOT 6.1.0-57-amd64
[exit 0]
EOF
}

t_other_kernel() {
	fx_standard
	fx_kernel 6.12.41+deb13-amd64 $KV
	x install build/xen-netback.ko 6.12.41+deb13-amd64
	files
	expect <<'EOF'
$ install build/xen-netback.ko 6.12.41+deb13-amd64
install: installed ROOT/lib/modules/6.12.41+deb13-amd64/updates/xen-netback.ko (version 0.2.0)
install: before it, modprobe took: ROOT/lib/modules/6.12.41+deb13-amd64/kernel/drivers/net/xen-netback/xen-netback.ko (stock: the kernel's own)
install: kernel 6.12.41+deb13-amd64 is not the running one (6.1.0-57-amd64): active when 6.12.41+deb13-amd64 boots
install: loaded now: stock (the kernel's own xen-netback)
install: undo: make uninstall (with the same KDIR)
depmod -a -b ROOT 6.12.41+deb13-amd64
[exit 0]
file lib/modules/6.1.0-57-amd64/kernel/drivers/net/xen-netback/xen-netback.ko: stock
file lib/modules/6.12.41+deb13-amd64/kernel/drivers/net/xen-netback/xen-netback.ko: stock
file lib/modules/6.12.41+deb13-amd64/updates/xen-netback.ko: ours
file var/lib/xen-netback-wg/6.12.41+deb13-amd64/info: before=ROOT/lib/modules/6.12.41+deb13-amd64/kernel/drivers/net/xen-netback/xen-netback.ko
file var/lib/xen-netback-wg/6.12.41+deb13-amd64/info: sha256=(of ours)
EOF
}

t_override_wins() {
	fx_standard
	mkdir -p "$R/etc/depmod.d"
	echo 'override xen-netback * updates/dkms' > "$R/etc/depmod.d/xen-netback-wg.conf"
	fx_ko $MOD/updates/dkms/xen-netback.ko dkms 0.2.0
	fx_kernel
	x install build/xen-netback.ko $KV
	x uninstall $KV
	expect <<'EOF'
$ install build/xen-netback.ko 6.1.0-57-amd64
install: installed ROOT/lib/modules/6.1.0-57-amd64/updates/xen-netback.ko (version 0.2.0)
install: before it, modprobe took: ROOT/lib/modules/6.1.0-57-amd64/updates/dkms/xen-netback.ko (version 0.2.0)
install: WARNING: modprobe takes ROOT/lib/modules/6.1.0-57-amd64/updates/dkms/xen-netback.ko (version 0.2.0), not this install: a depmod.d override (the package's /etc/depmod.d/xen-netback-wg.conf chooses updates/dkms) or an earlier search path wins
install: active after `modprobe -r xen-netback && modprobe xen-netback` with no guest running, or the next boot
install: loaded now: stock (the kernel's own xen-netback)
install: undo: make uninstall (with the same KDIR)
depmod -a -b ROOT 6.1.0-57-amd64
[exit 0]
$ uninstall 6.1.0-57-amd64
uninstall: removed ROOT/lib/modules/6.1.0-57-amd64/updates/xen-netback.ko
@now_takes ROOT/lib/modules/6.1.0-57-amd64/updates/dkms/xen-netback.ko (version 0.2.0)
[exit 0]
EOF
}

t_image() {
	fx_standard
	fx_sys Y 'none [integrity] confidentiality'
	mkdir -p "$R/img/$MOD/kernel/drivers/net/xen-netback"
	echo id=image-stock > "$R/img/$MOD/kernel/drivers/net/xen-netback/xen-netback.ko"
	XNB_INSTALL_ROOT=$R "$STUBS/depmod" -a -b "$R/img" $KV
	x INSTALL_MOD_PATH=/img install build/xen-netback.ko $KV
	files
	x INSTALL_MOD_PATH=/img uninstall $KV
	files
	expect <<'EOF'
$ INSTALL_MOD_PATH=/img install build/xen-netback.ko 6.1.0-57-amd64
install: note: build/xen-netback.ko is not signed; a kernel that enforces signatures will refuse it in /img
install: installed ROOT/img/lib/modules/6.1.0-57-amd64/updates/xen-netback.ko (version 0.2.0)
install: before it, modprobe took: ROOT/img/lib/modules/6.1.0-57-amd64/kernel/drivers/net/xen-netback/xen-netback.ko (stock: the kernel's own)
install: active when /img boots kernel 6.1.0-57-amd64
install: undo: make uninstall (with the same KDIR and INSTALL_MOD_PATH)
depmod -a -b ROOT/img 6.1.0-57-amd64
[exit 0]
file img/lib/modules/6.1.0-57-amd64/kernel/drivers/net/xen-netback/xen-netback.ko: image-stock
file img/lib/modules/6.1.0-57-amd64/updates/xen-netback.ko: ours
file img/var/lib/xen-netback-wg/6.1.0-57-amd64/info: before=ROOT/img/lib/modules/6.1.0-57-amd64/kernel/drivers/net/xen-netback/xen-netback.ko
file img/var/lib/xen-netback-wg/6.1.0-57-amd64/info: sha256=(of ours)
file lib/modules/6.1.0-57-amd64/kernel/drivers/net/xen-netback/xen-netback.ko: stock
$ INSTALL_MOD_PATH=/img uninstall 6.1.0-57-amd64
uninstall: removed ROOT/img/lib/modules/6.1.0-57-amd64/updates/xen-netback.ko
uninstall: modprobe now takes: ROOT/img/lib/modules/6.1.0-57-amd64/kernel/drivers/net/xen-netback/xen-netback.ko (stock: the kernel's own)
uninstall: active when /img boots kernel 6.1.0-57-amd64
depmod -a -b ROOT/img 6.1.0-57-amd64
[exit 0]
file img/lib/modules/6.1.0-57-amd64/kernel/drivers/net/xen-netback/xen-netback.ko: image-stock
file lib/modules/6.1.0-57-amd64/kernel/drivers/net/xen-netback/xen-netback.ko: stock
EOF
}

t_no_module() {
	fx_standard
	x install build/missing.ko $KV
	files
	expect <<'EOF'
$ install build/missing.ko 6.1.0-57-amd64
stderr: install: no module at build/missing.ko: build it first (make)
[exit 1]
file lib/modules/6.1.0-57-amd64/kernel/drivers/net/xen-netback/xen-netback.ko: stock
EOF
}

t_bad_kver() {
	fx_standard
	x install build/xen-netback.ko ../../etc
	x uninstall ''
	x install build/xen-netback.ko
	files
	expect <<'EOF'
$ install build/xen-netback.ko ../../etc
stderr: install: not a kernel release: '../../etc'
[exit 1]
$ uninstall
stderr: uninstall: not a kernel release: ''
[exit 1]
$ install build/xen-netback.ko
stderr: install: usage: TOP/scripts/install.sh install KO KVER
[exit 1]
file lib/modules/6.1.0-57-amd64/kernel/drivers/net/xen-netback/xen-netback.ko: stock
EOF
}

t_env_ignored() {
	fx_standard
	x XNB_INSTALL_TEST=0 uninstall 0.0-xnb-no-such-kernel
	x SUDO_UID=1000 uninstall 0.0-xnb-no-such-kernel
	expect <<'EOF'
$ XNB_INSTALL_TEST=0 uninstall 0.0-xnb-no-such-kernel
uninstall: nothing installed at /lib/modules/0.0-xnb-no-such-kernel/updates/xen-netback.ko
stderr: depmod stub: wants -a -b BASE KVER: -a 0.0-xnb-no-such-kernel
[exit 2]
$ SUDO_UID=1000 uninstall 0.0-xnb-no-such-kernel
uninstall: nothing installed at /lib/modules/0.0-xnb-no-such-kernel/updates/xen-netback.ko
stderr: depmod stub: wants -a -b BASE KVER: -a 0.0-xnb-no-such-kernel
[exit 2]
EOF
}

t_mod_dir() {
	fx_standard
	x INSTALL_MOD_DIR=../../../etc install build/xen-netback.ko $KV
	x INSTALL_MOD_DIR=updates/.. uninstall $KV
	x INSTALL_MOD_DIR=/etc install build/xen-netback.ko $KV
	x INSTALL_MOD_DIR=extra/net install build/xen-netback.ko $KV
	files
	expect <<'EOF'
$ INSTALL_MOD_DIR=../../../etc install build/xen-netback.ko 6.1.0-57-amd64
stderr: install: INSTALL_MOD_DIR is a path below /lib/modules/6.1.0-57-amd64/, without '..': not '../../../etc'
[exit 1]
$ INSTALL_MOD_DIR=updates/.. uninstall 6.1.0-57-amd64
stderr: uninstall: INSTALL_MOD_DIR is a path below /lib/modules/6.1.0-57-amd64/, without '..': not 'updates/..'
[exit 1]
$ INSTALL_MOD_DIR=/etc install build/xen-netback.ko 6.1.0-57-amd64
stderr: install: INSTALL_MOD_DIR is a path below /lib/modules/6.1.0-57-amd64/, without '..': not '/etc'
[exit 1]
$ INSTALL_MOD_DIR=extra/net install build/xen-netback.ko 6.1.0-57-amd64
install: installed ROOT/lib/modules/6.1.0-57-amd64/extra/net/xen-netback.ko (version 0.2.0)
install: before it, modprobe took: ROOT/lib/modules/6.1.0-57-amd64/kernel/drivers/net/xen-netback/xen-netback.ko (stock: the kernel's own)
install: WARNING: modprobe takes ROOT/lib/modules/6.1.0-57-amd64/kernel/drivers/net/xen-netback/xen-netback.ko (stock: the kernel's own), not this install: a depmod.d override (the package's /etc/depmod.d/xen-netback-wg.conf chooses updates/dkms) or an earlier search path wins
install: active after `modprobe -r xen-netback && modprobe xen-netback` with no guest running, or the next boot
install: loaded now: stock (the kernel's own xen-netback)
install: undo: make uninstall (with the same KDIR)
depmod -a -b ROOT 6.1.0-57-amd64
[exit 0]
file lib/modules/6.1.0-57-amd64/extra/net/xen-netback.ko: ours
file lib/modules/6.1.0-57-amd64/kernel/drivers/net/xen-netback/xen-netback.ko: stock
file var/lib/xen-netback-wg/6.1.0-57-amd64/info: before=ROOT/lib/modules/6.1.0-57-amd64/kernel/drivers/net/xen-netback/xen-netback.ko
file var/lib/xen-netback-wg/6.1.0-57-amd64/info: sha256=(of ours)
EOF
}

# The root_* cases run as root (XNB_INSTALL_EUID=0); the case's files
# are root's when XNB_INSTALL_ROOT_UID is the uid that made them ($ME).
ME=$(id -u)
AS_ROOT=(XNB_INSTALL_EUID=0 "XNB_INSTALL_ROOT_UID=$ME")
# The refusal's advice, after its first sentences.
ADVICE="another user could redirect what root writes there.  Nothing was changed.  Install into a tree of your own as yourself (no root needed for an image), or make the tree root's."

# A link planted where an older install.sh staged the state
# (<kver>.new) leads to a directory of the victim: not followed.
t_root_ok() {
	fx_standard
	mkdir -p "$R/var/lib/xen-netback-wg" "$R/victim"
	ln -s ../../../victim "$R/var/lib/xen-netback-wg/$KV.new"
	x "${AS_ROOT[@]}" install build/xen-netback.ko $KV
	files
	(cd "$R" && find victim var -name '.*' -o -name '*.new' | sort) | sed 's/^/left: /' >> "$T"
	stat -c 'state mode %a' "$R/var/lib/xen-netback-wg/$KV" >> "$T"
	sed -i "s/XNB_INSTALL_ROOT_UID=$ME/XNB_INSTALL_ROOT_UID=ME/" "$T"
	expect <<'EOF'
$ XNB_INSTALL_EUID=0 XNB_INSTALL_ROOT_UID=ME install build/xen-netback.ko 6.1.0-57-amd64
@installed
[exit 0]
@installed_files
left: var/lib/xen-netback-wg/6.1.0-57-amd64.new
state mode 755
EOF
}

# Root's files are another uid's here: the first directory below the
# image is not root's.
t_root_not_roots() {
	fx_standard
	mkdir -p "$R/img/$MOD"
	x XNB_INSTALL_EUID=0 XNB_INSTALL_ROOT_UID=4000000 INSTALL_MOD_PATH=/img install build/xen-netback.ko $KV
	x XNB_INSTALL_EUID=0 XNB_INSTALL_ROOT_UID=4000000 INSTALL_MOD_PATH=/img uninstall $KV
	x XNB_INSTALL_EUID=4000000 XNB_INSTALL_ROOT_UID=4000000 INSTALL_MOD_PATH=/img uninstall $KV
	files
	sed -i "s|: $ADVICE|: <advice>|" "$T"
	expect <<'EOF'
$ XNB_INSTALL_EUID=0 XNB_INSTALL_ROOT_UID=4000000 INSTALL_MOD_PATH=/img install build/xen-netback.ko 6.1.0-57-amd64
stderr: install: refused: running as root, and ROOT/img/lib is not root's: <advice>
[exit 1]
$ XNB_INSTALL_EUID=0 XNB_INSTALL_ROOT_UID=4000000 INSTALL_MOD_PATH=/img uninstall 6.1.0-57-amd64
stderr: uninstall: refused: running as root, and ROOT/img/lib is not root's: <advice>
[exit 1]
$ XNB_INSTALL_EUID=4000000 XNB_INSTALL_ROOT_UID=4000000 INSTALL_MOD_PATH=/img uninstall 6.1.0-57-amd64
uninstall: nothing installed at ROOT/img/lib/modules/6.1.0-57-amd64/updates/xen-netback.ko
uninstall: modprobe now takes: none: kernel 6.1.0-57-amd64 has no xen-netback
uninstall: WARNING: kernel 6.1.0-57-amd64 has no xen-netback now: guests get no network from its next load on
uninstall: active when /img boots kernel 6.1.0-57-amd64
depmod -a -b ROOT/img 6.1.0-57-amd64
[exit 0]
file lib/modules/6.1.0-57-amd64/kernel/drivers/net/xen-netback/xen-netback.ko: stock
EOF
}

# The image's lib a link (not root's: root's files are another uid's).
t_root_link() {
	fx_standard
	mkdir -p "$R/imglib/modules/$KV" "$R/img"
	ln -s ../imglib "$R/img/lib"
	x XNB_INSTALL_EUID=0 XNB_INSTALL_ROOT_UID=4000000 INSTALL_MOD_PATH=/img install build/xen-netback.ko $KV
	files
	sed -i "s|: $ADVICE|: <advice>|" "$T"
	expect <<'EOF'
$ XNB_INSTALL_EUID=0 XNB_INSTALL_ROOT_UID=4000000 INSTALL_MOD_PATH=/img install build/xen-netback.ko 6.1.0-57-amd64
stderr: install: refused: running as root, and ROOT/img/lib is a symbolic link that is not root's: <advice>
[exit 1]
file lib/modules/6.1.0-57-amd64/kernel/drivers/net/xen-netback/xen-netback.ko: stock
EOF
}

t_root_writable() {
	fx_standard
	mkdir -p "$R/var/lib/xen-netback-wg"
	chmod 0777 "$R/var/lib/xen-netback-wg"
	x "${AS_ROOT[@]}" install build/xen-netback.ko $KV
	chmod 0755 "$R/var/lib/xen-netback-wg"
	chmod 0757 "$R/$MOD"
	x "${AS_ROOT[@]}" uninstall $KV
	files
	sed -i -e "s|: $ADVICE|: <advice>|" -e "s/XNB_INSTALL_ROOT_UID=$ME/XNB_INSTALL_ROOT_UID=ME/" "$T"
	expect <<'EOF'
$ XNB_INSTALL_EUID=0 XNB_INSTALL_ROOT_UID=ME install build/xen-netback.ko 6.1.0-57-amd64
stderr: install: refused: running as root, and ROOT/var/lib/xen-netback-wg is writable by every user: <advice>
[exit 1]
$ XNB_INSTALL_EUID=0 XNB_INSTALL_ROOT_UID=ME uninstall 6.1.0-57-amd64
stderr: uninstall: refused: running as root, and ROOT/lib/modules/6.1.0-57-amd64 is writable by every user: <advice>
[exit 1]
file lib/modules/6.1.0-57-amd64/kernel/drivers/net/xen-netback/xen-netback.ko: stock
EOF
}

# updates is root's link into a /tmp-like directory.
t_root_link_writable() {
	fx_standard
	mkdir -p "$R/shared"
	chmod 1777 "$R/shared"
	ln -s ../../../shared "$R/$MOD/updates"
	x "${AS_ROOT[@]}" install build/xen-netback.ko $KV
	files
	sed -i -e "s|: $ADVICE|: <advice>|" -e "s/XNB_INSTALL_ROOT_UID=$ME/XNB_INSTALL_ROOT_UID=ME/" "$T"
	expect <<'EOF'
$ XNB_INSTALL_EUID=0 XNB_INSTALL_ROOT_UID=ME install build/xen-netback.ko 6.1.0-57-amd64
stderr: install: refused: running as root, and ROOT/lib/modules/6.1.0-57-amd64/updates is writable by every user: <advice>
[exit 1]
file lib/modules/6.1.0-57-amd64/kernel/drivers/net/xen-netback/xen-netback.ko: stock
EOF
}

t_need_present() {
	n NEED_INSTALLED="gcc make" gcc make
	expect <<'EOF'
$ NEED_INSTALLED=gcc make need.sh gcc make
[exit 0]
EOF
}

t_need_user() {
	n NEED_UID=1000 NEED_INSTALLED=make gcc make shellcheck
	expect <<'EOF'
$ NEED_UID=1000 NEED_INSTALLED=make need.sh gcc make shellcheck
stderr: need: missing packages: gcc shellcheck; install them with:
stderr:   sudo apt-get install -y --no-install-recommends gcc shellcheck
[exit 1]
EOF
}

t_need_no_tty() {
	n gcc
	expect <<'EOF'
$ need.sh gcc
stderr: need: missing packages: gcc; to install them:
stderr:   apt-get install -y --no-install-recommends gcc
stderr: need: no terminal to ask on: run it yourself, or the make target again with XNB_YES=1
[exit 1]
EOF
}

t_need_yes() {
	n XNB_YES=1 gcc shellcheck
	n XNB_YES=0 gcc
	expect <<'EOF'
$ XNB_YES=1 need.sh gcc shellcheck
stderr: need: missing packages: gcc shellcheck; to install them:
stderr:   apt-get install -y --no-install-recommends gcc shellcheck
stderr: need: installing them (XNB_YES=1)
apt-get install -y -q --no-install-recommends gcc shellcheck
[exit 0]
$ XNB_YES=0 need.sh gcc
stderr: need: missing packages: gcc; to install them:
stderr:   apt-get install -y --no-install-recommends gcc
stderr: need: no terminal to ask on: run it yourself, or the make target again with XNB_YES=1
[exit 1]
EOF
}

t_need_ci() {
	n CI=true gcc
	n CI=true XNB_YES=1 gcc
	expect <<'EOF'
$ CI=true need.sh gcc
stderr: need: missing packages: gcc; to install them:
stderr:   apt-get install -y --no-install-recommends gcc
stderr: need: no terminal to ask on: run it yourself, or the make target again with XNB_YES=1
[exit 1]
$ CI=true XNB_YES=1 need.sh gcc
stderr: need: missing packages: gcc; to install them:
stderr:   apt-get install -y --no-install-recommends gcc
stderr: need: installing them (XNB_YES=1)
apt-get install -y -q --no-install-recommends gcc
[exit 0]
EOF
}

t_need_usage() {
	n -f
	n gcc -f
	expect <<'EOF'
$ need.sh -f
stderr: usage: need.sh PKG... | need.sh -f LIST
[exit 2]
$ need.sh gcc -f
stderr: usage: need.sh PKG... | need.sh -f LIST
[exit 2]
EOF
}

t_need_tty_no() {
	n TTY=n gcc
	n TTY= gcc
	expect <<'EOF'
$ TTY=n need.sh gcc
need: missing packages: gcc; to install them:
  apt-get install -y --no-install-recommends gcc
need: run it now? [y/N]
need: not installed; run it yourself, or the make target again with XNB_YES=1
[exit 1]
$ TTY= need.sh gcc
need: missing packages: gcc; to install them:
  apt-get install -y --no-install-recommends gcc
need: run it now? [y/N]
need: not installed; run it yourself, or the make target again with XNB_YES=1
[exit 1]
EOF
}

t_need_tty_yes() {
	n TTY=y gcc
	n TTY=YES gcc
	expect <<'EOF'
$ TTY=y need.sh gcc
need: missing packages: gcc; to install them:
  apt-get install -y --no-install-recommends gcc
need: run it now? [y/N]
apt-get install -y -q --no-install-recommends gcc
[exit 0]
$ TTY=YES need.sh gcc
need: missing packages: gcc; to install them:
  apt-get install -y --no-install-recommends gcc
need: run it now? [y/N]
apt-get install -y -q --no-install-recommends gcc
[exit 0]
EOF
}

t_need_list() {
	printf '# a comment\ngcc  # the compiler\n\nmake\nclang\n' > "$R/list"
	n NEED_INSTALLED=make XNB_YES=1 -f "$R/list" shellcheck
	expect <<'EOF'
$ NEED_INSTALLED=make XNB_YES=1 need.sh -f ROOT/list shellcheck
stderr: need: missing packages: gcc clang shellcheck; to install them:
stderr:   apt-get install -y --no-install-recommends gcc clang shellcheck
stderr: need: installing them (XNB_YES=1)
apt-get install -y -q --no-install-recommends gcc clang shellcheck
[exit 0]
EOF
}

t_need_update_retry() {
	: > "$R/apt.log.stale"
	n XNB_YES=1 gcc
	expect <<'EOF'
$ XNB_YES=1 need.sh gcc
stderr: need: missing packages: gcc; to install them:
stderr:   apt-get install -y --no-install-recommends gcc
stderr: need: installing them (XNB_YES=1)
stderr: E: Unable to locate package
apt-get install -y -q --no-install-recommends gcc
apt-get update -q
apt-get install -y -q --no-install-recommends gcc
[exit 0]
EOF
}

t_mirror_one_line() {
	fx_apt sources.list <<'EOF'
# the local mirror
deb-src file:///srv/src bookworm main
deb [arch=amd64 signed-by=/k.gpg] http://mirror.lab.invalid/debian/ bookworm main contrib
EOF
	m
	expect <<'EOF'
$ apt-mirror.sh
http://mirror.lab.invalid/debian
[exit 0]
EOF
}

t_mirror_deb822() {
	fx_apt sources.list.d/debian.sources <<'EOF'
Types: deb
URIs: http://mirror.lab.invalid/debian-security
Suites: bookworm-security
Components: main

Types: deb deb-src
# a comment inside the paragraph
URIs: file:///srv/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
	m
	expect <<'EOF'
$ apt-mirror.sh
file:///srv/debian
[exit 0]
EOF
}

t_mirror_skipped() {
	fx_apt sources.list <<'EOF'
deb-src http://src.lab.invalid/debian bookworm main
deb http://other.lab.invalid/debian trixie main
deb http://contrib.lab.invalid/debian bookworm contrib
EOF
	fx_apt sources.list.d/a.sources <<'EOF'
Types: deb
URIs: http://off.lab.invalid/debian
Suites: bookworm
Components: main
Enabled: no

Types: deb
URIs: http://node.lab.invalid/node
Suites: nodistro
Components: main
EOF
	fx_apt sources.list.d/b.list.disabled <<'EOF'
deb http://disabled.lab.invalid/debian bookworm main
EOF
	m
	expect <<'EOF'
$ apt-mirror.sh
stderr: apt-mirror: no apt source of bookworm main in ROOT/etc/apt; set LAB_MIRROR
[exit 1]
EOF
}

t_mirror_order() {
	fx_apt sources.list.d/b.list <<'EOF'
deb http://b.lab.invalid/debian bookworm main
EOF
	fx_apt sources.list.d/a.sources <<'EOF'
Types: deb
URIs: http://a.lab.invalid/debian
Suites: bookworm
Components: main
EOF
	m
	fx_apt sources.list <<'EOF'
deb http://first.lab.invalid/debian bookworm main
EOF
	m
	expect <<'EOF'
$ apt-mirror.sh
http://a.lab.invalid/debian
[exit 0]
$ apt-mirror.sh
http://first.lab.invalid/debian
[exit 0]
EOF
}

t_mirror_alias() {
	local s
	fx_apt sources.list.d/a.sources <<'EOF'
Types: deb
URIs: http://updates.lab.invalid/debian
Suites: stable-updates experimental
Components: main
EOF
	m
	for s in stable oldstable testing unstable sid; do
		echo "deb http://$s.lab.invalid/debian/ $s main" |
			fx_apt sources.list
		m
	done
	expect <<'EOF'
$ apt-mirror.sh
stderr: apt-mirror: no apt source of bookworm main in ROOT/etc/apt; set LAB_MIRROR
[exit 1]
$ apt-mirror.sh
http://stable.lab.invalid/debian
[exit 0]
$ apt-mirror.sh
http://oldstable.lab.invalid/debian
[exit 0]
$ apt-mirror.sh
http://testing.lab.invalid/debian
[exit 0]
$ apt-mirror.sh
http://unstable.lab.invalid/debian
[exit 0]
$ apt-mirror.sh
http://sid.lab.invalid/debian
[exit 0]
EOF
}

t_mirror_override() {
	m LAB_MIRROR=file:///srv/debian
	expect <<'EOF'
$ LAB_MIRROR=file:///srv/debian apt-mirror.sh
file:///srv/debian
[exit 0]
EOF
}

t_mirror_no_codename() {
	fx_os ""
	fx_apt sources.list <<'EOF'
deb http://mirror.lab.invalid/debian bookworm main
EOF
	m
	expect <<'EOF'
$ apt-mirror.sh
stderr: apt-mirror: no VERSION_CODENAME in ROOT/etc/os-release; set LAB_MIRROR
[exit 1]
EOF
}

# --- main -------------------------------------------------------------------

golden_main "$work" "$@"
