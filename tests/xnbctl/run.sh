#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make xnbctl-test: tools/xnbctl/xnbctl against a fake sysfs tree and
# stand-ins for xl, xenstore, ethtool, dmesg and sleep (stubs/): no
# driver, no Xen, no root needed.
#
# One case per function t_<name>, listed in CASES.  A case builds its
# tree under $R (the fx_* helpers), runs xnbctl with `x ARGS...` as often
# as it likes, and ends with `expect`, which compares the transcript with
# its here-document exactly: for each run "$ xnbctl ARGS", its stdout, its
# stderr lines prefixed "stderr: ", "[exit N]"; `show_log` adds the
# xenstore writes and removals the stub saw since the last one.  `xj`
# runs like `x` and also parses the output with python3 -m json.tool
# (each line for top).  A here-document's "@NAME ARG" line stands for
# the block g_NAME prints; expect and the case loop are
# tests/common/golden.sh's.
#
#   tests/xnbctl/run.sh [CASE...]    all cases, or those named
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
XNBCTL=$top/tools/xnbctl/xnbctl
STUBS=$here/stubs
# shellcheck source=tests/common/golden.sh
. "$top/tests/common/golden.sh"
work=$(mktemp -d /tmp/xnbctl-test.XXXXXX)
trap 'rm -rf "$work"' EXIT
version_re=$(sed 's/[.]/[.]/g' "$top/VERSION")
command -v python3 >/dev/null 2>&1 ||
	{ echo "xnbctl-test: needs python3 (xnbctl -j writes JSON with it)" >&2; exit 1; }

# --- fixtures ---------------------------------------------------------------
# R: this case's root (XNBCTL_ROOT); S: its sysfs.

# fx_driver GROUPS: our driver loaded with GROUPS groups (no group
# directories yet: fx_group), default parameters, the vif xenbus driver.
fx_driver() {
	local p=$S/module/xen_netback/parameters
	mkdir -p "$p" "$S/module/xen_netback/groups" "$S/bus/xen-backend/drivers/vif" \
		"$S/class/net" "$R/proc"
	echo "$1" > "$p/groups"
	echo kthread > "$p/worker"
	echo 64 > "$p/budget"
	echo 64 > "$p/ctrl_rate"
	echo 256 > "$p/copy_batch"
	echo 1000 > "$p/rebalance_ms"
	echo 2 > "$p/max_queues"
	echo 20 > "$p/fatal_skb_slots"
	echo 524288 > "$p/rx_queue_bytes"
	echo 10000 > "$p/rx_drain_timeout_msecs"
	echo 60000 > "$p/rx_stall_timeout_msecs"
	echo Y > "$p/separate_tx_rx_irq"
	echo 64 > "$p/hash_cache_size"
	echo Y > "$p/provides_xdp_headroom"
	echo 9.8.7-test > "$S/module/xen_netback/version"
	ln -s ../../../../module/xen_netback "$S/bus/xen-backend/drivers/vif/module"
	echo "100.00 150.00" > "$R/proc/uptime"
}
# fx_stock: Debian's xen-netback: the module, its parameters, no groups.
fx_stock() {
	fx_driver 1
	rm -r "$S/module/xen_netback/groups"
	rm "$S/module/xen_netback/parameters/"{groups,worker,budget,copy_batch,rebalance_ms}
	rm "$S/module/xen_netback/version"
}
# fx_group N CPU MODE QUEUES BUSY PASSES PACKETS BATCHES OPS HANDOFFS IN OUT
fx_group() {
	local d=$S/module/xen_netback/groups/$1 f
	shift
	mkdir -p "$d"
	for f in cpu mode queues busy_pct passes packets batches ops handoffs \
		 moves_in moves_out; do
		echo "$1" > "$d/$f"
		shift
	done
}
# fx_newer N HOME MAX_US MAX_SLOTS: group N's files of the current driver
# (home_cpu, max_pass_us, max_pass_slots); without them, an older one.
fx_newer() {
	local d=$S/module/xen_netback/groups/$1
	echo "$2" > "$d/home_cpu"
	echo "$3" > "$d/max_pass_us"
	echo "$4" > "$d/max_pass_slots"
}
# fx_domain DOMID NAME: a running domain, in xl list and xenstore.
fx_domain() {
	echo "$1 $2" >> "$R/domains"
	fx_xs "/local/domain/$1/name" "$2"
}
# fx_vif DOMID DEVID [GROUP...]: a connected vif vif<domid>.<devid> as
# sysfs shows it, its backend node, and q<i>_group GROUP for each queue
# in its ethtool -S.  NAME=... fx_vif: named so instead (xl's vifname=).
fx_vif() {
	local dom=$1 id=$2 n=${NAME:-vif$1.$2} dev=$S/devices/vif-$1-$2 q=0 g f
	shift 2
	mkdir -p "$dev/net/$n/statistics" "$R/ethtool"
	ln -s ../../bus/xen-backend/drivers/vif "$dev/driver"
	ln -s "../../../vif-$dom-$id" "$dev/net/$n/device"
	ln -s "../../devices/vif-$dom-$id/net/$n" "$S/class/net/$n"
	for f in {rx,tx}_{packets,bytes,dropped}; do
		echo 0 > "$dev/net/$n/statistics/$f"
	done
	fx_xs "/local/domain/0/backend/vif/$dom/$id/state" 4
	{
		echo "NIC statistics:"
		echo "     rx_gso_checksum_fixup: 0"
		for g; do
			echo "     q${q}_group: $g"
			q=$((q + 1))
		done
		echo "     queues: $q"
	} > "$R/ethtool/$n"
}
fx_xs() { mkdir -p "$R/xs$1"; printf '%s' "$2" > "$R/xs$1/="; }
# Netdevs that are not vifs: lo (no device), eth0 (another driver).
fx_other_netdevs() {
	mkdir -p "$S/class/net/lo" "$S/devices/pci0000:00/0000:00:03.0/net/eth0" \
		"$S/bus/pci/drivers/e1000" "$S/module/e1000"
	ln -s ../../../module/e1000 "$S/bus/pci/drivers/e1000/module"
	ln -s ../../../bus/pci/drivers/e1000 "$S/devices/pci0000:00/0000:00:03.0/driver"
	ln -s ../../0000:00:03.0 "$S/devices/pci0000:00/0000:00:03.0/net/eth0/device"
	ln -s ../../devices/pci0000:00/0000:00:03.0/net/eth0 "$S/class/net/eth0"
}
# The usual dom0: 2 groups; g1 with a 2-queue vif, web-01 with two vifs
# (vif 1 pinned to group 0), g3's vif renamed g3-net; eth0 and lo.
fx_standard() {
	fx_driver 2
	fx_group 0 0 light 3 12 1000 50000 800 10000 5 1 0
	fx_group 1 1 thread 2 87 2000 90000 1000 30250 40 0 1
	fx_newer 0 0 850 212
	fx_newer 1 1 1203 290
	fx_domain 1 g1
	fx_domain 2 web-01
	fx_domain 3 g3
	fx_vif 1 0 0 1
	fx_vif 2 0 0
	fx_vif 2 1 0
	NAME=g3-net fx_vif 3 0 1
	fx_xs /local/domain/0/backend/vif/2/1/worker-group 0
	fx_other_netdevs
}
# Every sleep of top: these counters move on.
fx_ticks() {
	cat > "$R/ticks" <<'EOF'
sys/module/xen_netback/groups/0/packets 1000
sys/module/xen_netback/groups/0/passes 100
sys/module/xen_netback/groups/0/batches 10
sys/module/xen_netback/groups/0/ops 125
sys/module/xen_netback/groups/1/packets 50000
sys/module/xen_netback/groups/1/passes 400
sys/module/xen_netback/groups/1/batches 200
sys/module/xen_netback/groups/1/ops 6400
sys/module/xen_netback/groups/1/handoffs 3
sys/class/net/vif1.0/statistics/rx_packets 600
sys/class/net/vif1.0/statistics/tx_packets 400
sys/class/net/vif1.0/statistics/rx_bytes 540000
sys/class/net/vif1.0/statistics/tx_bytes 25600
sys/class/net/vif1.0/statistics/tx_dropped 2
sys/class/net/g3-net/statistics/rx_packets 50000
sys/class/net/g3-net/statistics/rx_bytes 75000000
sys/class/net/g3-net/statistics/rx_dropped 7
EOF
}

# A groups write while xnbctl works: the old set's directories answer
# ENODEV, then go; the new set's come, numbered from 0 again.
#
# fx_new_set DIR N: N fresh groups, maxima 0, under $R/DIR: "after" for
# the sleep stub to bring (a while later), "new" for the write hook (at
# once).
fx_new_set() {
	local R=$R/$1 i
	local S=$R/sys
	mkdir -p "$S/module/xen_netback/parameters"
	echo "$2" > "$S/module/xen_netback/parameters/groups"
	for ((i = 0; i < $2; i++)); do
		fx_group "$i" "$i" light 0 0 0 0 0 0 0 0 0
		fx_newer "$i" "$i" 0 0
	done
}
# fx_write_hook FILE enodev|ok: the next write to FILE (under the root)
# fails with ENODEV's message (enodev) or is done (ok), and then every
# group directory goes, $R/new taking their place if there.  Each call
# adds such a write, in order.  The writes are bash's printf: xnbctl
# gets hook_printf as its printf (an exported function) while there is
# one to come.
fx_write_hook() { echo "$1 $2" >> "$R/hook"; }
hook_printf() {
	if [ -s "$XNBCTL_ROOT/hook" ]; then
		local _hf _hm
		read -r _hf _hm < "$XNBCTL_ROOT/hook"
		if [ /proc/self/fd/1 -ef "$XNBCTL_ROOT/$_hf" ]; then
			sed -i 1d "$XNBCTL_ROOT/hook"
			[ "$_hm" = ok ] && builtin printf "$@"
			rm -r "$XNBCTL_ROOT"/sys/module/xen_netback/groups/*
			[ -d "$XNBCTL_ROOT/new" ] && cp -a "$XNBCTL_ROOT/new/." "$XNBCTL_ROOT/"
			[ "$_hm" = ok ] && return 0
			echo "xnbctl: line 1: printf: write error: No such device" >&2
			return 1
		fi
	fi
	builtin printf "$@"
}
# fx_vanish_at N FILE: group N's directory goes while xnbctl reads its
# FILE, a FIFO now that answers the same once the directory is gone.
# VANISH_PID: the helper (ended after the run: kill_vanish).
fx_vanish_at() {
	local f=$S/module/xen_netback/groups/$1/$2 v
	read -r v < "$f"
	rm "$f"
	mkfifo "$f"
	timeout 30 bash -c 'exec 3> "$1"; rm -r "${1%/*}"; echo "$2" >&3' - "$f" "$v" &
	VANISH_PID=$!
}
kill_vanish() { kill "$VANISH_PID" 2>/dev/null; wait "$VANISH_PID" 2>/dev/null; }

# --- running ----------------------------------------------------------------

# x ARGS...: run xnbctl in this case's world, add the run to the transcript.
# PIPE_TO="CMD ARGS" x ...: its stdout into that command (head -n1: a
# reader that goes early), whose output the transcript shows.
x() {
	local rc fn hook=() to
	if [ -s "$R/hook" ]; then
		fn=$(declare -f hook_printf)
		hook=("BASH_FUNC_printf%%=() ${fn#*$'\n'}")
	fi
	read -r -a to <<<"${PIPE_TO:-cat}"
	env -u SUDO_UID -u PKEXEC_UID XNBCTL_TEST="${TEST_MODE-1}" ${SUDO_AS:+SUDO_UID=$SUDO_AS} \
		XNBCTL_ROOT="$R" XNBCTL_XL="$STUBS/xl" XNBCTL_XENSTORE="$STUBS/xenstore" \
		XNBCTL_ETHTOOL="${ETHTOOL:-$STUBS/ethtool}" XNBCTL_EUID="${EUID_AS:-0}" \
		${PYTHON_AS:+XNBCTL_PYTHON=$PYTHON_AS} \
		PATH="$STUBS:$PATH" "${hook[@]}" "$XNBCTL" "$@" 2> "$R.err" | "${to[@]}" > "$R.out"
	rc=${PIPESTATUS[0]}
	# The usage text, once checked (t_usage), is "<usage>".
	if [ -f "$R.usage" ]; then
		cmp -s "$R.out" "$R.usage" && echo "<usage>" > "$R.out"
		cmp -s "$R.err" "$R.usage" && echo "<usage>" > "$R.err"
	fi
	# The release in VERSION reads as <version>: the cases outlive it.
	{
		echo "\$ xnbctl $*"
		sed "s/$version_re/<version>/g" "$R.out"
		sed "s/$version_re/<version>/g; s/^/stderr: /" "$R.err"
		echo "[exit $rc]"
	} >> "$T"
	return 0
}
# xj ARGS...: x, and the output must parse as JSON: python3 -m json.tool
# (top: --json-lines, one document a line; top -p: indented documents
# one after the other, each parsed in turn).
xj() {
	x "$@"
	case " $* " in
	*" top "*" -p "* | *" -p top "* | *" -p "*" top "*)
		python3 -c 'import json, sys
s, d, i, n = sys.stdin.read(), json.JSONDecoder(), 0, 0
while s[i:].strip():
    i = len(s) - len(s[i:].lstrip())
    i = d.raw_decode(s, i)[1]
    n += 1
sys.exit(n == 0)' < "$R.out" ;;
	*" top "*) python3 -m json.tool --json-lines < "$R.out" ;;
	*) python3 -m json.tool < "$R.out" ;;
	esac > /dev/null 2>&1 || { echo "not JSON: xnbctl $*"; JSON_BAD=1; }
}
# xjq ARGS...: xj, but the transcript keeps the command, the number of
# lines and the exit status only (for long indented output).
xjq() {
	local t=$T
	T=$R.quiet
	: > "$T"
	xj "$@"
	T=$t
	{
		echo "\$ xnbctl $*"
		echo "($(wc -l < "$R.out") lines)"
		grep '^stderr: ' "$R.quiet"
		tail -n 1 "$R.quiet"
	} >> "$T"
}
show_log() {
	[ -f "$R/log" ] && sed 's/^/log: /' "$R/log" >> "$T"
	rm -f "$R/log"
}
# The blocks many transcripts share, for expect's @ lines.
# @vifs: vif show's table of fx_standard's vifs.
g_vifs() {
	cat <<'EOF'
VIF     DOMID  DOMAIN  DEVID  PIN  QUEUE:GROUP
vif1.0      1  g1          0    -  q0:0 q1:1
vif2.0      2  web-01      0    -  q0:0
vif2.1      2  web-01      1    0  q0:0
g3-net      3  g3          0    -  q0:1
EOF
}
# @params: param show's table of fx_driver's parameters.
g_params() {
	cat <<'EOF'
PARAMETER               VALUE       RUNTIME
groups                  2           yes
worker                  kthread     no
copy_batch              256         yes
rebalance_ms            1000        yes
budget                  64          yes
ctrl_rate               64          yes
max_queues              2           yes
fatal_skb_slots         20          no
rx_queue_bytes          524288      no
rx_drain_timeout_msecs  10000       no
rx_stall_timeout_msecs  60000       no
separate_tx_rx_irq      Y           yes
hash_cache_size         64          yes
provides_xdp_headroom   Y           yes
EOF
}
# @status_head GROUPS: the head of status's output for fx_driver GROUPS.
g_status_head() {
	cat <<EOF
driver: xen-netback 9.8.7-test
worker groups: $1 (worker=kthread budget=64 copy_batch=256 rebalance_ms=1000)

GROUP  CPU  MODE     BUSY%  QUEUES  OPS/HYPERCALL  MAX-PASS-US  MAX-SLOTS
EOF
}
# @status: status's output for fx_standard, up to its exit line.
g_status() {
	g_status_head 2
	cat <<'EOF'
    0    0  light       12       3           12.5          850        212
    1    1  thread      87       2           30.3         1203        290

EOF
	g_vifs
}
# @set_ok OLD [param] set NAME VALUE: that run, NAME changed from OLD
# to VALUE until the driver's next load.
g_set_ok() {
	local old cmd name value
	read -r old cmd <<<"$1"
	name=${cmd% *}
	name=${name##* }
	value=${cmd##* }
	cat <<EOF
\$ xnbctl $cmd
$name: $old -> $value
stderr: xnbctl: $name=$value lasts until xen-netback is next loaded; --persist also writes it to /etc/modprobe.d/xen-netback-wg.conf
[exit 0]
EOF
}
# expect_more: after expect's comparison, no xj run's output was not
# JSON.
expect_more() { [ "${JSON_BAD:-0}" = 0 ]; }
# case_env NAME: the case's sysfs, and no bad JSON yet.
case_env() { S=$work/$1/sys JSON_BAD=0; }

# --- cases ------------------------------------------------------------------

CASES=(
	"status             the groups and vifs table; lo, eth0 are not vifs"
	"status_json        status --json: every group file, pins, queues"
	"status_no_ethtool  no ethtool: queue placement '-'"
	"status_queue_rows  no q<i>_group rows: '-'; a queue in no group"
	"status_no_xl       xl fails (not root): names '-', and why"
	"status_no_vifs     groups, no vif; an empty group"
	"status_away        a group off its offline home CPU: '*', footnote"
	"status_older       a driver without home_cpu, max_pass_*: '-', no key"
	"json_escape        a domain name with a quote and a backslash"
	"not_loaded         every command: xen-netback not loaded, exit 2"
	"env_ignored        no test mode, or under sudo: the stand-ins unused"
	"stock              every command: the in-kernel driver, exit 3"
	"top                top -n 2: rates per interval, two frames"
	"top_json           top --json -n 2: one object per frame"
	"top_regroup        groups rebuilt while top sleeps, a new vif: '-'"
	"top_reader_gone    top | head -n1, -j too: exit 0, nothing said, stopped"
	"pin                pin by name, by id and devid; the key written"
	"pin_errors         devid needed, unknown domain/vif, group range"
	"pin_tools          not root, xl fails, xenstore write fails"
	"unpin              unpin a pinned vif, an unpinned one"
	"set                set each parameter; the new value read back"
	"set_refused        the driver refuses: its log line, exit 5"
	"set_errors         unknown parameter, bad value, not root"
	"reset_max          reset-max: every group, one; the old values"
	"reset_max_errors   no such group, bad group, not root, write fails"
	"reset_max_regroup  groups replaced meanwhile: ENODEV, a gone group; again"
	"reset_max_replaced groups replaced twice, or no new set: exit 5; the group gone: 4"
	"status_vanish      a group gone while read: left out, not '-'"
	"usage              help, no command, bad options"
	"version            --version, -V, version, -j: the tool's and the driver's"
	"version_string     a driver version like 1.0 or 2 is a JSON string; none: null"
	"version_installed  make install-tools writes the version in; the completion, the hook"
	"group_show         group show [GROUP], group alone"
	"vif_show           vif show: all, by name, vif<d>.<n>, domain [devid]"
	"vif_order          vifs by domid then devid, numerically; devid 100000 and up too"
	"param_show         param show: every parameter, runtime or not"
	"show_json          -j and -p on every show command: valid JSON"
	"no_python          -j without python3: exit 7"
	"vif_pin            vif pin/unpin by vif name, renamed vif, DOMAIN DEVID"
	"pin_vifname        the old pin/unpin take vif names too; xl not needed"
	"pin_ambiguous      a bare domain in vif pin, a word naming two vifs"
	"set_each           set each runtime parameter, booleans too"
	"persist            set --persist edits the options file"
	"persist_errors     --persist: refused value, no directory, other commands"
	"persist_symlink    --persist through a symbolic link: the file it leads to edited, the link kept"
	"completion         bash completion: objects, verbs, vifs, groups"
	"pin_persist        vif pin/unpin --persist: the rules file, idempotent"
	"pin_persist_domain --persist for a domain not running: the rule alone"
	"pin_persist_errors --persist: no /etc, a name it cannot hold, group, root"
	"pin_apply          pin-apply: the vif's rule onto its key; no rule: silent"
	"pin_apply_bad      pin-apply: lines not rules, group range, stock, tools"
)

t_status() {
	fx_standard
	x status
	expect <<'EOF'
$ xnbctl status
@status
[exit 0]
EOF
}

# The fixture's status as JSON, whichever place --json takes.
status_json_fx() {
	cat <<'EOF'
{"schema": 2, "xnbctl_version": "<version>", "driver_version": "9.8.7-test", "parameters": {"groups": 2, "worker": "kthread", "budget": 64, "copy_batch": 256, "rebalance_ms": 1000}, "groups": [{"index": 0, "cpu": 0, "home_cpu": 0, "mode": "light", "busy_pct": 12, "queues": 3, "passes": 1000, "packets": 50000, "batches": 800, "ops": 10000, "handoffs": 5, "moves_in": 1, "moves_out": 0, "max_pass_us": 850, "max_pass_slots": 212, "ops_per_hypercall": 12.5}, {"index": 1, "cpu": 1, "home_cpu": 1, "mode": "thread", "busy_pct": 87, "queues": 2, "passes": 2000, "packets": 90000, "batches": 1000, "ops": 30250, "handoffs": 40, "moves_in": 0, "moves_out": 1, "max_pass_us": 1203, "max_pass_slots": 290, "ops_per_hypercall": 30.3}], "vifs": [{"name": "vif1.0", "domid": 1, "domain": "g1", "devid": 0, "pin": null, "queues": [{"queue": 0, "group": 0}, {"queue": 1, "group": 1}]}, {"name": "vif2.0", "domid": 2, "domain": "web-01", "devid": 0, "pin": null, "queues": [{"queue": 0, "group": 0}]}, {"name": "vif2.1", "domid": 2, "domain": "web-01", "devid": 1, "pin": 0, "queues": [{"queue": 0, "group": 0}]}, {"name": "g3-net", "domid": 3, "domain": "g3", "devid": 0, "pin": null, "queues": [{"queue": 0, "group": 1}]}]}
[exit 0]
EOF
}

t_status_json() {
	fx_standard
	xj status --json
	xj --json status
	{
		echo '$ xnbctl status --json'
		status_json_fx
		echo '$ xnbctl --json status'
		status_json_fx
	} | expect
}

t_status_no_ethtool() {
	fx_standard
	ETHTOOL=$R/no-such-ethtool x status
	ETHTOOL=$R/no-such-ethtool xj status --json
	expect <<'EOF'
$ xnbctl status
@status_head 2
    0    0  light       12       3           12.5          850        212
    1    1  thread      87       2           30.3         1203        290

VIF     DOMID  DOMAIN  DEVID  PIN  QUEUE:GROUP
vif1.0      1  g1          0    -  -
vif2.0      2  web-01      0    -  -
vif2.1      2  web-01      1    0  -
g3-net      3  g3          0    -  -
stderr: xnbctl: no ethtool: the queues' groups are not shown
[exit 0]
$ xnbctl status --json
{"schema": 2, "xnbctl_version": "<version>", "driver_version": "9.8.7-test", "parameters": {"groups": 2, "worker": "kthread", "budget": 64, "copy_batch": 256, "rebalance_ms": 1000}, "groups": [{"index": 0, "cpu": 0, "home_cpu": 0, "mode": "light", "busy_pct": 12, "queues": 3, "passes": 1000, "packets": 50000, "batches": 800, "ops": 10000, "handoffs": 5, "moves_in": 1, "moves_out": 0, "max_pass_us": 850, "max_pass_slots": 212, "ops_per_hypercall": 12.5}, {"index": 1, "cpu": 1, "home_cpu": 1, "mode": "thread", "busy_pct": 87, "queues": 2, "passes": 2000, "packets": 90000, "batches": 1000, "ops": 30250, "handoffs": 40, "moves_in": 0, "moves_out": 1, "max_pass_us": 1203, "max_pass_slots": 290, "ops_per_hypercall": 30.3}], "vifs": [{"name": "vif1.0", "domid": 1, "domain": "g1", "devid": 0, "pin": null, "queues": null}, {"name": "vif2.0", "domid": 2, "domain": "web-01", "devid": 0, "pin": null, "queues": null}, {"name": "vif2.1", "domid": 2, "domain": "web-01", "devid": 1, "pin": 0, "queues": null}, {"name": "g3-net", "domid": 3, "domain": "g3", "devid": 0, "pin": null, "queues": null}]}
stderr: xnbctl: no ethtool: the queues' groups are not shown
[exit 0]
EOF
}

# vif5.0: a driver without the q<i>_group rows (older than the sysfs
# interface); vif6.0: queue 1 in no group (U64_MAX, as older drivers
# showed while disconnecting).
t_status_queue_rows() {
	fx_driver 1
	fx_group 0 0 light 1 0 0 0 0 0 0 0 0
	fx_domain 5 g5
	fx_domain 6 g6
	fx_vif 5 0
	fx_vif 6 0 0 18446744073709551615
	x status
	xj status --json
	expect <<'EOF'
$ xnbctl status
@status_head 1
    0    0  light        0       1              -            -          -

VIF     DOMID  DOMAIN  DEVID  PIN  QUEUE:GROUP
vif5.0      5  g5          0    -  -
vif6.0      6  g6          0    -  q0:0 q1:-
[exit 0]
$ xnbctl status --json
{"schema": 2, "xnbctl_version": "<version>", "driver_version": "9.8.7-test", "parameters": {"groups": 1, "worker": "kthread", "budget": 64, "copy_batch": 256, "rebalance_ms": 1000}, "groups": [{"index": 0, "cpu": 0, "mode": "light", "busy_pct": 0, "queues": 1, "passes": 0, "packets": 0, "batches": 0, "ops": 0, "handoffs": 0, "moves_in": 0, "moves_out": 0, "ops_per_hypercall": null}], "vifs": [{"name": "vif5.0", "domid": 5, "domain": "g5", "devid": 0, "pin": null, "queues": null}, {"name": "vif6.0", "domid": 6, "domain": "g6", "devid": 0, "pin": null, "queues": [{"queue": 0, "group": 0}, {"queue": 1, "group": null}]}]}
[exit 0]
EOF
}

t_status_no_xl() {
	fx_standard
	touch "$R/xl.fail"
	x status
	xj status --json
	expect <<'EOF'
$ xnbctl status
@status_head 2
    0    0  light       12       3           12.5          850        212
    1    1  thread      87       2           30.3         1203        290

VIF     DOMID  DOMAIN  DEVID  PIN  QUEUE:GROUP
vif1.0      1  -           0    -  q0:0 q1:1
vif2.0      2  -           0    -  q0:0
vif2.1      2  -           1    0  q0:0
g3-net      3  -           0    -  q0:1
stderr: xnbctl: no domain names: xl: permission denied opening /dev/xen/privcmd
[exit 0]
$ xnbctl status --json
{"schema": 2, "xnbctl_version": "<version>", "driver_version": "9.8.7-test", "parameters": {"groups": 2, "worker": "kthread", "budget": 64, "copy_batch": 256, "rebalance_ms": 1000}, "groups": [{"index": 0, "cpu": 0, "home_cpu": 0, "mode": "light", "busy_pct": 12, "queues": 3, "passes": 1000, "packets": 50000, "batches": 800, "ops": 10000, "handoffs": 5, "moves_in": 1, "moves_out": 0, "max_pass_us": 850, "max_pass_slots": 212, "ops_per_hypercall": 12.5}, {"index": 1, "cpu": 1, "home_cpu": 1, "mode": "thread", "busy_pct": 87, "queues": 2, "passes": 2000, "packets": 90000, "batches": 1000, "ops": 30250, "handoffs": 40, "moves_in": 0, "moves_out": 1, "max_pass_us": 1203, "max_pass_slots": 290, "ops_per_hypercall": 30.3}], "vifs": [{"name": "vif1.0", "domid": 1, "domain": null, "devid": 0, "pin": null, "queues": [{"queue": 0, "group": 0}, {"queue": 1, "group": 1}]}, {"name": "vif2.0", "domid": 2, "domain": null, "devid": 0, "pin": null, "queues": [{"queue": 0, "group": 0}]}, {"name": "vif2.1", "domid": 2, "domain": null, "devid": 1, "pin": 0, "queues": [{"queue": 0, "group": 0}]}, {"name": "g3-net", "domid": 3, "domain": null, "devid": 0, "pin": null, "queues": [{"queue": 0, "group": 1}]}]}
stderr: xnbctl: no domain names: xl: permission denied opening /dev/xen/privcmd
[exit 0]
EOF
}

# Group 2 of 3 has no readable files (being torn down, say): "-", null.
t_status_no_vifs() {
	fx_driver 3
	fx_group 0 0 light 0 0 0 0 0 0 0 0 0
	fx_group 1 1 softirq 0 3 10 0 0 0 0 0 0
	mkdir -p "$S/module/xen_netback/groups/2"
	fx_other_netdevs
	x status
	xj status --json
	expect <<'EOF'
$ xnbctl status
@status_head 3
    0    0  light        0       0              -            -          -
    1    1  softirq      3       0              -            -          -
    2    -  -            -       -              -            -          -

VIF  DOMID  DOMAIN  DEVID  PIN  QUEUE:GROUP
(no vifs)
[exit 0]
$ xnbctl status --json
{"schema": 2, "xnbctl_version": "<version>", "driver_version": "9.8.7-test", "parameters": {"groups": 3, "worker": "kthread", "budget": 64, "copy_batch": 256, "rebalance_ms": 1000}, "groups": [{"index": 0, "cpu": 0, "mode": "light", "busy_pct": 0, "queues": 0, "passes": 0, "packets": 0, "batches": 0, "ops": 0, "handoffs": 0, "moves_in": 0, "moves_out": 0, "ops_per_hypercall": null}, {"index": 1, "cpu": 1, "mode": "softirq", "busy_pct": 3, "queues": 0, "passes": 10, "packets": 0, "batches": 0, "ops": 0, "handoffs": 0, "moves_in": 0, "moves_out": 0, "ops_per_hypercall": null}, {"index": 2, "cpu": null, "mode": null, "busy_pct": null, "queues": null, "passes": null, "packets": null, "batches": null, "ops": null, "handoffs": null, "moves_in": null, "moves_out": null, "ops_per_hypercall": null}], "vifs": []}
[exit 0]
EOF
}

# CPU 1 offline: group 1 runs on CPU 0 meanwhile (cpu 0, home_cpu 1).
t_status_away() {
	fx_standard
	echo 0 > "$S/module/xen_netback/groups/1/cpu"
	x status
	xj status --json
	x top -n 1
	expect <<'EOF'
$ xnbctl status
@status_head 2
    0    0  light       12       3           12.5          850        212
    1    0* thread      87       2           30.3         1203        290
* group 1: home CPU 1 is offline, on CPU 0 until it returns

@vifs
[exit 0]
$ xnbctl status --json
{"schema": 2, "xnbctl_version": "<version>", "driver_version": "9.8.7-test", "parameters": {"groups": 2, "worker": "kthread", "budget": 64, "copy_batch": 256, "rebalance_ms": 1000}, "groups": [{"index": 0, "cpu": 0, "home_cpu": 0, "mode": "light", "busy_pct": 12, "queues": 3, "passes": 1000, "packets": 50000, "batches": 800, "ops": 10000, "handoffs": 5, "moves_in": 1, "moves_out": 0, "max_pass_us": 850, "max_pass_slots": 212, "ops_per_hypercall": 12.5}, {"index": 1, "cpu": 0, "home_cpu": 1, "mode": "thread", "busy_pct": 87, "queues": 2, "passes": 2000, "packets": 90000, "batches": 1000, "ops": 30250, "handoffs": 40, "moves_in": 0, "moves_out": 1, "max_pass_us": 1203, "max_pass_slots": 290, "ops_per_hypercall": 30.3}], "vifs": [{"name": "vif1.0", "domid": 1, "domain": "g1", "devid": 0, "pin": null, "queues": [{"queue": 0, "group": 0}, {"queue": 1, "group": 1}]}, {"name": "vif2.0", "domid": 2, "domain": "web-01", "devid": 0, "pin": null, "queues": [{"queue": 0, "group": 0}]}, {"name": "vif2.1", "domid": 2, "domain": "web-01", "devid": 1, "pin": 0, "queues": [{"queue": 0, "group": 0}]}, {"name": "g3-net", "domid": 3, "domain": "g3", "devid": 0, "pin": null, "queues": [{"queue": 0, "group": 1}]}]}
[exit 0]
$ xnbctl top -n 1
xnbctl top: frame 1 of 1, interval 1.00 s, 2 groups, 4 vifs
hottest group: 1 (87% busy, 0 pkt/s)

GROUP  CPU  MODE     BUSY%  QUEUES      PKT/S   PASSES/S  OPS/HC  HANDOFFS/S  MOVES-IN/OUT
    0    0  light       12       3          0          0       -           0  0/0
    1    0* thread      87       2          0          0       -           0  0/0
* group 1: home CPU 1 is offline, on CPU 0 until it returns

VIF     DOMAIN  FROM-GUEST-PKT/S  TO-GUEST-PKT/S  FROM-GUEST-B/S  TO-GUEST-B/S  DROPS  GROUP
vif1.0  g1                     0               0               0             0      0  0,1
vif2.0  web-01                 0               0               0             0      0  0
vif2.1  web-01                 0               0               0             0      0  0
g3-net  g3                     0               0               0             0      0  1
[exit 0]
EOF
}

# The driver before home_cpu and max_pass_*: "-" in the table, no key
# in the JSON (null stays for a file there but unreadable); reset-max
# has nothing to write.
t_status_older() {
	fx_standard
	rm "$S"/module/xen_netback/groups/*/{home_cpu,max_pass_us,max_pass_slots}
	echo 0 > "$S/module/xen_netback/groups/1/cpu"
	x status
	xj status --json
	xj top --json -n 1
	x reset-max
	expect <<'EOF'
$ xnbctl status
@status_head 2
    0    0  light       12       3           12.5            -          -
    1    0  thread      87       2           30.3            -          -

@vifs
[exit 0]
$ xnbctl status --json
{"schema": 2, "xnbctl_version": "<version>", "driver_version": "9.8.7-test", "parameters": {"groups": 2, "worker": "kthread", "budget": 64, "copy_batch": 256, "rebalance_ms": 1000}, "groups": [{"index": 0, "cpu": 0, "mode": "light", "busy_pct": 12, "queues": 3, "passes": 1000, "packets": 50000, "batches": 800, "ops": 10000, "handoffs": 5, "moves_in": 1, "moves_out": 0, "ops_per_hypercall": 12.5}, {"index": 1, "cpu": 0, "mode": "thread", "busy_pct": 87, "queues": 2, "passes": 2000, "packets": 90000, "batches": 1000, "ops": 30250, "handoffs": 40, "moves_in": 0, "moves_out": 1, "ops_per_hypercall": 30.3}], "vifs": [{"name": "vif1.0", "domid": 1, "domain": "g1", "devid": 0, "pin": null, "queues": [{"queue": 0, "group": 0}, {"queue": 1, "group": 1}]}, {"name": "vif2.0", "domid": 2, "domain": "web-01", "devid": 0, "pin": null, "queues": [{"queue": 0, "group": 0}]}, {"name": "vif2.1", "domid": 2, "domain": "web-01", "devid": 1, "pin": 0, "queues": [{"queue": 0, "group": 0}]}, {"name": "g3-net", "domid": 3, "domain": "g3", "devid": 0, "pin": null, "queues": [{"queue": 0, "group": 1}]}]}
[exit 0]
$ xnbctl top --json -n 1
{"schema": 2, "frame": 1, "interval_s": 1.0, "hottest_group": 1, "groups": [{"index": 0, "cpu": 0, "mode": "light", "busy_pct": 12, "queues": 3, "packets_per_s": 0, "passes_per_s": 0, "ops_per_hypercall": null, "handoffs_per_s": 0, "moves_in": 0, "moves_out": 0}, {"index": 1, "cpu": 0, "mode": "thread", "busy_pct": 87, "queues": 2, "packets_per_s": 0, "passes_per_s": 0, "ops_per_hypercall": null, "handoffs_per_s": 0, "moves_in": 0, "moves_out": 0}], "vifs": [{"name": "vif1.0", "domid": 1, "domain": "g1", "devid": 0, "groups": [0, 1], "from_guest_packets_per_s": 0, "to_guest_packets_per_s": 0, "from_guest_bytes_per_s": 0, "to_guest_bytes_per_s": 0, "from_guest_dropped": 0, "to_guest_dropped": 0}, {"name": "vif2.0", "domid": 2, "domain": "web-01", "devid": 0, "groups": [0], "from_guest_packets_per_s": 0, "to_guest_packets_per_s": 0, "from_guest_bytes_per_s": 0, "to_guest_bytes_per_s": 0, "from_guest_dropped": 0, "to_guest_dropped": 0}, {"name": "vif2.1", "domid": 2, "domain": "web-01", "devid": 1, "groups": [0], "from_guest_packets_per_s": 0, "to_guest_packets_per_s": 0, "from_guest_bytes_per_s": 0, "to_guest_bytes_per_s": 0, "from_guest_dropped": 0, "to_guest_dropped": 0}, {"name": "g3-net", "domid": 3, "domain": "g3", "devid": 0, "groups": [1], "from_guest_packets_per_s": 0, "to_guest_packets_per_s": 0, "from_guest_bytes_per_s": 0, "to_guest_bytes_per_s": 0, "from_guest_dropped": 0, "to_guest_dropped": 0}]}
[exit 0]
$ xnbctl reset-max
stderr: xnbctl: this xen-netback has no max_pass_us (no /sys/module/xen_netback/groups/0/max_pass_us)
[exit 3]
EOF
}

t_json_escape() {
	fx_driver 1
	fx_group 0 0 light 1 0 0 0 0 0 0 0 0
	printf '7 a"b\\c\n' > "$R/domains"
	fx_vif 7 0 0
	xj status --json
	expect <<'EOF'
$ xnbctl status --json
{"schema": 2, "xnbctl_version": "<version>", "driver_version": "9.8.7-test", "parameters": {"groups": 1, "worker": "kthread", "budget": 64, "copy_batch": 256, "rebalance_ms": 1000}, "groups": [{"index": 0, "cpu": 0, "mode": "light", "busy_pct": 0, "queues": 1, "passes": 0, "packets": 0, "batches": 0, "ops": 0, "handoffs": 0, "moves_in": 0, "moves_out": 0, "ops_per_hypercall": null}], "vifs": [{"name": "vif7.0", "domid": 7, "domain": "a\"b\\c", "devid": 0, "pin": null, "queues": [{"queue": 0, "group": 0}]}]}
[exit 0]
EOF
}

# The commands that need our driver loaded, one a word-split row.
GATED=(status "top -n 1" "pin g1 0" "unpin g1" "set budget 16" reset-max)
# gated_case RC MESSAGE: each GATED command fails with MESSAGE, exit RC.
gated_case() {
	local c
	for c in "${GATED[@]}"; do
		# shellcheck disable=SC2086 # a row is the command's words
		x $c
	done
	for c in "${GATED[@]}"; do
		printf '$ xnbctl %s\nstderr: xnbctl: %s\n[exit %s]\n' "$c" "$2" "$1"
	done | expect
}

t_not_loaded() {
	mkdir -p "$S/class/net"
	gated_case 2 'xen-netback is not loaded (no /sys/module/xen_netback)'
}

# Outside the test mode, and under sudo even in it, the XNBCTL_* stand-ins
# are ignored: status looks at this host's /sys, where no driver is.
t_env_ignored() {
	if [ -d /sys/module/xen_netback ]; then
		echo "    (skipped: this host has xen_netback loaded)"
		return 0
	fi
	fx_standard
	TEST_MODE=0 x status
	SUDO_AS=1000 x status
	expect <<'EOF'
$ xnbctl status
stderr: xnbctl: xen-netback is not loaded (no /sys/module/xen_netback)
[exit 2]
$ xnbctl status
stderr: xnbctl: xen-netback is not loaded (no /sys/module/xen_netback)
[exit 2]
EOF
}

t_stock() {
	fx_stock
	fx_domain 1 g1
	fx_vif 1 0
	gated_case 3 'this is the in-kernel xen-netback, not the worker-group driver (no /sys/module/xen_netback/groups)'
}

# Each interval: group 0 10 batches of 125 ops, group 1 200 of 32; the
# second interval 0.5 s, so twice the rates.
t_top() {
	fx_standard
	fx_ticks
	x top -n 2
	x top -d 0.5 -n1
	expect <<'EOF'
$ xnbctl top -n 2
xnbctl top: frame 1 of 2, interval 1.00 s, 2 groups, 4 vifs
hottest group: 1 (87% busy, 50000 pkt/s)

GROUP  CPU  MODE     BUSY%  QUEUES      PKT/S   PASSES/S  OPS/HC  HANDOFFS/S  MOVES-IN/OUT
    0    0  light       12       3       1000        100    12.5           0  0/0
    1    1  thread      87       2      50000        400    32.0           3  0/0

VIF     DOMAIN  FROM-GUEST-PKT/S  TO-GUEST-PKT/S  FROM-GUEST-B/S  TO-GUEST-B/S  DROPS  GROUP
vif1.0  g1                   600             400          540000         25600      2  0,1
vif2.0  web-01                 0               0               0             0      0  0
vif2.1  web-01                 0               0               0             0      0  0
g3-net  g3                 50000               0        75000000             0      7  1

xnbctl top: frame 2 of 2, interval 1.00 s, 2 groups, 4 vifs
hottest group: 1 (87% busy, 50000 pkt/s)

GROUP  CPU  MODE     BUSY%  QUEUES      PKT/S   PASSES/S  OPS/HC  HANDOFFS/S  MOVES-IN/OUT
    0    0  light       12       3       1000        100    12.5           0  0/0
    1    1  thread      87       2      50000        400    32.0           3  0/0

VIF     DOMAIN  FROM-GUEST-PKT/S  TO-GUEST-PKT/S  FROM-GUEST-B/S  TO-GUEST-B/S  DROPS  GROUP
vif1.0  g1                   600             400          540000         25600      2  0,1
vif2.0  web-01                 0               0               0             0      0  0
vif2.1  web-01                 0               0               0             0      0  0
g3-net  g3                 50000               0        75000000             0      7  1
[exit 0]
$ xnbctl top -d 0.5 -n1
xnbctl top: frame 1 of 1, interval 0.50 s, 2 groups, 4 vifs
hottest group: 1 (87% busy, 100000 pkt/s)

GROUP  CPU  MODE     BUSY%  QUEUES      PKT/S   PASSES/S  OPS/HC  HANDOFFS/S  MOVES-IN/OUT
    0    0  light       12       3       2000        200    12.5           0  0/0
    1    1  thread      87       2     100000        800    32.0           6  0/0

VIF     DOMAIN  FROM-GUEST-PKT/S  TO-GUEST-PKT/S  FROM-GUEST-B/S  TO-GUEST-B/S  DROPS  GROUP
vif1.0  g1                  1200             800         1080000         51200      2  0,1
vif2.0  web-01                 0               0               0             0      0  0
vif2.1  web-01                 0               0               0             0      0  0
g3-net  g3                100000               0       150000000             0      7  1
[exit 0]
EOF
}

# top -n 50 into head -n1: once head is gone top stops (the fake
# uptime, which each sleep moves on, says how many frames it made), with
# status 0 and nothing on stderr.
t_top_reader_gone() {
	local mode up
	fx_standard
	fx_ticks
	for mode in "" -j -p; do
		echo "100.00 150.00" > "$R/proc/uptime"
		PIPE_TO="head -n1" x $mode top -d 0.1 -n 50
		read -r up _ < "$R/proc/uptime"
		awk -v u="$up" 'BEGIN { exit !(u < 104) }' && echo "stopped before frame 40" >> "$T"
	done
	expect <<'EOF'
$ xnbctl top -d 0.1 -n 50
xnbctl top: frame 1 of 50, interval 0.10 s, 2 groups, 4 vifs
[exit 0]
stopped before frame 40
$ xnbctl -j top -d 0.1 -n 50
{"schema": 2, "frame": 1, "interval_s": 0.1, "hottest_group": 1, "groups": [{"index": 0, "cpu": 0, "home_cpu": 0, "mode": "light", "busy_pct": 12, "queues": 3, "packets_per_s": 10000, "passes_per_s": 1000, "ops_per_hypercall": 12.5, "handoffs_per_s": 0, "moves_in": 0, "moves_out": 0}, {"index": 1, "cpu": 1, "home_cpu": 1, "mode": "thread", "busy_pct": 87, "queues": 2, "packets_per_s": 500000, "passes_per_s": 4000, "ops_per_hypercall": 32.0, "handoffs_per_s": 30, "moves_in": 0, "moves_out": 0}], "vifs": [{"name": "vif1.0", "domid": 1, "domain": "g1", "devid": 0, "groups": [0, 1], "from_guest_packets_per_s": 6000, "to_guest_packets_per_s": 4000, "from_guest_bytes_per_s": 5400000, "to_guest_bytes_per_s": 256000, "from_guest_dropped": 0, "to_guest_dropped": 2}, {"name": "vif2.0", "domid": 2, "domain": "web-01", "devid": 0, "groups": [0], "from_guest_packets_per_s": 0, "to_guest_packets_per_s": 0, "from_guest_bytes_per_s": 0, "to_guest_bytes_per_s": 0, "from_guest_dropped": 0, "to_guest_dropped": 0}, {"name": "vif2.1", "domid": 2, "domain": "web-01", "devid": 1, "groups": [0], "from_guest_packets_per_s": 0, "to_guest_packets_per_s": 0, "from_guest_bytes_per_s": 0, "to_guest_bytes_per_s": 0, "from_guest_dropped": 0, "to_guest_dropped": 0}, {"name": "g3-net", "domid": 3, "domain": "g3", "devid": 0, "groups": [1], "from_guest_packets_per_s": 500000, "to_guest_packets_per_s": 0, "from_guest_bytes_per_s": 750000000, "to_guest_bytes_per_s": 0, "from_guest_dropped": 7, "to_guest_dropped": 0}]}
[exit 0]
stopped before frame 40
$ xnbctl -p top -d 0.1 -n 50
{
[exit 0]
stopped before frame 40
EOF
}

t_top_json() {
	fx_standard
	fx_ticks
	xj top --json -n 2
	expect <<'EOF'
$ xnbctl top --json -n 2
{"schema": 2, "frame": 1, "interval_s": 1.0, "hottest_group": 1, "groups": [{"index": 0, "cpu": 0, "home_cpu": 0, "mode": "light", "busy_pct": 12, "queues": 3, "packets_per_s": 1000, "passes_per_s": 100, "ops_per_hypercall": 12.5, "handoffs_per_s": 0, "moves_in": 0, "moves_out": 0}, {"index": 1, "cpu": 1, "home_cpu": 1, "mode": "thread", "busy_pct": 87, "queues": 2, "packets_per_s": 50000, "passes_per_s": 400, "ops_per_hypercall": 32.0, "handoffs_per_s": 3, "moves_in": 0, "moves_out": 0}], "vifs": [{"name": "vif1.0", "domid": 1, "domain": "g1", "devid": 0, "groups": [0, 1], "from_guest_packets_per_s": 600, "to_guest_packets_per_s": 400, "from_guest_bytes_per_s": 540000, "to_guest_bytes_per_s": 25600, "from_guest_dropped": 0, "to_guest_dropped": 2}, {"name": "vif2.0", "domid": 2, "domain": "web-01", "devid": 0, "groups": [0], "from_guest_packets_per_s": 0, "to_guest_packets_per_s": 0, "from_guest_bytes_per_s": 0, "to_guest_bytes_per_s": 0, "from_guest_dropped": 0, "to_guest_dropped": 0}, {"name": "vif2.1", "domid": 2, "domain": "web-01", "devid": 1, "groups": [0], "from_guest_packets_per_s": 0, "to_guest_packets_per_s": 0, "from_guest_bytes_per_s": 0, "to_guest_bytes_per_s": 0, "from_guest_dropped": 0, "to_guest_dropped": 0}, {"name": "g3-net", "domid": 3, "domain": "g3", "devid": 0, "groups": [1], "from_guest_packets_per_s": 50000, "to_guest_packets_per_s": 0, "from_guest_bytes_per_s": 75000000, "to_guest_bytes_per_s": 0, "from_guest_dropped": 7, "to_guest_dropped": 0}]}
{"schema": 2, "frame": 2, "interval_s": 1.0, "hottest_group": 1, "groups": [{"index": 0, "cpu": 0, "home_cpu": 0, "mode": "light", "busy_pct": 12, "queues": 3, "packets_per_s": 1000, "passes_per_s": 100, "ops_per_hypercall": 12.5, "handoffs_per_s": 0, "moves_in": 0, "moves_out": 0}, {"index": 1, "cpu": 1, "home_cpu": 1, "mode": "thread", "busy_pct": 87, "queues": 2, "packets_per_s": 50000, "passes_per_s": 400, "ops_per_hypercall": 32.0, "handoffs_per_s": 3, "moves_in": 0, "moves_out": 0}], "vifs": [{"name": "vif1.0", "domid": 1, "domain": "g1", "devid": 0, "groups": [0, 1], "from_guest_packets_per_s": 600, "to_guest_packets_per_s": 400, "from_guest_bytes_per_s": 540000, "to_guest_bytes_per_s": 25600, "from_guest_dropped": 0, "to_guest_dropped": 2}, {"name": "vif2.0", "domid": 2, "domain": "web-01", "devid": 0, "groups": [0], "from_guest_packets_per_s": 0, "to_guest_packets_per_s": 0, "from_guest_bytes_per_s": 0, "to_guest_bytes_per_s": 0, "from_guest_dropped": 0, "to_guest_dropped": 0}, {"name": "vif2.1", "domid": 2, "domain": "web-01", "devid": 1, "groups": [0], "from_guest_packets_per_s": 0, "to_guest_packets_per_s": 0, "from_guest_bytes_per_s": 0, "to_guest_bytes_per_s": 0, "from_guest_dropped": 0, "to_guest_dropped": 0}, {"name": "g3-net", "domid": 3, "domain": "g3", "devid": 0, "groups": [1], "from_guest_packets_per_s": 50000, "to_guest_packets_per_s": 0, "from_guest_bytes_per_s": 75000000, "to_guest_bytes_per_s": 0, "from_guest_dropped": 7, "to_guest_dropped": 0}]}
[exit 0]
EOF
}

# `set groups 3` while top sleeps: groups 0 and 1 start counting again
# (lower than before: "-"), group 2 is new (no rate yet), and a vif of a
# new domain comes up (no rate yet, its name looked up).  The sleep stub
# copies $R/after over the tree once, as that.
regroup_after() {
	mkdir -p "$R/after"
	cp "$R/domains" "$R/after/"
	local R=$R/after
	local S=$R/sys
	mkdir -p "$S/class/net" "$S/module/xen_netback/parameters"
	echo 3 > "$S/module/xen_netback/parameters/groups"
	fx_group 0 0 thread 1 20 4 40 2 20 0 0 0
	fx_group 1 1 light 0 0 0 0 0 0 0 0 0
	fx_group 2 0 light 1 0 7 70 1 7 0 0 0
	fx_domain 2 g2
	fx_vif 2 0 2
}
t_top_regroup() {
	fx_driver 2
	fx_group 0 0 light 1 50 100 5000 50 500 3 0 0
	fx_group 1 1 light 1 50 100 5000 50 500 0 0 0
	fx_domain 1 g1
	fx_vif 1 0 0
	regroup_after
	x top -n 1
	x status
	expect <<'EOF'
$ xnbctl top -n 1
xnbctl top: frame 1 of 1, interval 1.00 s, 3 groups, 2 vifs
hottest group: 0 (20% busy, - pkt/s)

GROUP  CPU  MODE     BUSY%  QUEUES      PKT/S   PASSES/S  OPS/HC  HANDOFFS/S  MOVES-IN/OUT
    0    0  thread      20       1          -          -       -           -  0/0
    1    1  light        0       0          -          -       -           0  0/0
    2    0  light        0       1          -          -       -           -  -/-

VIF     DOMAIN  FROM-GUEST-PKT/S  TO-GUEST-PKT/S  FROM-GUEST-B/S  TO-GUEST-B/S  DROPS  GROUP
vif1.0  g1                     0               0               0             0      0  0
vif2.0  g2                     -               -               -             -      -  2
[exit 0]
$ xnbctl status
@status_head 3
    0    0  thread      20       1           10.0            -          -
    1    1  light        0       0              -            -          -
    2    0  light        0       1            7.0            -          -

VIF     DOMID  DOMAIN  DEVID  PIN  QUEUE:GROUP
vif1.0      1  g1          0    -  q0:0
vif2.0      2  g2          0    -  q0:2
[exit 0]
EOF
}

t_pin() {
	fx_standard
	x pin g1 1
	show_log
	x pin 2 1 1
	show_log
	x pin g3 0 0
	show_log
	x status
	expect <<'EOF'
$ xnbctl pin g1 1
vif1.0 (g1): pinned to group 1
[exit 0]
log: xenstore-write /local/domain/0/backend/vif/1/0/worker-group 1
$ xnbctl pin 2 1 1
vif2.1 (web-01): pinned to group 1
[exit 0]
log: xenstore-write /local/domain/0/backend/vif/2/1/worker-group 1
$ xnbctl pin g3 0 0
vif3.0 (g3): pinned to group 0
[exit 0]
log: xenstore-write /local/domain/0/backend/vif/3/0/worker-group 0
$ xnbctl status
@status_head 2
    0    0  light       12       3           12.5          850        212
    1    1  thread      87       2           30.3         1203        290

VIF     DOMID  DOMAIN  DEVID  PIN  QUEUE:GROUP
vif1.0      1  g1          0    1  q0:0 q1:1
vif2.0      2  web-01      0    -  q0:0
vif2.1      2  web-01      1    1  q0:0
g3-net      3  g3          0    0  q0:1
[exit 0]
EOF
}

t_pin_errors() {
	fx_standard
	fx_domain 4 nonet
	x pin web-01 1
	x pin nosuch 0
	x pin 9 0
	x pin g1 5 0
	x pin nonet 0
	x pin g1 2
	x pin g1 one
	x pin g1 x 0
	x pin g1
	x pin g1 0 0 0
	show_log
	expect <<'EOF'
$ xnbctl pin web-01 1
stderr: xnbctl: web-01 (domain 2) has vifs 0 1: name the DEVID
stderr: Try 'xnbctl help'.
[exit 1]
$ xnbctl pin nosuch 0
stderr: xnbctl: no domain 'nosuch' (xl list)
[exit 4]
$ xnbctl pin 9 0
stderr: xnbctl: no domain '9' (xl list)
[exit 4]
$ xnbctl pin g1 5 0
stderr: xnbctl: g1 (domain 1) has no vif 5 (no /local/domain/0/backend/vif/1/5)
[exit 4]
$ xnbctl pin nonet 0
stderr: xnbctl: nonet (domain 4) has no vif (nothing under /local/domain/0/backend/vif/4)
[exit 4]
$ xnbctl pin g1 2
stderr: xnbctl: no group 2: the driver has 2 groups (0-1); it would ignore the key
[exit 5]
$ xnbctl pin g1 one
stderr: xnbctl: GROUP must be a number, not 'one'
stderr: Try 'xnbctl help'.
[exit 1]
$ xnbctl pin g1 x 0
stderr: xnbctl: DEVID must be a number, not 'x'
stderr: Try 'xnbctl help'.
[exit 1]
$ xnbctl pin g1
stderr: xnbctl: pin: DOMAIN [DEVID] GROUP
stderr: Try 'xnbctl help'.
[exit 1]
$ xnbctl pin g1 0 0 0
stderr: xnbctl: pin: DOMAIN [DEVID] GROUP
stderr: Try 'xnbctl help'.
[exit 1]
EOF
}

t_pin_tools() {
	fx_standard
	EUID_AS=1000 x pin g1 1
	EUID_AS=1000 x unpin web-01 1
	touch "$R/xs.fail"
	x pin g1 1
	x unpin web-01 1
	touch "$R/xl.fail"
	x pin g1 1
	show_log
	expect <<'EOF'
$ xnbctl pin g1 1
stderr: xnbctl: pin (writes xenstore) needs root
[exit 6]
$ xnbctl unpin web-01 1
stderr: xnbctl: unpin (writes xenstore) needs root
[exit 6]
$ xnbctl pin g1 1
stderr: xnbctl: xenstore-write /local/domain/0/backend/vif/1/0/worker-group failed: xenstore-write: could not write path /local/domain/0/backend/vif/1/0/worker-group
[exit 7]
$ xnbctl unpin web-01 1
stderr: xnbctl: xenstore-rm /local/domain/0/backend/vif/2/1/worker-group failed: xenstore-rm: could not remove path /local/domain/0/backend/vif/2/1/worker-group
[exit 7]
$ xnbctl pin g1 1
stderr: xnbctl: xl list failed: xl: permission denied opening /dev/xen/privcmd
[exit 7]
EOF
}

t_unpin() {
	fx_standard
	x unpin web-01 1
	show_log
	x unpin web-01 1
	x unpin g1
	x unpin 3 0
	show_log
	expect <<'EOF'
$ xnbctl unpin web-01 1
vif2.1 (web-01): unpinned (was group 0)
[exit 0]
log: xenstore-rm /local/domain/0/backend/vif/2/1/worker-group
$ xnbctl unpin web-01 1
vif2.1 (web-01): not pinned
[exit 0]
$ xnbctl unpin g1
vif1.0 (g1): not pinned
[exit 0]
$ xnbctl unpin 3 0
vif3.0 (g3): not pinned
[exit 0]
EOF
}

t_set() {
	fx_standard
	x set budget 16
	x set copy_batch 1024
	x set rebalance_ms 0
	x set groups 3
	cat "$S"/module/xen_netback/parameters/{budget,copy_batch,rebalance_ms,groups} >> "$T"
	expect <<'EOF'
@set_ok 64 set budget 16
@set_ok 256 set copy_batch 1024
@set_ok 1000 set rebalance_ms 0
@set_ok 2 set groups 3
16
1024
0
3
EOF
}

# A parameter that is a directory stands for one the driver refuses
# values for: every write fails (EISDIR there, EINVAL from the driver).
t_set_refused() {
	local p=$S/module/xen_netback/parameters
	fx_standard
	cat > "$R/dmesg" <<'EOF'
[   12.000000] xen_netback: budget=0 refused: out of range [1, 1024]
[   14.000000] xen_netback: budget=5000 refused: out of range [1, 1024]
[   15.000000] xen_netback: rebalance_ms=50 refused: 0 or [100, 60000]
[   16.000000] xen_netback: groups=9 failed (-12), still 2 groups
EOF
	for f in budget rebalance_ms groups copy_batch; do
		rm "$p/$f"
		mkdir "$p/$f"
	done
	x set budget 5000
	x set rebalance_ms 50
	x set groups 9
	x set copy_batch 64
	expect <<'EOF'
$ xnbctl set budget 5000
stderr: xnbctl: the driver refused budget=5000: budget=5000 refused: out of range [1, 1024]
[exit 5]
$ xnbctl set rebalance_ms 50
stderr: xnbctl: the driver refused rebalance_ms=50: rebalance_ms=50 refused: 0 or [100, 60000]
[exit 5]
$ xnbctl set groups 9
stderr: xnbctl: the driver refused groups=9: groups=9 failed (-12), still 2 groups
[exit 5]
$ xnbctl set copy_batch 64
stderr: xnbctl: the driver refused copy_batch=64 (Is a directory; no reason in dmesg)
[exit 5]
EOF
}

t_set_errors() {
	fx_standard
	x set worker tasklet
	x set budget 0x10
	x set budget -1
	x set budget
	EUID_AS=1000 x set budget 16
	rm "$S/module/xen_netback/parameters/rebalance_ms"
	x set rebalance_ms 500
	expect <<'EOF'
$ xnbctl set worker tasklet
stderr: xnbctl: set: no parameter 'worker' (groups, budget, copy_batch, rebalance_ms, ctrl_rate, max_queues, separate_tx_rx_irq, hash_cache_size, provides_xdp_headroom)
stderr: Try 'xnbctl help'.
[exit 1]
$ xnbctl set budget 0x10
stderr: xnbctl: set: VALUE must be a decimal number, not '0x10'
stderr: Try 'xnbctl help'.
[exit 1]
$ xnbctl set budget -1
stderr: xnbctl: unknown option '-1'
stderr: Try 'xnbctl help'.
[exit 1]
$ xnbctl set budget
stderr: xnbctl: set: NAME VALUE, NAME one of groups, budget, copy_batch, rebalance_ms, ctrl_rate, max_queues, separate_tx_rx_irq, hash_cache_size, provides_xdp_headroom
stderr: Try 'xnbctl help'.
[exit 1]
$ xnbctl set budget 16
stderr: xnbctl: set (writes /sys/module/xen_netback/parameters) needs root
[exit 6]
$ xnbctl set rebalance_ms 500
stderr: xnbctl: this xen-netback has no parameter rebalance_ms (no /sys/module/xen_netback/parameters/rebalance_ms)
[exit 3]
EOF
}

t_reset_max() {
	local g=$S/module/xen_netback/groups
	fx_standard
	x reset-max 1
	x reset-max
	echo 37 > "$g/0/max_pass_us"
	x reset-max 0
	cat "$g"/{0,1}/max_pass_{us,slots} >> "$T"
	expect <<'EOF'
$ xnbctl reset-max 1
group 1: max_pass_us 1203 -> 0, max_pass_slots 290 -> 0
[exit 0]
$ xnbctl reset-max
group 0: max_pass_us 850 -> 0, max_pass_slots 212 -> 0
group 1: max_pass_us 0 -> 0, max_pass_slots 0 -> 0
[exit 0]
$ xnbctl reset-max 0
group 0: max_pass_us 37 -> 0, max_pass_slots 0 -> 0
[exit 0]
0
0
0
0
EOF
}

# A max_pass_slots that is a directory stands for a write that fails
# (the group replaced meanwhile, say).
t_reset_max_errors() {
	local g=$S/module/xen_netback/groups
	fx_standard
	x reset-max 2
	x reset-max one
	x reset-max 0 1
	x reset-max --json
	EUID_AS=1000 x reset-max
	rm "$g/1/max_pass_slots"
	mkdir "$g/1/max_pass_slots"
	x reset-max
	expect <<'EOF'
$ xnbctl reset-max 2
stderr: xnbctl: no group 2: the driver has 2 groups
[exit 4]
$ xnbctl reset-max one
stderr: xnbctl: GROUP must be a number, not 'one'
stderr: Try 'xnbctl help'.
[exit 1]
$ xnbctl reset-max 0 1
stderr: xnbctl: reset-max: [GROUP]
stderr: Try 'xnbctl help'.
[exit 1]
$ xnbctl reset-max --json
stderr: xnbctl: --json: for status, top, version and the show commands only
stderr: Try 'xnbctl help'.
[exit 1]
$ xnbctl reset-max
stderr: xnbctl: reset-max (writes /sys/module/xen_netback/groups) needs root
[exit 6]
$ xnbctl reset-max
group 0: max_pass_us 850 -> 0, max_pass_slots 212 -> 0
stderr: xnbctl: cannot reset /sys/module/xen_netback/groups/1/max_pass_slots: Is a directory
[exit 5]
EOF
}

# Group 1 answers ENODEV, then the new set (3 groups) shows a moment
# later; then group 1 is gone by the time reset-max gets to it (not an
# older build: exit 3 is only for a group still there).
t_reset_max_regroup() {
	fx_standard
	fx_new_set after 3
	fx_write_hook sys/module/xen_netback/groups/1/max_pass_us enodev
	x reset-max
	fx_new_set after 1
	fx_write_hook sys/module/xen_netback/groups/0/max_pass_slots ok
	x reset-max
	fx_group 1 1 thread 2 87 2000 90000 1000 30250 40 0 1
	fx_newer 1 1 1203 290
	fx_new_set new 2
	fx_write_hook sys/module/xen_netback/groups/1/max_pass_us enodev
	x reset-max 1
	expect <<'EOF'
$ xnbctl reset-max
group 0: max_pass_us 850 -> 0, max_pass_slots 212 -> 0
group 0: max_pass_us 0 -> 0, max_pass_slots 0 -> 0
group 1: max_pass_us 0 -> 0, max_pass_slots 0 -> 0
group 2: max_pass_us 0 -> 0, max_pass_slots 0 -> 0
stderr: xnbctl: a write of groups replaced the groups meanwhile: resetting the new ones
[exit 0]
$ xnbctl reset-max
group 0: max_pass_us 0 -> 0, max_pass_slots 0 -> -
group 0: max_pass_us 0 -> 0, max_pass_slots 0 -> 0
stderr: xnbctl: a write of groups replaced the groups meanwhile: resetting the new ones
[exit 0]
$ xnbctl reset-max 1
group 1: max_pass_us 0 -> 0, max_pass_slots 0 -> 0
stderr: xnbctl: a write of groups replaced the groups meanwhile: resetting the new ones
[exit 0]
EOF
}

# Replaced again during the second try; replaced and no new set within
# 5 s; replaced by fewer groups than the one named.
t_reset_max_replaced() {
	fx_standard
	fx_new_set new 2
	fx_write_hook sys/module/xen_netback/groups/0/max_pass_us enodev
	fx_write_hook sys/module/xen_netback/groups/0/max_pass_us enodev
	x reset-max
	rm -r "$R/new"
	fx_write_hook sys/module/xen_netback/groups/0/max_pass_us enodev
	x reset-max
	fx_group 1 1 thread 2 87 2000 90000 1000 30250 40 0 1
	fx_newer 1 1 1203 290
	fx_new_set after 1
	fx_write_hook sys/module/xen_netback/groups/1/max_pass_us enodev
	x reset-max 1
	expect <<'EOF'
$ xnbctl reset-max
stderr: xnbctl: a write of groups replaced the groups meanwhile: resetting the new ones
stderr: xnbctl: writes of groups replaced the groups twice meanwhile: run reset-max again
[exit 5]
$ xnbctl reset-max
stderr: xnbctl: a write of groups replaced the groups meanwhile: resetting the new ones
stderr: xnbctl: a write of groups replaced the groups meanwhile, and no new ones showed within 5 s
[exit 5]
$ xnbctl reset-max 1
stderr: xnbctl: a write of groups replaced the groups meanwhile: resetting the new ones
stderr: xnbctl: no group 1: the driver has 1 groups
[exit 4]
EOF
}

# Group 1 goes while status reads it (its cpu first): the rows of the
# groups there at the end.
t_status_vanish() {
	fx_standard
	fx_vanish_at 1 cpu
	x status
	kill_vanish
	fx_group 1 1 thread 2 87 2000 90000 1000 30250 40 0 1
	fx_newer 1 1 1203 290
	fx_vanish_at 1 cpu
	xj status --json
	kill_vanish
	expect <<'EOF'
$ xnbctl status
@status_head 2
    0    0  light       12       3           12.5          850        212

@vifs
[exit 0]
$ xnbctl status --json
{"schema": 2, "xnbctl_version": "<version>", "driver_version": "9.8.7-test", "parameters": {"groups": 2, "worker": "kthread", "budget": 64, "copy_batch": 256, "rebalance_ms": 1000}, "groups": [{"index": 0, "cpu": 0, "home_cpu": 0, "mode": "light", "busy_pct": 12, "queues": 3, "passes": 1000, "packets": 50000, "batches": 800, "ops": 10000, "handoffs": 5, "moves_in": 1, "moves_out": 0, "max_pass_us": 850, "max_pass_slots": 212, "ops_per_hypercall": 12.5}], "vifs": [{"name": "vif1.0", "domid": 1, "domain": "g1", "devid": 0, "pin": null, "queues": [{"queue": 0, "group": 0}, {"queue": 1, "group": 1}]}, {"name": "vif2.0", "domid": 2, "domain": "web-01", "devid": 0, "pin": null, "queues": [{"queue": 0, "group": 0}]}, {"name": "vif2.1", "domid": 2, "domain": "web-01", "devid": 1, "pin": 0, "queues": [{"queue": 0, "group": 0}]}, {"name": "g3-net", "domid": 3, "domain": "g3", "devid": 0, "pin": null, "queues": [{"queue": 0, "group": 1}]}]}
[exit 0]
EOF
}

t_usage() {
	fx_standard
	x help
	cp "$R.out" "$R.usage"
	x
	x --help
	x frobnicate
	x status extra
	x pin --json g1 0
	x top -d 0
	x top -d abc
	x top -n x
	x top -n
	x set -n 2 budget 16
	expect <<'EOF'
$ xnbctl help
usage: xnbctl [OPTIONS] status
       xnbctl [OPTIONS] top [-d SECONDS] [-n ITERATIONS]
       xnbctl [OPTIONS] group show [GROUP]
       xnbctl group reset-max [GROUP]
       xnbctl [OPTIONS] vif show [VIF | DOMAIN]
       xnbctl vif pin VIF GROUP [--persist]
       xnbctl vif unpin VIF [--persist]
       xnbctl vif pin-apply VIFNAME
       xnbctl [OPTIONS] param show
       xnbctl param set NAME VALUE [--persist]
       xnbctl [OPTIONS] version
       xnbctl help
OPTIONS: -j|--json  -p|--pretty  -V|--version  -h|--help

The worker groups of xen-netback (the worker-group driver) and the vifs
they serve.  VIF is a vif's name (vif2.1, or the one xl's vifname= gave
it) or DOMAIN DEVID: a domain name or id and the vif's device id.

  status   the driver's version, the groups and the vifs: group show
           and vif show together
  top      rates per interval, refreshed every SECONDS (default 1) until
           interrupted or for ITERATIONS frames
  group show
           each group's CPU, mode, busy %, queues, ops per hypercall and
           longest pass
  group reset-max
           zero the longest pass and the most slots per pass of GROUP
           (default: every group), to measure them afresh
  vif show each vif's domain, devid, pin and queue:group
  vif pin  pin every queue of the vif to GROUP (xenstore key worker-group);
           the driver moves them live.  --persist also writes the rule
           "DOMAIN DEVID GROUP" to /etc/xen-netback-wg/pins, which pins
           the vif again at each start of the domain (for a domain not
           running: the rule alone)
  vif unpin
           remove the pin: the queues move by load again; --persist
           also removes the rule
  vif pin-apply
           pin the vif by its domain's rule, if there is one: Xen's vif
           hotplug scripts run it for each new vif (vif-post.d hook)
  param show
           every module parameter, and which ones set can change
  param set
           write a runtime module parameter; the driver checks its range.
           It lasts until xen-netback is next loaded; --persist also
           writes it to /etc/modprobe.d/xen-netback-wg.conf
  version  xnbctl's version and the driver's (also -V, --version)
  -j       JSON: one object (top: one per frame); -p indented

The forms before these still work: pin DOMAIN [DEVID] GROUP, unpin
DOMAIN [DEVID], set NAME VALUE, reset-max [GROUP].

Exit status: 0 ok, 1 usage, 2 xen-netback not loaded, 3 the in-kernel
xen-netback (not the worker-group driver) or a build without the file
set or reset-max writes, 4 unknown domain, vif or group (group show,
reset-max), 5 value refused, 6 not root, 7 xl, xenstore or python3
failed, or the options file or the pins file could not be written.
See xnbctl(8).
[exit 0]
$ xnbctl 
stderr: <usage>
[exit 1]
$ xnbctl --help
<usage>
[exit 0]
$ xnbctl frobnicate
stderr: xnbctl: unknown command 'frobnicate'
stderr: Try 'xnbctl help'.
[exit 1]
$ xnbctl status extra
stderr: xnbctl: status takes no argument
stderr: Try 'xnbctl help'.
[exit 1]
$ xnbctl pin --json g1 0
stderr: xnbctl: --json: for status, top, version and the show commands only
stderr: Try 'xnbctl help'.
[exit 1]
$ xnbctl top -d 0
stderr: xnbctl: -d: a positive number of seconds, not '0'
stderr: Try 'xnbctl help'.
[exit 1]
$ xnbctl top -d abc
stderr: xnbctl: -d: a positive number of seconds, not 'abc'
stderr: Try 'xnbctl help'.
[exit 1]
$ xnbctl top -n x
stderr: xnbctl: -n: a number of frames, not 'x'
stderr: Try 'xnbctl help'.
[exit 1]
$ xnbctl top -n
stderr: xnbctl: -n needs a value
stderr: Try 'xnbctl help'.
[exit 1]
$ xnbctl set -n 2 budget 16
stderr: xnbctl: -n: for top only
stderr: Try 'xnbctl help'.
[exit 1]
EOF
}

t_version() {
	x --version
	fx_stock
	x -V
	rm -r "$S/module/xen_netback"
	fx_standard
	x version
	xj -j version
	x -p --version
	x version extra
	expect <<'EOF'
$ xnbctl --version
xnbctl <version>
xen-netback: not loaded
[exit 0]
$ xnbctl -V
xnbctl <version>
xen-netback: the in-kernel driver, without worker groups
[exit 0]
$ xnbctl version
xnbctl <version>
xen-netback 9.8.7-test
[exit 0]
$ xnbctl -j version
{"schema": 2, "xnbctl_version": "<version>", "driver": "worker-group", "driver_version": "9.8.7-test"}
[exit 0]
$ xnbctl -p --version
{
  "schema": 2,
  "xnbctl_version": "<version>",
  "driver": "worker-group",
  "driver_version": "9.8.7-test"
}
[exit 0]
$ xnbctl version extra
stderr: xnbctl: version takes no argument
stderr: Try 'xnbctl help'.
[exit 1]
EOF
}

# What install-tools installs: the script with XNB_VERSION in it (here
# given, a checkout's own would carry its commit), the completion.
t_version_string() {
	local v
	fx_standard
	for v in 1.0 2 ""; do
		echo "$v" > "$S/module/xen_netback/version"
		xj -j version
		xjq -j status
		python3 -c 'import json, sys
print("status: driver_version", json.dumps(json.load(sys.stdin)["driver_version"]))' \
			< "$R.out" >> "$T"
	done
	expect <<'EOF'
$ xnbctl -j version
{"schema": 2, "xnbctl_version": "<version>", "driver": "worker-group", "driver_version": "1.0"}
[exit 0]
$ xnbctl -j status
(1 lines)
[exit 0]
status: driver_version "1.0"
$ xnbctl -j version
{"schema": 2, "xnbctl_version": "<version>", "driver": "worker-group", "driver_version": "2"}
[exit 0]
$ xnbctl -j status
(1 lines)
[exit 0]
status: driver_version "2"
$ xnbctl -j version
{"schema": 2, "xnbctl_version": "<version>", "driver": "worker-group", "driver_version": null}
[exit 0]
$ xnbctl -j status
(1 lines)
[exit 0]
status: driver_version null
EOF
}

t_version_installed() {
	local d=$R/inst pinhook=/etc/xen/scripts/vif-post.d/xen-netback-wg-pins.hook
	make -s --no-print-directory -C "$top" install-tools DESTDIR="$d" XNB_VERSION=1.2.3-inst > "$R.make" 2>&1 ||
		cat "$R.make" >> "$T"
	XNBCTL_TEST=1 XNBCTL_ROOT=$R "$d/usr/sbin/xnbctl" --version >> "$T" 2>&1
	[ -f "$d/usr/share/bash-completion/completions/xnbctl" ] &&
		echo "completion installed" >> "$T"
	stat -c 'hook: mode %a' "$d$pinhook" >> "$T"
	grep -o '[^[:space:]]*/xnbctl' "$d$pinhook" >> "$T"
	make -s --no-print-directory -C "$top" uninstall-tools DESTDIR="$d" >> "$T" 2>&1
	find "$d" -type f >> "$T"
	make -s --no-print-directory -C "$top" install-tools DESTDIR="$d" SBINDIR=/usr/local/sbin >> "$T" 2>&1
	grep -o '[^[:space:]]*/xnbctl' "$d$pinhook" >> "$T"
	make -s --no-print-directory -C "$top" uninstall-tools DESTDIR="$d" SBINDIR=/usr/local/sbin >> "$T" 2>&1
	find "$d" -type f >> "$T"
	expect <<'EOF'
xnbctl 1.2.3-inst
xen-netback: not loaded
completion installed
hook: mode 755
/usr/sbin/xnbctl
/usr/sbin/xnbctl
/usr/local/sbin/xnbctl
/usr/local/sbin/xnbctl
EOF
}

t_group_show() {
	fx_standard
	echo 0 > "$S/module/xen_netback/groups/1/cpu"
	x group show
	x group show 1
	x group
	x group show 2
	x group show x
	x group show 0 1
	x group frob
	expect <<'EOF'
$ xnbctl group show
GROUP  CPU  MODE     BUSY%  QUEUES  OPS/HYPERCALL  MAX-PASS-US  MAX-SLOTS
    0    0  light       12       3           12.5          850        212
    1    0* thread      87       2           30.3         1203        290
* group 1: home CPU 1 is offline, on CPU 0 until it returns
[exit 0]
$ xnbctl group show 1
GROUP  CPU  MODE     BUSY%  QUEUES  OPS/HYPERCALL  MAX-PASS-US  MAX-SLOTS
    1    0* thread      87       2           30.3         1203        290
* group 1: home CPU 1 is offline, on CPU 0 until it returns
[exit 0]
$ xnbctl group
GROUP  CPU  MODE     BUSY%  QUEUES  OPS/HYPERCALL  MAX-PASS-US  MAX-SLOTS
    0    0  light       12       3           12.5          850        212
    1    0* thread      87       2           30.3         1203        290
* group 1: home CPU 1 is offline, on CPU 0 until it returns
[exit 0]
$ xnbctl group show 2
stderr: xnbctl: no group 2: the driver has 2 groups
[exit 4]
$ xnbctl group show x
stderr: xnbctl: GROUP must be a number, not 'x'
stderr: Try 'xnbctl help'.
[exit 1]
$ xnbctl group show 0 1
stderr: xnbctl: group show: [GROUP]
stderr: Try 'xnbctl help'.
[exit 1]
$ xnbctl group frob
stderr: xnbctl: group: unknown command 'frob'
stderr: Try 'xnbctl help'.
[exit 1]
EOF
}

# Domains 1, 2 and 10; devids past 99999, which once shared a slot
# with the next domain's devid 0.
t_vif_order() {
	fx_driver 1
	fx_group 0 0 light 5 0 0 0 0 0 0 0 0
	fx_domain 1 a
	fx_domain 2 b
	fx_domain 10 c
	fx_vif 1 100000 0
	fx_vif 2 0 0
	fx_vif 10 0 0
	fx_vif 2 5 0
	fx_vif 1 3 0
	x vif show
	expect <<'EOF'
$ xnbctl vif show
VIF          DOMID  DOMAIN  DEVID  PIN  QUEUE:GROUP
vif1.3           1  a           3    -  q0:0
vif1.100000      1  a       100000    -  q0:0
vif2.0           2  b           0    -  q0:0
vif2.5           2  b           5    -  q0:0
vif10.0         10  c           0    -  q0:0
[exit 0]
EOF
}

t_vif_show() {
	local a
	fx_standard
	for a in "" vif2.1 g3-net vif3.0 web-01 2 "web-01 1" nosuch "g1 5" "g1 x"; do
		# shellcheck disable=SC2086 # the words of a
		x vif show $a
	done
	x vif
	expect <<'EOF'
$ xnbctl vif show
@vifs
[exit 0]
$ xnbctl vif show vif2.1
VIF     DOMID  DOMAIN  DEVID  PIN  QUEUE:GROUP
vif2.1      2  web-01      1    0  q0:0
[exit 0]
$ xnbctl vif show g3-net
VIF     DOMID  DOMAIN  DEVID  PIN  QUEUE:GROUP
g3-net      3  g3          0    -  q0:1
[exit 0]
$ xnbctl vif show vif3.0
VIF     DOMID  DOMAIN  DEVID  PIN  QUEUE:GROUP
g3-net      3  g3          0    -  q0:1
[exit 0]
$ xnbctl vif show web-01
VIF     DOMID  DOMAIN  DEVID  PIN  QUEUE:GROUP
vif2.0      2  web-01      0    -  q0:0
vif2.1      2  web-01      1    0  q0:0
[exit 0]
$ xnbctl vif show 2
VIF     DOMID  DOMAIN  DEVID  PIN  QUEUE:GROUP
vif2.0      2  web-01      0    -  q0:0
vif2.1      2  web-01      1    0  q0:0
[exit 0]
$ xnbctl vif show web-01 1
VIF     DOMID  DOMAIN  DEVID  PIN  QUEUE:GROUP
vif2.1      2  web-01      1    0  q0:0
[exit 0]
$ xnbctl vif show nosuch
stderr: xnbctl: no vif 'nosuch' (none of the vifs, nor a domain with one)
[exit 4]
$ xnbctl vif show g1 5
stderr: xnbctl: no vif 'g1 5' (none of the vifs, nor a domain with one)
[exit 4]
$ xnbctl vif show g1 x
stderr: xnbctl: DEVID must be a number, not 'x'
stderr: Try 'xnbctl help'.
[exit 1]
$ xnbctl vif
@vifs
[exit 0]
EOF
}

t_param_show() {
	fx_standard
	x param show
	x param
	x param show budget
	expect <<'EOF'
$ xnbctl param show
@params
[exit 0]
$ xnbctl param
@params
[exit 0]
$ xnbctl param show budget
stderr: xnbctl: param show takes no argument
stderr: Try 'xnbctl help'.
[exit 1]
EOF
}

# Each show command: -j compact (compared), -p indented (parsed, one
# compared); a small world keeps them short.
t_show_json() {
	local c
	fx_driver 1
	fx_group 0 0 light 1 0 0 0 0 0 0 0 0
	fx_domain 1 g1
	fx_vif 1 0 0
	for c in "group show" "group show 0" "vif show" "vif show vif1.0" "param show"; do
		# shellcheck disable=SC2086 # the words of c
		xj -j $c
	done
	for c in status "group show" "group show 0" "vif show" "vif show g1" \
		 "param show" version "top -n 2"; do
		# shellcheck disable=SC2086
		xjq -p $c
	done
	xj --pretty vif show g1
	expect <<'EOF'
$ xnbctl -j group show
{"schema": 2, "groups": [{"index": 0, "cpu": 0, "mode": "light", "busy_pct": 0, "queues": 1, "passes": 0, "packets": 0, "batches": 0, "ops": 0, "handoffs": 0, "moves_in": 0, "moves_out": 0, "ops_per_hypercall": null}]}
[exit 0]
$ xnbctl -j group show 0
{"schema": 2, "groups": [{"index": 0, "cpu": 0, "mode": "light", "busy_pct": 0, "queues": 1, "passes": 0, "packets": 0, "batches": 0, "ops": 0, "handoffs": 0, "moves_in": 0, "moves_out": 0, "ops_per_hypercall": null}]}
[exit 0]
$ xnbctl -j vif show
{"schema": 2, "vifs": [{"name": "vif1.0", "domid": 1, "domain": "g1", "devid": 0, "pin": null, "queues": [{"queue": 0, "group": 0}]}]}
[exit 0]
$ xnbctl -j vif show vif1.0
{"schema": 2, "vifs": [{"name": "vif1.0", "domid": 1, "domain": "g1", "devid": 0, "pin": null, "queues": [{"queue": 0, "group": 0}]}]}
[exit 0]
$ xnbctl -j param show
{"schema": 2, "parameters": {"groups": 1, "worker": "kthread", "copy_batch": 256, "rebalance_ms": 1000, "budget": 64, "ctrl_rate": 64, "max_queues": 2, "fatal_skb_slots": 20, "rx_queue_bytes": 524288, "rx_drain_timeout_msecs": 10000, "rx_stall_timeout_msecs": 60000, "separate_tx_rx_irq": true, "hash_cache_size": 64, "provides_xdp_headroom": true}, "runtime": ["groups", "budget", "copy_batch", "rebalance_ms", "ctrl_rate", "max_queues", "separate_tx_rx_irq", "hash_cache_size", "provides_xdp_headroom"]}
[exit 0]
$ xnbctl -p status
(44 lines)
[exit 0]
$ xnbctl -p group show
(20 lines)
[exit 0]
$ xnbctl -p group show 0
(20 lines)
[exit 0]
$ xnbctl -p vif show
(18 lines)
[exit 0]
$ xnbctl -p vif show g1
(18 lines)
[exit 0]
$ xnbctl -p param show
(30 lines)
[exit 0]
$ xnbctl -p version
(6 lines)
[exit 0]
$ xnbctl -p top -n 2
(76 lines)
[exit 0]
$ xnbctl --pretty vif show g1
{
  "schema": 2,
  "vifs": [
    {
      "name": "vif1.0",
      "domid": 1,
      "domain": "g1",
      "devid": 0,
      "pin": null,
      "queues": [
        {
          "queue": 0,
          "group": 0
        }
      ]
    }
  ]
}
[exit 0]
EOF
}

t_no_python() {
	fx_standard
	PYTHON_AS=$R/no-python3 x -j status
	PYTHON_AS=$R/no-python3 x -j top -n 1
	PYTHON_AS=$R/no-python3 x status
	expect <<'EOF'
$ xnbctl -j status
stderr: xnbctl: -j needs python3 (its json module writes the JSON); none found
[exit 7]
$ xnbctl -j top -n 1
stderr: xnbctl: -j needs python3 (its json module writes the JSON); none found
[exit 7]
$ xnbctl status
@status
[exit 0]
EOF
}

t_vif_pin() {
	fx_standard
	x vif pin vif2.1 1
	show_log
	x vif pin g3-net 0
	show_log
	x vif pin vif3.0 1
	show_log
	x vif pin web-01 0 1
	show_log
	x vif pin 1 0 0
	show_log
	x vif unpin vif2.1
	x vif unpin g3-net
	x vif unpin web-01 0
	x vif unpin vif1.0
	show_log
	x vif show
	expect <<'EOF'
$ xnbctl vif pin vif2.1 1
vif2.1 (web-01): pinned to group 1
[exit 0]
log: xenstore-write /local/domain/0/backend/vif/2/1/worker-group 1
$ xnbctl vif pin g3-net 0
vif3.0 (g3): pinned to group 0
[exit 0]
log: xenstore-write /local/domain/0/backend/vif/3/0/worker-group 0
$ xnbctl vif pin vif3.0 1
vif3.0 (g3): pinned to group 1
[exit 0]
log: xenstore-write /local/domain/0/backend/vif/3/0/worker-group 1
$ xnbctl vif pin web-01 0 1
vif2.0 (web-01): pinned to group 1
[exit 0]
log: xenstore-write /local/domain/0/backend/vif/2/0/worker-group 1
$ xnbctl vif pin 1 0 0
vif1.0 (g1): pinned to group 0
[exit 0]
log: xenstore-write /local/domain/0/backend/vif/1/0/worker-group 0
$ xnbctl vif unpin vif2.1
vif2.1 (web-01): unpinned (was group 1)
[exit 0]
$ xnbctl vif unpin g3-net
vif3.0 (g3): unpinned (was group 1)
[exit 0]
$ xnbctl vif unpin web-01 0
vif2.0 (web-01): unpinned (was group 1)
[exit 0]
$ xnbctl vif unpin vif1.0
vif1.0 (g1): unpinned (was group 0)
[exit 0]
log: xenstore-rm /local/domain/0/backend/vif/2/1/worker-group
log: xenstore-rm /local/domain/0/backend/vif/3/0/worker-group
log: xenstore-rm /local/domain/0/backend/vif/2/0/worker-group
log: xenstore-rm /local/domain/0/backend/vif/1/0/worker-group
$ xnbctl vif show
VIF     DOMID  DOMAIN  DEVID  PIN  QUEUE:GROUP
vif1.0      1  g1          0    -  q0:0 q1:1
vif2.0      2  web-01      0    -  q0:0
vif2.1      2  web-01      1    -  q0:0
g3-net      3  g3          0    -  q0:1
[exit 0]
EOF
}

# vif1.0 with the old forms; with xl failing, a vif's name still works
# (the domain shows by id), a domain's does not.
t_pin_vifname() {
	fx_standard
	x pin vif1.0 1
	show_log
	x unpin vif1.0
	show_log
	x pin g3-net 1
	show_log
	touch "$R/xl.fail"
	x pin vif2.1 1
	x vif unpin vif2.1
	x pin web-01 1 1
	show_log
	expect <<'EOF'
$ xnbctl pin vif1.0 1
vif1.0 (g1): pinned to group 1
[exit 0]
log: xenstore-write /local/domain/0/backend/vif/1/0/worker-group 1
$ xnbctl unpin vif1.0
vif1.0 (g1): unpinned (was group 1)
[exit 0]
log: xenstore-rm /local/domain/0/backend/vif/1/0/worker-group
$ xnbctl pin g3-net 1
vif3.0 (g3): pinned to group 1
[exit 0]
log: xenstore-write /local/domain/0/backend/vif/3/0/worker-group 1
$ xnbctl pin vif2.1 1
vif2.1 (domain 2): pinned to group 1
[exit 0]
$ xnbctl vif unpin vif2.1
vif2.1 (domain 2): unpinned (was group 1)
[exit 0]
$ xnbctl pin web-01 1 1
stderr: xnbctl: xl list failed: xl: permission denied opening /dev/xen/privcmd
[exit 7]
log: xenstore-write /local/domain/0/backend/vif/2/1/worker-group 1
log: xenstore-rm /local/domain/0/backend/vif/2/1/worker-group
EOF
}

# A domain alone in the new form; a vif's name with a DEVID; unknown
# names; a vif renamed "g1" (domain 4's) while domain g1 has one vif of
# its own: the old pin cannot tell which is meant; a renamed vif whose
# name is also its own domain's: one vif, no doubt.
t_pin_ambiguous() {
	fx_standard
	fx_domain 4 solo
	NAME=g1 fx_vif 4 0 1
	fx_domain 5 web-05
	NAME=web-05 fx_vif 5 0 0
	x vif pin 2 1
	x vif pin web-01 1
	x vif unpin g3
	x vif pin vif2.1 0 1
	x vif pin vif9.0 1
	x vif pin nosuch 1
	x vif pin vif2.1
	x vif unpin
	x vif unpin vif2.1 0 1
	x pin g1 1
	x unpin g1
	x pin web-05 1
	x vif pin web-05 0 1
	show_log
	expect <<'EOF'
$ xnbctl vif pin 2 1
stderr: xnbctl: '2' is a domain (web-01, id 2), not a vif: give the vif's name or DOMAIN DEVID (its devids: 0 1)
stderr: Try 'xnbctl help'.
[exit 1]
$ xnbctl vif pin web-01 1
stderr: xnbctl: 'web-01' is a domain (web-01, id 2), not a vif: give the vif's name or DOMAIN DEVID (its devids: 0 1)
stderr: Try 'xnbctl help'.
[exit 1]
$ xnbctl vif unpin g3
stderr: xnbctl: 'g3' is a domain (g3, id 3), not a vif: give the vif's name or DOMAIN DEVID (its devids: 0)
stderr: Try 'xnbctl help'.
[exit 1]
$ xnbctl vif pin vif2.1 0 1
stderr: xnbctl: 'vif2.1' is a vif, not a domain: no DEVID after a vif's name
stderr: Try 'xnbctl help'.
[exit 1]
$ xnbctl vif pin vif9.0 1
stderr: xnbctl: no vif 'vif9.0' (no /local/domain/0/backend/vif/9/0)
[exit 4]
$ xnbctl vif pin nosuch 1
stderr: xnbctl: no vif 'nosuch' (no vif of that name, nor a vif<domid>.<devid>)
[exit 4]
$ xnbctl vif pin vif2.1
stderr: xnbctl: vif pin: VIF GROUP
stderr: Try 'xnbctl help'.
[exit 1]
$ xnbctl vif unpin
stderr: xnbctl: vif unpin: VIF
stderr: Try 'xnbctl help'.
[exit 1]
$ xnbctl vif unpin vif2.1 0 1
stderr: xnbctl: vif unpin: VIF
stderr: Try 'xnbctl help'.
[exit 1]
$ xnbctl pin g1 1
stderr: xnbctl: 'g1' names two vifs: vif4.0, and vif1.0 of domain g1; say which
stderr: Try 'xnbctl help'.
[exit 1]
$ xnbctl unpin g1
stderr: xnbctl: 'g1' names two vifs: vif4.0, and vif1.0 of domain g1; say which
stderr: Try 'xnbctl help'.
[exit 1]
$ xnbctl pin web-05 1
vif5.0 (web-05): pinned to group 1
[exit 0]
$ xnbctl vif pin web-05 0 1
vif5.0 (web-05): pinned to group 1
[exit 0]
log: xenstore-write /local/domain/0/backend/vif/5/0/worker-group 1
log: xenstore-write /local/domain/0/backend/vif/5/0/worker-group 1
EOF
}

# Each runtime parameter, in a table: NAME VALUE.
SET_TABLE="groups 3
budget 16
copy_batch 1024
rebalance_ms 0
max_queues 4
separate_tx_rx_irq 0
hash_cache_size 128
provides_xdp_headroom N"
t_set_each() {
	local n v
	fx_standard
	while read -r n v; do
		x set "$n" "$v"
		x param set "$n" "$v"
		cat "$S/module/xen_netback/parameters/$n" >> "$T"
	done <<<"$SET_TABLE"
	x set separate_tx_rx_irq 2
	x set provides_xdp_headroom yes
	x set fatal_skb_slots 30
	expect <<'EOF'
@set_ok 2 set groups 3
@set_ok 3 param set groups 3
3
@set_ok 64 set budget 16
@set_ok 16 param set budget 16
16
@set_ok 256 set copy_batch 1024
@set_ok 1024 param set copy_batch 1024
1024
@set_ok 1000 set rebalance_ms 0
@set_ok 0 param set rebalance_ms 0
0
@set_ok 2 set max_queues 4
@set_ok 4 param set max_queues 4
4
@set_ok Y set separate_tx_rx_irq 0
@set_ok 0 param set separate_tx_rx_irq 0
0
@set_ok 64 set hash_cache_size 128
@set_ok 128 param set hash_cache_size 128
128
@set_ok Y set provides_xdp_headroom N
@set_ok N param set provides_xdp_headroom N
N
$ xnbctl set separate_tx_rx_irq 2
stderr: xnbctl: set: separate_tx_rx_irq is 0 or 1 (Y or N), not '2'
stderr: Try 'xnbctl help'.
[exit 1]
$ xnbctl set provides_xdp_headroom yes
stderr: xnbctl: set: provides_xdp_headroom is 0 or 1 (Y or N), not 'yes'
stderr: Try 'xnbctl help'.
[exit 1]
$ xnbctl set fatal_skb_slots 30
stderr: xnbctl: set: no parameter 'fatal_skb_slots' (groups, budget, copy_batch, rebalance_ms, ctrl_rate, max_queues, separate_tx_rx_irq, hash_cache_size, provides_xdp_headroom)
stderr: Try 'xnbctl help'.
[exit 1]
EOF
}

# The package's file: a line under the commented default, then replaced;
# a hand-written line with two parameters; a duplicate dropped; no file.
t_persist() {
	local c=$R/etc/modprobe.d/xen-netback-wg.conf
	fx_standard
	mkdir -p "${c%/*}"
	cp "$top/debian/modprobe.d/xen-netback-wg.conf" "$c"
	chmod 0640 "$c"
	x set --persist budget 16
	diff "$top/debian/modprobe.d/xen-netback-wg.conf" "$c" | sed 's/^/diff: /' >> "$T"
	x param set max_queues 4 --persist
	x set --persist budget 32
	diff "$top/debian/modprobe.d/xen-netback-wg.conf" "$c" | sed 's/^/diff: /' >> "$T"
	stat -c 'mode %a' "$c" >> "$T"
	printf 'options xen_netback groups=2 budget=8\noptions xen-netback budget=9\n' > "$c"
	x --persist set budget 24
	x set --persist groups 3
	sed 's/^/file: /' "$c" >> "$T"
	rm "$c"
	x set --persist separate_tx_rx_irq 0
	sed 's/^/file: /' "$c" >> "$T"
	stat -c 'mode %a' "$c" >> "$T"
	ls -A "${c%/*}" >> "$T"
	expect <<'EOF'
$ xnbctl set --persist budget 16
budget: 64 -> 16
budget=16 written to /etc/modprobe.d/xen-netback-wg.conf: xen-netback loads with it
[exit 0]
diff: 29a30
diff: > options xen_netback budget=16
$ xnbctl param set max_queues 4 --persist
max_queues: 2 -> 4
max_queues=4 written to /etc/modprobe.d/xen-netback-wg.conf: xen-netback loads with it
[exit 0]
$ xnbctl set --persist budget 32
budget: 16 -> 32
budget=32 written to /etc/modprobe.d/xen-netback-wg.conf: xen-netback loads with it
[exit 0]
diff: 29a30
diff: > options xen_netback budget=32
diff: 36a38
diff: > options xen_netback max_queues=4
mode 640
$ xnbctl --persist set budget 24
budget: 32 -> 24
budget=24 written to /etc/modprobe.d/xen-netback-wg.conf: xen-netback loads with it
[exit 0]
$ xnbctl set --persist groups 3
groups: 2 -> 3
groups=3 written to /etc/modprobe.d/xen-netback-wg.conf: xen-netback loads with it
[exit 0]
file: options xen_netback groups=3 budget=24
$ xnbctl set --persist separate_tx_rx_irq 0
separate_tx_rx_irq: Y -> 0
separate_tx_rx_irq=0 written to /etc/modprobe.d/xen-netback-wg.conf: xen-netback loads with it
[exit 0]
file: # Module options of xen-netback (modprobe.d(5)), written by xnbctl set --persist.
file: options xen_netback separate_tx_rx_irq=0
mode 644
xen-netback-wg.conf
EOF
}

t_persist_errors() {
	local p=$S/module/xen_netback/parameters
	fx_standard
	mkdir -p "$R/etc/modprobe.d"
	rm "$p/budget"
	mkdir "$p/budget"
	x set --persist budget 5000
	rmdir "$p/budget"
	echo 64 > "$p/budget"
	echo 64 > "$p/ctrl_rate"
	[ -e "$R/etc/modprobe.d/xen-netback-wg.conf" ] && echo "written" >> "$T"
	rm -r "$R/etc/modprobe.d"
	x set --persist budget 16
	x status --persist
	x pin --persist g1 1
	expect <<'EOF'
$ xnbctl set --persist budget 5000
stderr: xnbctl: the driver refused budget=5000 (Is a directory; no reason in dmesg)
[exit 5]
$ xnbctl set --persist budget 16
budget: 64 -> 16
stderr: xnbctl: the driver has budget=16 now, but /etc/modprobe.d/xen-netback-wg.conf could not be written: no /etc/modprobe.d
[exit 7]
$ xnbctl status --persist
stderr: xnbctl: --persist: for param set, vif pin and vif unpin only
stderr: Try 'xnbctl help'.
[exit 1]
$ xnbctl pin --persist g1 1
stderr: xnbctl: --persist: for param set, vif pin and vif unpin only
stderr: Try 'xnbctl help'.
[exit 1]
EOF
}

# The pins file (XNBCTL_ROOT/etc/xen-netback-wg/pins) as the cases show it.
# The options file and the pins file as links into /srv/conf (an
# admin's configuration kept in one place): edited there, the links
# stay; a link into a directory that is not there: exit 7, said so.
t_persist_symlink() {
	local e=$R/etc f
	fx_standard
	mkdir -p "$e/modprobe.d" "$e/xen-netback-wg" "$R/srv/conf"
	echo "# kept in /srv/conf" > "$R/srv/conf/xnb.conf"
	echo "# pins kept in /srv/conf" > "$R/srv/conf/pins"
	chmod 0640 "$R/srv/conf/xnb.conf"
	ln -s ../../srv/conf/xnb.conf "$e/modprobe.d/xen-netback-wg.conf"
	ln -s "$R/srv/conf/pins" "$e/xen-netback-wg/pins"
	x set --persist budget 16
	x vif pin --persist vif2.1 1
	for f in modprobe.d/xen-netback-wg.conf xen-netback-wg/pins; do
		[ -L "$e/$f" ] && echo "link: /etc/$f -> $(readlink "$e/$f" | sed "s|$R|ROOT|")" >> "$T"
	done
	stat -c 'mode %a' "$R/srv/conf/xnb.conf" >> "$T"
	sed 's/^/conf: /' "$R/srv/conf/xnb.conf" >> "$T"
	sed 's/^/pins: /' "$R/srv/conf/pins" >> "$T"
	(cd "$R" && ls -A etc/modprobe.d etc/xen-netback-wg srv/conf) | sed '/^$/d; s/^/ls: /' >> "$T"
	ln -sfn ../../srv/none/xnb.conf "$e/modprobe.d/xen-netback-wg.conf"
	ln -sfn ../../srv/none/pins "$e/xen-netback-wg/pins"
	x set --persist budget 32
	x vif pin --persist vif2.1 0
	expect <<'EOF'
$ xnbctl set --persist budget 16
budget: 64 -> 16
budget=16 written to /etc/modprobe.d/xen-netback-wg.conf: xen-netback loads with it
[exit 0]
$ xnbctl vif pin --persist vif2.1 1
vif2.1 (web-01): pinned to group 1
rule 'web-01 1 1' written to /etc/xen-netback-wg/pins: the pin holds when web-01 starts again
[exit 0]
link: /etc/modprobe.d/xen-netback-wg.conf -> ../../srv/conf/xnb.conf
link: /etc/xen-netback-wg/pins -> ROOT/srv/conf/pins
mode 640
conf: # kept in /srv/conf
conf: options xen_netback budget=16
pins: # pins kept in /srv/conf
pins: web-01 1 1
ls: etc/modprobe.d:
ls: xen-netback-wg.conf
ls: etc/xen-netback-wg:
ls: pins
ls: srv/conf:
ls: pins
ls: xnb.conf
$ xnbctl set --persist budget 32
budget: 16 -> 32
stderr: xnbctl: the driver has budget=32 now, but /etc/modprobe.d/xen-netback-wg.conf could not be written: it is a symbolic link to no directory
[exit 7]
$ xnbctl vif pin --persist vif2.1 0
vif2.1 (web-01): pinned to group 0
stderr: xnbctl: /etc/xen-netback-wg/pins could not be written: it is a symbolic link to no directory
[exit 7]
EOF
}

show_pins() {
	local f=$R/etc/xen-netback-wg/pins
	if [ -e "$f" ]; then sed 's/^/pins: /' "$f" >> "$T"; else echo "pins: (none)" >> "$T"; fi
}

# A rule written, written again (unchanged), changed in place, another
# added for a renamed vif; a hand-edited file keeps its comments, the
# comment after the rule it changes, its mode; a second line for the
# vif goes; unpin --persist removes the rule, again: none to remove.
t_pin_persist() {
	local f=$R/etc/xen-netback-wg/pins
	fx_standard
	mkdir -p "$R/etc"
	x vif pin --persist vif2.1 1
	show_pins
	x vif pin vif2.1 1 --persist
	x vif pin --persist web-01 1 0
	x vif pin --persist g3-net 1
	show_pins
	show_log
	stat -c 'mode %a' "${f%/*}" "$f" >> "$T"
	printf '# by hand\nweb-01 0 1   # the web vif\n\ng1 0 0\nweb-01 0 0\n' > "$f"
	chmod 0600 "$f"
	x vif pin --persist vif2.0 0
	show_pins
	stat -c 'mode %a' "$f" >> "$T"
	x vif unpin --persist vif2.0
	x vif unpin --persist vif2.0
	show_pins
	show_log
	ls -A "${f%/*}" >> "$T"
	expect <<'EOF'
$ xnbctl vif pin --persist vif2.1 1
vif2.1 (web-01): pinned to group 1
rule 'web-01 1 1' written to /etc/xen-netback-wg/pins: the pin holds when web-01 starts again
[exit 0]
pins: # Pins that outlast a restart of the domain (xnbctl(8)): DOMAIN DEVID GROUP
pins: web-01 1 1
$ xnbctl vif pin vif2.1 1 --persist
vif2.1 (web-01): pinned to group 1
rule 'web-01 1 1' already in /etc/xen-netback-wg/pins
[exit 0]
$ xnbctl vif pin --persist web-01 1 0
vif2.1 (web-01): pinned to group 0
rule 'web-01 1 0' written to /etc/xen-netback-wg/pins: the pin holds when web-01 starts again
[exit 0]
$ xnbctl vif pin --persist g3-net 1
vif3.0 (g3): pinned to group 1
rule 'g3 0 1' written to /etc/xen-netback-wg/pins: the pin holds when g3 starts again
[exit 0]
pins: # Pins that outlast a restart of the domain (xnbctl(8)): DOMAIN DEVID GROUP
pins: web-01 1 0
pins: g3 0 1
log: xenstore-write /local/domain/0/backend/vif/2/1/worker-group 1
log: xenstore-write /local/domain/0/backend/vif/2/1/worker-group 1
log: xenstore-write /local/domain/0/backend/vif/2/1/worker-group 0
log: xenstore-write /local/domain/0/backend/vif/3/0/worker-group 1
mode 755
mode 644
$ xnbctl vif pin --persist vif2.0 0
vif2.0 (web-01): pinned to group 0
rule 'web-01 0 0' written to /etc/xen-netback-wg/pins: the pin holds when web-01 starts again
[exit 0]
pins: # by hand
pins: web-01 0 0  # the web vif
pins: 
pins: g1 0 0
mode 600
$ xnbctl vif unpin --persist vif2.0
vif2.0 (web-01): unpinned (was group 0)
rule 'web-01 0 0' removed from /etc/xen-netback-wg/pins
[exit 0]
$ xnbctl vif unpin --persist vif2.0
vif2.0 (web-01): not pinned
no rule for web-01 vif 0 in /etc/xen-netback-wg/pins
[exit 0]
pins: # by hand
pins: 
pins: g1 0 0
log: xenstore-write /local/domain/0/backend/vif/2/0/worker-group 0
log: xenstore-rm /local/domain/0/backend/vif/2/0/worker-group
pins
EOF
}

# web-05 is not running: the rule alone, by its name and devid; a
# domain id or a vif name cannot stand for it.
t_pin_persist_domain() {
	fx_standard
	mkdir -p "$R/etc"
	x vif pin --persist web-05 0 1
	x vif pin --persist web-05 0 1
	show_pins
	x vif unpin --persist web-05 0
	x vif unpin --persist web-05 0
	x vif pin --persist 9 0 1
	x vif pin --persist vif9.0 1
	x vif pin --persist web-05 zero 1
	show_pins
	show_log
	expect <<'EOF'
$ xnbctl vif pin --persist web-05 0 1
web-05 is not running: its vif 0 is pinned when it starts
rule 'web-05 0 1' written to /etc/xen-netback-wg/pins: the pin holds when web-05 starts again
[exit 0]
$ xnbctl vif pin --persist web-05 0 1
web-05 is not running: its vif 0 is pinned when it starts
rule 'web-05 0 1' already in /etc/xen-netback-wg/pins
[exit 0]
pins: # Pins that outlast a restart of the domain (xnbctl(8)): DOMAIN DEVID GROUP
pins: web-05 0 1
$ xnbctl vif unpin --persist web-05 0
rule 'web-05 0 1' removed from /etc/xen-netback-wg/pins
[exit 0]
$ xnbctl vif unpin --persist web-05 0
no rule for web-05 vif 0 in /etc/xen-netback-wg/pins
[exit 0]
$ xnbctl vif pin --persist 9 0 1
stderr: xnbctl: no domain '9' (xl list)
[exit 4]
$ xnbctl vif pin --persist vif9.0 1
stderr: xnbctl: no vif 'vif9.0' (no /local/domain/0/backend/vif/9/0)
[exit 4]
$ xnbctl vif pin --persist web-05 zero 1
stderr: xnbctl: DEVID must be a number, not 'zero'
stderr: Try 'xnbctl help'.
[exit 1]
pins: # Pins that outlast a restart of the domain (xnbctl(8)): DOMAIN DEVID GROUP
EOF
}

t_pin_persist_errors() {
	fx_standard
	fx_domain 4 'my vm'
	fx_vif 4 0 0
	x vif pin --persist vif2.1 1
	mkdir -p "$R/etc"
	x vif pin --persist web-05 0 2
	x vif pin --persist vif4.0 1
	rm -r "$R/xs/local/domain/3/name"
	x vif unpin --persist g3-net
	EUID_AS=1000 x vif pin --persist web-05 0 1
	touch "$R/xl.fail"
	x vif pin --persist web-05 0 1
	rm "$R/xl.fail"
	x unpin --persist g1
	show_pins
	show_log
	expect <<'EOF'
$ xnbctl vif pin --persist vif2.1 1
vif2.1 (web-01): pinned to group 1
stderr: xnbctl: /etc/xen-netback-wg/pins could not be written: No such file or directory
[exit 7]
$ xnbctl vif pin --persist web-05 0 2
stderr: xnbctl: no group 2: the driver has 2 groups (0-1); no rule written
[exit 5]
$ xnbctl vif pin --persist vif4.0 1
vif4.0 (my vm): pinned to group 1
stderr: xnbctl: a domain name with a blank or '#' cannot go into /etc/xen-netback-wg/pins: 'my vm'
[exit 5]
$ xnbctl vif unpin --persist g3-net
vif3.0 (g3): not pinned
stderr: xnbctl: domain 3's name could not be read (/local/domain/3/name): /etc/xen-netback-wg/pins is unchanged
[exit 7]
$ xnbctl vif pin --persist web-05 0 1
stderr: xnbctl: pin (writes xenstore) needs root
[exit 6]
$ xnbctl vif pin --persist web-05 0 1
stderr: xnbctl: xl list failed: xl: permission denied opening /dev/xen/privcmd
[exit 7]
$ xnbctl unpin --persist g1
stderr: xnbctl: --persist: for param set, vif pin and vif unpin only
stderr: Try 'xnbctl help'.
[exit 1]
pins: (none)
log: xenstore-write /local/domain/0/backend/vif/2/1/worker-group 1
log: xenstore-write /local/domain/0/backend/vif/4/0/worker-group 1
EOF
}

# fx_pins LINE...: the pins file, those lines.
fx_pins() {
	mkdir -p "$R/etc/xen-netback-wg"
	printf '%s\n' "$@" > "$R/etc/xen-netback-wg/pins"
}

# A restart: the rules name domains, the vifs are new (web-01 now
# domain 2, its vif 1 unpinned); the last of two rules counts; a renamed
# vif by its netdev's name; no rule, no file: nothing, not a word.
t_pin_apply() {
	fx_standard
	rm -r "$R/xs/local/domain/0/backend/vif/2/1/worker-group"
	fx_pins '# restarts keep these' 'web-01 1 1' 'g3 0 0   # the renamed one' \
		'web-01 0 1' 'web-01 0 0'
	x vif pin-apply vif2.1
	show_log
	x vif pin-apply g3-net
	x vif pin-apply vif2.0
	show_log
	x vif pin-apply vif1.0
	rm "$R/etc/xen-netback-wg/pins"
	x vif pin-apply vif2.1
	show_log
	x vif show
	expect <<'EOF'
$ xnbctl vif pin-apply vif2.1
vif2.1 (web-01): pinned to group 1 by /etc/xen-netback-wg/pins:2
[exit 0]
log: xenstore-write /local/domain/0/backend/vif/2/1/worker-group 1
log: syslog xnbctl: vif2.1 (web-01): pinned to group 1 by /etc/xen-netback-wg/pins:2
$ xnbctl vif pin-apply g3-net
vif3.0 (g3): pinned to group 0 by /etc/xen-netback-wg/pins:3
[exit 0]
$ xnbctl vif pin-apply vif2.0
vif2.0 (web-01): pinned to group 0 by /etc/xen-netback-wg/pins:5
[exit 0]
log: xenstore-write /local/domain/0/backend/vif/3/0/worker-group 0
log: syslog xnbctl: vif3.0 (g3): pinned to group 0 by /etc/xen-netback-wg/pins:3
log: xenstore-write /local/domain/0/backend/vif/2/0/worker-group 0
log: syslog xnbctl: vif2.0 (web-01): pinned to group 0 by /etc/xen-netback-wg/pins:5
$ xnbctl vif pin-apply vif1.0
[exit 0]
$ xnbctl vif pin-apply vif2.1
[exit 0]
$ xnbctl vif show
VIF     DOMID  DOMAIN  DEVID  PIN  QUEUE:GROUP
vif1.0      1  g1          0    -  q0:0 q1:1
vif2.0      2  web-01      0    0  q0:0
vif2.1      2  web-01      1    1  q0:0
g3-net      3  g3          0    0  q0:1
[exit 0]
EOF
}

# Lines that are not rules: said (stderr, syslog) and skipped, the rules
# around them applied, none for the vif still exit 0, a --persist edit
# keeps them; a group past the count, the stock driver (quiet without a
# rule), no such vif, not root, xenstore failing: said, the key
# unwritten.
t_pin_apply_bad() {
	fx_standard
	fx_pins 'web-01' 'g1 0 1' 'web-01 one 1' 'web-01 1 1 1' 'g3 0 12345678901'
	x vif pin-apply vif1.0
	x vif pin-apply vif2.0
	show_log
	x vif pin --persist vif1.0 0
	show_pins
	fx_pins 'g1 0 1' 'g3 0 7'
	x vif pin-apply g3-net
	x vif pin-apply eth0
	EUID_AS=1000 x vif pin-apply vif1.0
	touch "$R/xs.fail"
	x vif pin-apply vif1.0
	rm "$R/xs.fail"
	show_log
	rm -r "$R/sys/module/xen_netback/groups"
	x vif pin-apply vif1.0
	x vif pin-apply vif2.0
	show_log
	expect <<'EOF'
$ xnbctl vif pin-apply vif1.0
vif1.0 (g1): pinned to group 1 by /etc/xen-netback-wg/pins:2
stderr: xnbctl: /etc/xen-netback-wg/pins:1: not DOMAIN DEVID GROUP, ignored: web-01
stderr: xnbctl: /etc/xen-netback-wg/pins:3: not DOMAIN DEVID GROUP, ignored: web-01 one 1
stderr: xnbctl: /etc/xen-netback-wg/pins:4: not DOMAIN DEVID GROUP, ignored: web-01 1 1 1
stderr: xnbctl: /etc/xen-netback-wg/pins:5: not DOMAIN DEVID GROUP, ignored: g3 0 12345678901
[exit 0]
$ xnbctl vif pin-apply vif2.0
stderr: xnbctl: /etc/xen-netback-wg/pins:1: not DOMAIN DEVID GROUP, ignored: web-01
stderr: xnbctl: /etc/xen-netback-wg/pins:3: not DOMAIN DEVID GROUP, ignored: web-01 one 1
stderr: xnbctl: /etc/xen-netback-wg/pins:4: not DOMAIN DEVID GROUP, ignored: web-01 1 1 1
stderr: xnbctl: /etc/xen-netback-wg/pins:5: not DOMAIN DEVID GROUP, ignored: g3 0 12345678901
[exit 0]
log: syslog xnbctl: /etc/xen-netback-wg/pins:1: not DOMAIN DEVID GROUP, ignored: web-01
log: syslog xnbctl: /etc/xen-netback-wg/pins:3: not DOMAIN DEVID GROUP, ignored: web-01 one 1
log: syslog xnbctl: /etc/xen-netback-wg/pins:4: not DOMAIN DEVID GROUP, ignored: web-01 1 1 1
log: syslog xnbctl: /etc/xen-netback-wg/pins:5: not DOMAIN DEVID GROUP, ignored: g3 0 12345678901
log: xenstore-write /local/domain/0/backend/vif/1/0/worker-group 1
log: syslog xnbctl: vif1.0 (g1): pinned to group 1 by /etc/xen-netback-wg/pins:2
log: syslog xnbctl: /etc/xen-netback-wg/pins:1: not DOMAIN DEVID GROUP, ignored: web-01
log: syslog xnbctl: /etc/xen-netback-wg/pins:3: not DOMAIN DEVID GROUP, ignored: web-01 one 1
log: syslog xnbctl: /etc/xen-netback-wg/pins:4: not DOMAIN DEVID GROUP, ignored: web-01 1 1 1
log: syslog xnbctl: /etc/xen-netback-wg/pins:5: not DOMAIN DEVID GROUP, ignored: g3 0 12345678901
$ xnbctl vif pin --persist vif1.0 0
vif1.0 (g1): pinned to group 0
rule 'g1 0 0' written to /etc/xen-netback-wg/pins: the pin holds when g1 starts again
stderr: xnbctl: /etc/xen-netback-wg/pins:1: not DOMAIN DEVID GROUP, ignored: web-01
stderr: xnbctl: /etc/xen-netback-wg/pins:3: not DOMAIN DEVID GROUP, ignored: web-01 one 1
stderr: xnbctl: /etc/xen-netback-wg/pins:4: not DOMAIN DEVID GROUP, ignored: web-01 1 1 1
stderr: xnbctl: /etc/xen-netback-wg/pins:5: not DOMAIN DEVID GROUP, ignored: g3 0 12345678901
[exit 0]
pins: web-01
pins: g1 0 0
pins: web-01 one 1
pins: web-01 1 1 1
pins: g3 0 12345678901
$ xnbctl vif pin-apply g3-net
stderr: xnbctl: vif3.0 (g3): /etc/xen-netback-wg/pins:2 names group 7, but the driver has 2 groups (0-1): not pinned
[exit 5]
$ xnbctl vif pin-apply eth0
stderr: xnbctl: vif pin-apply: no vif 'eth0' (no vif of that name, nor a vif<domid>.<devid>)
[exit 4]
$ xnbctl vif pin-apply vif1.0
stderr: xnbctl: vif pin-apply (writes xenstore) needs root
[exit 6]
$ xnbctl vif pin-apply vif1.0
stderr: xnbctl: xenstore-write /local/domain/0/backend/vif/1/0/worker-group failed: xenstore-write: could not write path /local/domain/0/backend/vif/1/0/worker-group
[exit 7]
log: xenstore-write /local/domain/0/backend/vif/1/0/worker-group 0
log: syslog xnbctl: vif3.0 (g3): /etc/xen-netback-wg/pins:2 names group 7, but the driver has 2 groups (0-1): not pinned
log: syslog xnbctl: vif pin-apply: no vif 'eth0' (no vif of that name, nor a vif<domid>.<devid>)
log: syslog xnbctl: vif pin-apply (writes xenstore) needs root
log: syslog xnbctl: xenstore-write /local/domain/0/backend/vif/1/0/worker-group failed: xenstore-write: could not write path /local/domain/0/backend/vif/1/0/worker-group
$ xnbctl vif pin-apply vif1.0
stderr: xnbctl: this is the in-kernel xen-netback, not the worker-group driver (no /sys/module/xen_netback/groups)
[exit 3]
$ xnbctl vif pin-apply vif2.0
[exit 0]
log: syslog xnbctl: this is the in-kernel xen-netback, not the worker-group driver (no /sys/module/xen_netback/groups)
EOF
}

# comp WORDS...: complete the last word (empty: a new one) of
# "xnbctl WORDS..." with the completion file sourced, as bash would.
comp() {
	(
		# shellcheck source=../../tools/xnbctl/xnbctl.bash-completion
		. "$top/tools/xnbctl/xnbctl.bash-completion"
		export XNBCTL_TEST=1 XNBCTL_ROOT=$R
		COMP_WORDS=(xnbctl "$@")
		COMP_CWORD=$#
		_xnbctl
		echo "xnbctl $* <tab>: ${COMPREPLY[*]}"
	) >> "$T"
}
t_completion() {
	fx_standard
	comp ""
	comp g
	comp group ""
	comp group show ""
	comp vif ""
	comp vif pin ""
	comp vif pin vif2.1 ""
	comp -j vif show v
	comp pin ""
	comp param set ""
	comp set b
	comp top -d 2 -
	comp param set budget 16 --p
	comp vif pin vif2.1 1 --p
	comp vif pin-apply ""
	expect <<'EOF'
xnbctl  <tab>: status top group vif param version help
xnbctl g <tab>: group
xnbctl group  <tab>: show reset-max help
xnbctl group show  <tab>: 0 1
xnbctl vif  <tab>: show pin unpin pin-apply help
xnbctl vif pin  <tab>: g3-net vif1.0 vif2.0 vif2.1
xnbctl vif pin vif2.1  <tab>: 0 1
xnbctl -j vif show v <tab>: vif1.0 vif2.0 vif2.1
xnbctl pin  <tab>: g3-net vif1.0 vif2.0 vif2.1
xnbctl param set  <tab>: groups budget copy_batch rebalance_ms ctrl_rate max_queues separate_tx_rx_irq hash_cache_size provides_xdp_headroom
xnbctl set b <tab>: budget
xnbctl top -d 2 - <tab>: -j --json -p --pretty -V --version -h --help -d -n
xnbctl param set budget 16 --p <tab>: --pretty --persist
xnbctl vif pin vif2.1 1 --p <tab>: --pretty --persist
xnbctl vif pin-apply  <tab>: g3-net vif1.0 vif2.0 vif2.1
EOF
}

# --- main -------------------------------------------------------------------

golden_main "$work" "$@"
