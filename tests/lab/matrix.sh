# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Body of the matrix-<groups>-<worker> scenarios: with the backend loaded
# as groups=$1 worker=$2, two guests ping and pass TCP both ways (and to
# each other); the backend runs one kthread per group serving a queue
# (group 0's from the load on, none with tasklets; the two guests' queues
# go to two groups) and every queue is served by exactly one group.
. /lab/xnb.sh
xnb_ours_only
g=$1 w=$2
lab_load_backend "groups=$g worker=$w"
want=1; [ "$w" = tasklet ] && want=0
lab_assert "$want worker thread(s) at load for groups=$g worker=$w" \
	test "$(xnb_threads)" -eq $want
lab_guest_create 1
lab_guest_create 2
lab_guest_wait 1
lab_guest_wait 2
want=$g; [ "$w" = tasklet ] && want=0
lab_assert "$want worker threads with 2 guests for groups=$g worker=$w" \
	test "$(xnb_threads)" -eq $want
for n in 1 2; do
	read -r tx rx <<< "$(xnb_traffic $n)"
	echo "XNB-METRIC matrix groups=$g worker=$w g$n guest_to_dom0_gbps=$tx dom0_to_guest_gbps=$rx"
done
out=$(lab_guest_exec 1 "ping -c 2 -W 2 $(lab_guest_ip 2)") ||
	{ echo "$out"; lab_fail "g1 cannot ping g2"; }
xnb_groups_file
for n in 1 2; do
	q=$(lab_vif_name $n)-q0
	lab_assert "$q served by one group" \
		test "$(xnb_groups_file | grep -cE "^  $q( |$)")" -eq 1
done
lab_destroy_all
lab_unload_backend
