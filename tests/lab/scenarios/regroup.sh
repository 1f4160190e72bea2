# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# regroup: the groups parameter written at runtime moves every queue to
# the new groups live.  Two guests (g1 with 2 queues, g2 pinned to group
# 1 with the worker-group key) keep a ping each and a TCP run going while
# groups goes 2 -> 1 -> 3 -> 0 (one per dom0 CPU) -> 2.  After each
# write the groups file shows the new count with every queue in exactly
# one group, a kthread for each group serving a queue (no more than the
# groups), both frontends stay Connected, and g2 is in group 1 whenever
# there is one; with 3 groups g1's queues balance around it.  A debugfs
# reader runs throughout.  Invalid values are refused and change nothing.
. /lab/xnb.sh
xnb_ours_only
lab_load_backend "groups=2 $XNB_PARAMS"
P=/sys/module/xen_netback/parameters
lab_assert "groups is 0644" test "$(stat -c %a $P/groups)" = 644

LAB_GUEST_VCPUS=2 lab_guest_create 1
lab_guest_create 2
lab_guest_wait 1
lab_guest_wait 2
ip1=$(lab_guest_ip 1)
ip2=$(lab_guest_ip 2)
vif1=$(lab_vif_name 1)
vif2=$(lab_vif_name 2)
fe1=$(xenstore-read "$(lab_backend_path 1)/frontend")
fe2=$(xenstore-read "$(lab_backend_path 2)/frontend")
xenstore-write "$(lab_backend_path 2)/worker-group" 1
lab_assert "$vif2-q0 pinned to group 1" lab_wait 10 xnb_in_group "$vif2-q0" 1
queues=$(xnb_groups_file | awk '$1 ~ /^vif[0-9]+\.[0-9]+-q[0-9]+$/ { print $1 }' | sort)
echo "queues:" "$queues"
lab_assert "3 queues (2 of $vif1, 1 of $vif2)" test "$(wc -w <<<"$queues")" = 3
kthread=0
xnb_groups_file | head -1 | grep -q 'worker=kthread' && kthread=1

# regroup_ok N: the groups file shows N groups, each queue in exactly one,
# the per-group queue counts add up, and (kthread) a worker thread for
# each group serving a queue, N at most (a group's thread starts with its
# first queue and stays while its set does).
regroup_ok() {
	local n=$1 f q t used
	f=$(xnb_groups_file)
	grep -q "^worker=[a-z]* groups=$n " <<<"$f" || return 1
	[ "$(grep -c '^group ' <<<"$f")" = "$n" ] || return 1
	for q in $queues; do
		[ "$(awk -v q="$q" '$1 == q' <<<"$f" | wc -l)" = 1 ] || return 1
	done
	[ "$(awk '/^group / { s += $6 } END { print s + 0 }' <<<"$f")" = 3 ] || return 1
	[ $kthread = 1 ] || return 0
	t=$(xnb_threads)
	used=$(awk '/^group / && $6 > 0 { u++ } END { print u + 0 }' <<<"$f")
	[ "$t" -ge "$used" ] && [ "$t" -le "$n" ]
}
fe_connected() {
	[ "$(xenstore-read "$fe1/state")" = 4 ] && [ "$(xenstore-read "$fe2/state")" = 4 ]
}
lab_assert "2 groups at load" regroup_ok 2

lab_ping_start rg "$ip1" "$ip2"
timeout 60 iperf3 -c "$ip1" -t 16 -f m >/run/rg-iperf.log 2>&1 &
ipf=$!
# A debugfs reader all along: it must never meet a half-swapped set.
( while :; do cat /sys/kernel/debug/xen-netback/groups >/dev/null; sleep 0.1; done ) &
rd=$!
sleep 2
cpus=$(nproc)
for n in 1 3 0 2; do
	want=$n
	[ "$n" = 0 ] && want=$cpus
	lab_log "groups=$n"
	echo "$n" >$P/groups || lab_fail "groups=$n refused"
	lab_assert "groups reads $want" test "$(cat $P/groups)" = "$want"
	xnb_groups_file | grep -v '^    '
	lab_assert "groups=$n: $want groups, every queue once" regroup_ok "$want"
	lab_assert "groups=$n: frontends still Connected" fe_connected
	if [ "$want" -gt 1 ]; then
		lab_assert "groups=$n: $vif2-q0 still in group 1" xnb_in_group "$vif2-q0" 1
	else
		lab_assert "groups=$n: $vif2-q0 in group 0" xnb_in_group "$vif2-q0" 0
	fi
	if [ "$want" = 3 ]; then
		for q in "$vif1-q0" "$vif1-q1"; do
			lab_assert "groups=3: $q balanced off the pinned group" \
				test "$(xnb_group_of "$q")" != 1
		done
	fi
	sleep 3
done
kill $rd
wait $ipf
tail -3 /run/rg-iperf.log
grep -q receiver /run/rg-iperf.log || lab_fail "TCP across the regroups failed"
mbit=$(lab_iperf_result tcp </run/rg-iperf.log)
echo "XNB-METRIC regroup tcp_mbit=$mbit"
lab_assert_gt "$mbit" 0 "TCP across the regroups"
# A ping log without a summary (ping did not stop on SIGINT) counts the
# loss from the replies.
lab_ping_loss regroup 10 "across the regroups" replies

# Refused: out of range, not a number, negative.  Nothing changes.
for bad in 9999 abc -1; do
	lab_assert "groups=$bad refused" sh -c "! echo $bad >$P/groups 2>/dev/null"
done
lab_assert "groups still 2" test "$(cat $P/groups)" = 2
lab_assert "still 2 groups, every queue once" regroup_ok 2
dmesg | grep -E 'groups=.*(moved live|refused)' | tail -6
lab_assert "the moves were logged" sh -c "dmesg | grep -q 'groups=2: queues moved live'"

# The pin survives a count without its group: back in group 1 after 1 -> 2.
lab_assert "groups=1" sh -c "echo 1 >$P/groups"
lab_assert "groups=2" sh -c "echo 2 >$P/groups"
lab_assert "$vif2-q0 back in group 1" xnb_in_group "$vif2-q0" 1
xnb_traffic 1 >/dev/null
xnb_traffic 2 >/dev/null
lab_assert "frontends still Connected at the end" fe_connected

lab_destroy_all
lab_load_backend
