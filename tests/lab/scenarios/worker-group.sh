# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# worker-group: writing the key on the vif's backend node moves its queues
# to that group live (traffic keeps flowing); an invalid value is ignored
# with a log line.
. /lab/xnb.sh
xnb_ours_only
lab_load_backend "groups=2 $XNB_PARAMS"
lab_guest_start 1
vif=$(lab_vif_name 1)
be=$(lab_backend_path 1)
from=$(xnb_group_of $vif-q0) || lab_fail "$vif-q0 in no group"
to=$((1 - from))
iperf3 -c "$(lab_guest_ip 1)" -t 8 >/run/wg-iperf.log 2>&1 &
sleep 2
xenstore-write "$be/worker-group" $to
lab_assert "$vif-q0 moved to group $to" lab_wait 10 xnb_in_group $vif-q0 $to
wait
cat /run/wg-iperf.log | tail -3
grep -q receiver /run/wg-iperf.log || lab_fail "iperf across the move failed"
xnb_groups_file
xnb_traffic 1 >/dev/null
xenstore-write "$be/worker-group" 7
lab_assert "invalid value logged" lab_wait 10 sh -c "dmesg | grep -q 'ignoring invalid worker-group'"
lab_assert "$vif-q0 stays in group $to" xnb_in_group $vif-q0 $to
xnb_traffic 1 >/dev/null
lab_destroy_all
lab_load_backend
