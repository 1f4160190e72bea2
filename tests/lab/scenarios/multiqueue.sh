# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# multiqueue: a guest with 2 vcpus gets 2 queues; with 2 groups they are
# served by different groups, and traffic on several flows passes.  With
# ours, then both pinned to one group at budget=8, where only one of them
# gets a turn per pass: every stream still moves data both ways, and no
# queue is left waiting once the traffic stops.
. /lab/xnb.sh
[ "$NETBACK" = ours ] && lab_load_backend "groups=2 $XNB_PARAMS"
LAB_GUEST_VCPUS=2 lab_guest_start 1
vif=$(lab_vif_name 1)
ls /sys/class/net/$vif/queues
lab_assert "$vif has tx queue 1" test -d /sys/class/net/$vif/queues/tx-1
lab_assert "$vif has no tx queue 2" test ! -d /sys/class/net/$vif/queues/tx-2
ip=$(lab_guest_ip 1)
out=$(lab_iperf_out 40 "$ip" -P 4 -t 3) || { echo "$out"; lab_fail "iperf3 -P 4 to $ip"; }
echo "$out" | tail -4
out=$(lab_iperf_out 40 "$ip" -R -P 4 -t 3) || { echo "$out"; lab_fail "iperf3 -R -P 4 from $ip"; }
echo "$out" | tail -4
if [ "$NETBACK" = ours ]; then
	xnb_groups_file
	g0=$(xnb_group_of $vif-q0) || lab_fail "$vif-q0 in no group"
	g1=$(xnb_group_of $vif-q1) || lab_fail "$vif-q1 in no group"
	lab_assert "queues of $vif spread over groups ($g0, $g1)" test "$g0" != "$g1"
	lab_assert "2 queues in ethtool" test "$(xnb_ethtool $vif queues)" -eq 2

	# The budget caps a vif's turns in a pass: at budget=8 (the floor)
	# one of its two queues gets a turn per pass when both are busy in
	# one group, the other waits at the head for the next pass.  Both
	# pinned to group 0: every stream moves data both ways, and once
	# the traffic stops no queue is left waiting (queued, channels
	# masked, nothing to kick it).
	xenstore-write "$(lab_backend_path 1)/worker-group" 0
	lab_assert "$vif-q0 pinned to group 0" lab_wait 10 xnb_in_group "$vif-q0" 0
	lab_assert "$vif-q1 pinned to group 0" lab_wait 10 xnb_in_group "$vif-q1" 0
	echo 8 > /sys/module/xen_netback/parameters/budget || lab_fail "budget=8 refused"
	for dir in "" -R; do
		out=$(lab_iperf_out 40 "$ip" $dir -P 8 -t 3) ||
			{ echo "$out"; lab_fail "iperf3 $dir -P 8 to $ip at budget=8"; }
		echo "$out" | grep SUM | tail -2
		# Streams whose receiver got nothing ("0.00 MBytes").
		idle=$(echo "$out" | awk '/receiver/ && !/SUM/ {
			for (i = 2; i <= NF; i++) if ($i ~ /Bytes$/) b = $(i - 1)
			n++; if (b + 0 == 0) z++ }
			END { print n + 0, z + 0 }')
		echo "budget=8 $dir: streams, idle ones: $idle"
		lab_assert "budget=8 $dir: 8 streams reported" test "${idle% *}" = 8
		lab_assert "budget=8 $dir: every stream moved data" test "${idle#* }" = 0
	done
	no_waiting() { ! xnb_groups_file | grep -qE "^  $vif-q[0-9]+ queued"; }
	lab_wait 10 no_waiting || { xnb_groups_file; lab_fail "a queue of $vif still waits for its turn"; }
	lab_destroy_all
	lab_load_backend
fi
