# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# xnbctl: the admin tool (tools/xnbctl/xnbctl, /lab/xnbctl in dom0)
# against the driver and a guest.  status names the driver's version
# (the one sysfs shows) and lists both groups, with their longest pass
# and most slots per pass, and g1's vif with the group of its queue, the
# one debugfs names; -j parses (where dom0's python3 has its library;
# else -j must exit 7) and has the versions, every group's home_cpu and
# max_pass_*, and the vif's object; group show, vif show VIF and param
# show -j and -p parse too.  pin by domain and by vif name (vif pin)
# moves the queue live and the driver follows, unpin removes the key, an
# unknown domain exits 4, a group past the count 5, a bare domain in vif
# pin 1; set budget is taken, budget=5000 refused with the driver's
# reason and exit 5; reset-max resets every group, or one, and a group
# past the count exits 4; top -n 2 prints two frames with the guest's
# packets and bytes and the vif's group (after which status shows the
# pings' passes in the queue's group's maxima), -j one object a frame.
# A pin that outlasts a restart: vif pin --persist writes g1's rule to
# /etc/xen-netback-wg/pins; with the package's vif-post.d hook in place
# (xnbctl's path made /lab/xnbctl), g1 destroyed and started again (a
# new domid) has the key on its new backend node and its queue in that
# group, which vif show says; vif unpin --persist removes the rule, and
# vif pin-apply then does nothing, silently.  (The lab's dom0 runs no
# udev: the hook, which vif-bridge runs, is what applies the rules.)
# About two guest starts and 30 s under TCG.  (The CPU column's mark for a
# group away from its offline home CPU: scenario cpuhp.)
. /lab/xnb.sh
xnb_ours_only
X=/lab/xnbctl
P=/sys/module/xen_netback/parameters
lab_load_backend "groups=2 $XNB_PARAMS"
lab_guest_start 1
vif=$(lab_vif_name 1)
dom=$(lab_domid 1)
be=$(lab_backend_path 1)
ip=$(lab_guest_ip 1)
re=${vif//./\\.}

# x STATUS ARGS...: run xnbctl, show what it printed (in $out, stderr
# too), fail unless it exits STATUS.
x() {
	local want=$1 rc=0
	shift
	out=$("$X" "$@" 2>&1) || rc=$?
	echo "\$ xnbctl $*"
	echo "$out"
	[ "$rc" = "$want" ] || lab_fail "xnbctl $*: exit $rc, not $want"
}
# json_ok [--json-lines]: $out parses as JSON.
json_ok() {
	python3 -m json.tool "$@" <<<"$out" >/dev/null
}
# jtrue EXPR: the Python expression EXPR is true of $out's document d.
jtrue() {
	python3 -c 'import json, sys; d = json.loads(sys.argv[2]); sys.exit(not eval(sys.argv[1]))' \
		"$1" "$out"
}
JSON=1
python3 -c 'import json' 2>/dev/null || JSON=0
[ $JSON = 1 ] || lab_log "no python3 library in dom0: -j must exit 7"
# vif_row GROUP PIN: status's row of the vif: g1, devid 0, that pin,
# queue 0 in GROUP (one queue: the guest has one vcpu).
vif_row() {
	"$X" status | grep -Eq "^$re +$dom +g1 +0 +$2 +q0:$1\$"
}

from=$(xnb_group_of "$vif-q0") || lab_fail "$vif-q0 in no group"
to=$((1 - from))
x 0 status
lab_assert "status: the driver's version" \
	grep -qxF "driver: xen-netback $(cat /sys/module/xen_netback/version)" <<<"$out"
lab_assert "status: 2 groups" grep -q '^worker groups: 2 ' <<<"$out"
lab_assert "status: the maxima's columns" grep -q ' MAX-PASS-US  MAX-SLOTS$' <<<"$out"
lab_assert "status: a row for groups 0 and 1, maxima included" test "$(grep -Ec \
	'^ +[01] +[0-9]+\*? +(light|thread|softirq) +[0-9]+ +[0-9]+ +([0-9]+\.[0-9]|-) +[0-9]+ +[0-9]+$' \
	<<<"$out")" = 2
lab_assert "status: $vif of g1 ($dom), unpinned, q0 in group $from as in debugfs" \
	grep -Eq "^$re +$dom +g1 +0 +- +q0:$from\$" <<<"$out"
x 0 version
lab_assert "version: the driver's, as sysfs" \
	grep -qxF "xen-netback $(cat /sys/module/xen_netback/version)" <<<"$out"
if [ $JSON = 1 ]; then
	x 0 status --json
	lab_assert "status --json parses" json_ok
	lab_assert "status -j: schema 2, the driver's version" \
		jtrue "d['schema'] == 2 and d['driver_version'] == '$(cat /sys/module/xen_netback/version)'"
	lab_assert "status -j: home_cpu, max_pass_us, max_pass_slots of each group" \
		jtrue "len(d['groups']) == 2 and all(isinstance(g.get(k), int) for g in d['groups'] for k in ('home_cpu', 'max_pass_us', 'max_pass_slots'))"
	lab_assert "status -j: $vif's object" grep -qF \
		"{\"name\": \"$vif\", \"domid\": $dom, \"domain\": \"g1\", \"devid\": 0, \"pin\": null, \"queues\": [{\"queue\": 0, \"group\": $from}]}" \
		<<<"$out"
	for c in "group show" "vif show $vif" "param show" version; do
		# shellcheck disable=SC2086 # the words of c
		x 0 -j $c
		lab_assert "-j $c parses" json_ok
		# shellcheck disable=SC2086
		x 0 -p $c
		lab_assert "-p $c parses" json_ok
	done
	x 0 -j vif show "$vif"
	lab_assert "vif show -j $vif: that vif alone, queue 0 in group $from" \
		jtrue "[(v['name'], v['queues'][0]['group']) for v in d['vifs']] == [('$vif', $from)]"
	x 0 -j param show
	lab_assert "param show -j: budget 64, runtime" \
		jtrue "d['parameters']['budget'] == 64 and 'budget' in d['runtime']"
else
	x 7 status --json
fi

# pin: the key as the toolstack writes it; the driver moves the queue.
x 0 pin g1 "$to"
lab_assert "worker-group key is $to" test "$(xenstore-read "$be/worker-group")" = "$to"
lab_assert "$vif-q0 moved to group $to (debugfs)" lab_wait 10 xnb_in_group "$vif-q0" "$to"
lab_assert "status: pinned to $to, q0 in group $to" vif_row "$to" "$to"
lab_assert "ping $ip after the move" lab_ping "$ip" 2
x 0 pin "$dom" 0 "$from"
lab_assert "$vif-q0 back in group $from" lab_wait 10 xnb_in_group "$vif-q0" "$from"
x 5 pin g1 2
x 4 pin no-such-guest 0
x 4 pin g1 7 0
lab_assert "the key still says $from" test "$(xenstore-read "$be/worker-group")" = "$from"
x 0 unpin g1
lab_assert "worker-group key removed" sh -c "! xenstore-read $be/worker-group 2>/dev/null"
lab_assert "status: unpinned, q0 stays in group $from" vif_row "$from" -

# vif pin by the vif's name, then back; a bare domain is refused there.
x 0 vif pin "$vif" "$to"
lab_assert "vif pin $vif: worker-group key is $to" \
	test "$(xenstore-read "$be/worker-group")" = "$to"
lab_assert "$vif-q0 moved to group $to (debugfs)" lab_wait 10 xnb_in_group "$vif-q0" "$to"
lab_assert "ping $ip after the move" lab_ping "$ip" 2
x 0 vif pin g1 0 "$from"
lab_assert "$vif-q0 back in group $from" lab_wait 10 xnb_in_group "$vif-q0" "$from"
x 1 vif pin g1 "$to"
lab_assert "a bare domain: said why" grep -q "'g1' is a domain" <<<"$out"
x 0 vif unpin "$vif"
lab_assert "vif unpin: key removed" sh -c "! xenstore-read $be/worker-group 2>/dev/null"

# set: taken and read back; out of range refused with the driver's reason.
x 0 set budget 32
lab_assert "budget reads 32" test "$(cat $P/budget)" = 32
x 5 set budget 5000
lab_assert "the driver's reason shown" grep -q 'budget=5000 refused: out of range' <<<"$out"
lab_assert "budget still 32" test "$(cat $P/budget)" = 32
x 0 set budget 64

# reset-max: every group, then one; the pings below raise them again.
x 0 reset-max
lab_assert "reset-max: both groups, before and after" test "$(grep -Ec \
	'^group [01]: max_pass_us [0-9]+ -> [0-9]+, max_pass_slots [0-9]+ -> [0-9]+$' \
	<<<"$out")" = 2
x 0 reset-max "$from"
lab_assert "reset-max $from: that group alone" grep -q "^group $from: " <<<"$out"
lab_assert "reset-max $from: one line" test "$(wc -l <<<"$out")" = 1
x 4 reset-max 2

# top: two frames while g1 answers pings, five a second.
ping -i 0.2 -c 25 -W1 "$ip" >/dev/null 2>&1 &
pp=$!
x 0 top -n 2
lab_assert "top: two frames" test "$(grep -c '^xnbctl top: frame [12] of 2,' <<<"$out")" = 2
lab_assert "top: $vif in each" test "$(grep -c "^$re " <<<"$out")" = 2
lab_assert "top: packets and bytes from g1 counted, its group $from" \
	awk -v v="$vif" -v g="$from" '$1 == v && $3 > 0 && $5 > 0 && $NF == g { f = 1 } END { exit !f }' \
	<<<"$out"
lab_assert "top: the hottest group named" \
	test "$(grep -Ec '^hottest group: [01] \([0-9]+% busy, [0-9-]+ pkt/s\)$' <<<"$out")" = 2
if [ $JSON = 1 ]; then
	x 0 top --json -n 1
	lab_assert "top --json: one frame, one line" test "$(wc -l <<<"$out")" = 1
	lab_assert "top --json parses" json_ok --json-lines
	lab_assert "top --json: frame 1 with $vif, its group, bytes" \
		jtrue "d['frame'] == 1 and [(v['name'], v['groups'], v['from_guest_bytes_per_s'] > 0) for v in d['vifs']] == [('$vif', [$from], True)]"
fi
wait $pp
x 0 status
lab_assert "status: group $from's maxima count the pings' passes" \
	awk -v g="$from" '$1 == g && $(NF - 1) > 0 && $NF > 0 { f = 1 } END { exit !f }' \
	<<<"$out"

# A pin that outlasts a restart of g1.
pins=/etc/xen-netback-wg/pins
hook=/etc/xen/scripts/vif-post.d/xen-netback-wg-pins.hook
mkdir -p "${hook%/*}"
sed 's|/usr/sbin/xnbctl|/lab/xnbctl|g' /lab/xen-netback-wg-pins.hook > "$hook"
chmod 0755 "$hook"
x 0 vif pin --persist "$vif" "$to"
lab_assert "the rule 'g1 0 $to' in $pins" grep -qx "g1 0 $to" "$pins"
lab_guest_destroy 1
lab_assert "$vif gone" lab_wait 60 test ! -e "/sys/class/net/$vif"
lab_guest_start 1
old=$dom
vif=$(lab_vif_name 1)
dom=$(lab_domid 1)
be=$(lab_backend_path 1)
re=${vif//./\\.}
lab_log "g1 again: domain $dom (was $old), $vif"
lab_assert "g1 has a new domid" test "$dom" != "$old"
if ! xenstore-read "$be/worker-group" >/dev/null 2>&1; then
	tail -n 20 /var/log/xen/xl-g1.log 2>/dev/null
	lab_fail "no worker-group key on $be after the restart: the hook did not apply the rule"
fi
lab_assert "the hook wrote the rule's group $to to $be/worker-group" \
	test "$(xenstore-read "$be/worker-group")" = "$to"
lab_assert "$vif-q0 in group $to (debugfs)" lab_wait 10 xnb_in_group "$vif-q0" "$to"
x 0 vif show "$vif"
lab_assert "vif show: $vif pinned to $to, q0 in group $to" \
	grep -Eq "^$re +$dom +g1 +0 +$to +q0:$to\$" <<<"$out"
lab_assert "ping $(lab_guest_ip 1) after the restart" lab_ping "$(lab_guest_ip 1)" 2
x 0 vif unpin --persist "$vif"
lab_assert "unpin --persist: the key removed" sh -c "! xenstore-read $be/worker-group 2>/dev/null"
lab_assert "unpin --persist: no rule for g1 left" sh -c "! grep -q '^g1 ' $pins"
x 0 vif pin-apply "$vif"
lab_assert "pin-apply without a rule: silent" test -z "$out"
lab_assert "pin-apply without a rule: no key" sh -c "! xenstore-read $be/worker-group 2>/dev/null"
rm -f "$hook"
rm -rf "${pins%/*}"

lab_destroy_all
lab_load_backend
