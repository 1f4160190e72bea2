# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# multiqueue: a guest with 2 vcpus gets 2 queues; with 2 groups they are
# served by different groups, and traffic on several flows passes.
. /lab/xnb.sh
[ "$NETBACK" = ours ] && lab_load_backend "groups=2 $XNB_PARAMS"
LAB_GUEST_VCPUS=2 lab_guest_start 1
vif=$(lab_vif_name 1)
ls /sys/class/net/$vif/queues
lab_assert "$vif has tx queue 1" test -d /sys/class/net/$vif/queues/tx-1
lab_assert "$vif has no tx queue 2" test ! -d /sys/class/net/$vif/queues/tx-2
ip=$(lab_guest_ip 1)
out=$(timeout 40 iperf3 -c "$ip" -P 4 -t 3 -f m 2>&1) || { echo "$out"; lab_fail "iperf3 -P 4 to $ip"; }
echo "$out" | tail -4
out=$(timeout 40 iperf3 -c "$ip" -R -P 4 -t 3 -f m 2>&1) || { echo "$out"; lab_fail "iperf3 -R -P 4 from $ip"; }
echo "$out" | tail -4
if [ "$NETBACK" = ours ]; then
	xnb_groups_file
	g0=$(xnb_group_of $vif-q0) || lab_fail "$vif-q0 in no group"
	g1=$(xnb_group_of $vif-q1) || lab_fail "$vif-q1 in no group"
	lab_assert "queues of $vif spread over groups ($g0, $g1)" test "$g0" != "$g1"
	lab_assert "2 queues in ethtool" test "$(xnb_ethtool $vif queues)" -eq 2
	lab_destroy_all
	lab_load_backend
fi
