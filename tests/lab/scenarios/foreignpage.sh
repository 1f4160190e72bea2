# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# foreignpage: dom0 sends a guest a page that is not dom0's own.  g1 grants
# dom0 a page holding a known pattern (gntalloc); dom0 maps it (gntdev)
# and sends it 64 times over TCP to g1 with MSG_ZEROCOPY, so the skbs the
# backend's guest RX path copies from carry a foreign page (its grant
# copy must name the granting domain and gref, not a dom0 frame).  g1
# must receive every byte, intact.
#
# Needs the hostile program: LAB_EXTRA_GUEST_DIR from `make hostile-guest`
# (the guests get it and load xen-gntalloc; dom0 takes it from the same
# archive).
PAGES=64
x=/lab/guest-extra.cpio.gz
[ -r "$x" ] || lab_skip "needs LAB_EXTRA_GUEST_DIR=build/hostile/guest (make hostile-guest)"
mkdir -p /run/xh
(cd /run/xh && zcat "$x" | busybox cpio -i -d 2>/dev/null)
[ -x /run/xh/bin/hostile ] || lab_skip "no bin/hostile in $x"
modprobe xen-gntdev 2>/dev/null
[ -e /dev/xen/gntdev ] || lab_fail "no /dev/xen/gntdev in dom0"

lab_guest_start 1
ip=$(lab_guest_ip 1) d=$(lab_domid 1) vif=$(lab_vif_name 1)
out=$(lab_guest_exec 1 "hostile --grant-page 600" 60) ||
	lab_fail "g1 cannot grant a page: $out"
gref=$(xenstore-read "/local/domain/$d/data/foreign-gref") ||
	lab_fail "no data/foreign-gref from g1: $out"
lab_log "g1 granted gref $gref"
out=$(lab_guest_exec 1 "(sleep 300 | nc -l -p 5555 > /run/got 2>/dev/null) < /dev/null > /dev/null 2>&1 & sleep 1; echo listening" 30) ||
	lab_fail "g1 cannot listen: $out"

t0=$(lab_vif_bytes "$vif" tx)
e0=$(cat "/sys/class/net/$vif/statistics/tx_errors" "/sys/class/net/$vif/statistics/tx_dropped" | tr '\n' ' ')
rc=0
res=$(timeout 90 /run/xh/bin/hostile --foreign-send "$d" "$gref" "$ip" 5555 $PAGES 2>&1) || rc=$?
lab_log "dom0 sender (rc $rc): $(echo "$res" | tr '\n' ' ')"
[ "$rc" = 3 ] && lab_log "the stack copied instead of sending the mapped page: no foreign page reached $vif"

want=$((PAGES * 4096))
exp=$(yes XNB-FOREIGN-PAG | head -c $want | md5sum | cut -d' ' -f1)
got=$(lab_guest_exec 1 "i=0; while [ \$i -lt 30 ] && [ \$(wc -c < /run/got) -lt $want ]; do sleep 1; i=\$((i + 1)); done; echo \$(wc -c < /run/got) \$(md5sum < /run/got)" 60)
# shellcheck disable=SC2086
set -- $got
t1=$(lab_vif_bytes "$vif" tx)
e1=$(cat "/sys/class/net/$vif/statistics/tx_errors" "/sys/class/net/$vif/statistics/tx_dropped" | tr '\n' ' ')
lab_log "g1 received $1 of $want bytes, md5 ${2:-?} (want $exp); $vif tx +$((t1 - t0)) bytes, tx_errors/tx_dropped $e0-> $e1"
ethtool -S "$vif" 2>/dev/null | grep -v ': 0$' | tr '\n' ' ' >&2; echo >&2
echo "XNB-METRIC foreignpage pages=$PAGES received=$1 sender_rc=$rc vif_tx_bytes=$((t1 - t0))"
lab_assert "g1 received all $want bytes (got ${1:-0}; dom0 sender rc $rc, 124: stalled)" test "${1:-0}" -eq "$want"
lab_assert "g1 received the granted page's bytes intact" test "$2" = "$exp"
[ "$rc" = 0 ] || [ "$rc" = 3 ] || lab_fail "dom0 sender failed (rc $rc): $res"
[ "$rc" = 3 ] && lab_skip "zerocopy fell back to copying: the foreign-page path was not exercised"
lab_destroy_all
