# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# defer: holding a streaming queue's events after its turn (defer.c,
# docs/design.md "Small packets: holding events").  One group, holds up
# to 10 ms (defer_max_usecs=10000: the lab's passes take hundreds of us,
# and a guest's 64 B packets come about a millisecond apart):
#  - the parameter: 1..9 refused at runtime, 0 and 10000 taken;
#  - g1 floods dom0 with 64 B UDP: the group holds queues (its holds
#    counter grows), dom0 receives, and g2 (not streaming) answers ping
#    meanwhile;
#  - dom0 floods g1 with 64 B UDP (its RX held), then TCP both ways with
#    g1 while holds are on: every phase moves data (a lost wake-up would
#    leave a queue masked and the run stalled);
#  - g1 destroyed while dom0 floods it (a queue held at teardown), g1
#    again, and with defer_max_usecs=0 the same flood holds nothing;
#  - after it all the leak counters are back and the module unloads.
# XNB-METRIC gives the holds, packets a pass and the ping RTT per phase.
. /lab/xnb.sh
xnb_ours_only
PARAM=/sys/module/xen_netback/parameters/defer_max_usecs
lab_load_backend "groups=1 defer_max_usecs=10000"
xnb_quiesce
xnb_leak_counters > "$LAB_RUN/defer-before"

lab_assert "defer_max_usecs=10000 at load" test "$(cat $PARAM)" = 10000
lab_assert "defer_max_usecs=5 refused at runtime" sh -c "! echo 5 > $PARAM"
lab_assert "still 10000" test "$(cat $PARAM)" = 10000
lab_assert "defer_max_usecs=0 taken" sh -c "echo 0 > $PARAM"
lab_assert "defer_max_usecs=10000 taken" sh -c "echo 10000 > $PARAM"

lab_guest_start 1
lab_guest_start 2
ip1=$(lab_guest_ip 1) ip2=$(lab_guest_ip 2)

# counters: "holds passes packets" summed over the groups (sysfs).
counters() { echo "$(xnb_sysfs_sum holds) $(xnb_sysfs_sum passes) $(xnb_sysfs_sum packets)"; }

# flood_tx SECONDS LOG: g1 sends 64 B UDP to a one-off server in dom0.
flood_tx() {
	local port=$((5800 + RANDOM % 90))
	iperf3 -s -1 -p $port -D || lab_fail "iperf3 server in dom0"
	sleep 1
	lab_guest_exec 1 "iperf3 -c 192.0.2.1 -p $port -u -l 64 -b 1G -t $1 -f m" \
		$(($1 + 60)) > "$2" 2>&1
}
# flood_rx SECONDS LOG: dom0 sends 64 B UDP to a one-off server in g1.
flood_rx() {
	local port=$((5900 + RANDOM % 90))
	lab_guest_exec 1 "iperf3 -s -1 -p $port -D" > /dev/null || lab_fail "iperf3 server in g1"
	sleep 1
	timeout -k 5 $(($1 + 30)) iperf3 -c "$ip1" -p $port -u -l 64 -b 1G -t "$1" -f m > "$2" 2>&1
}
# phase NAME FLOOD: FLOOD (flood_tx or flood_rx) for 8 s, g2 pinged 3 s
# in; asserts the flood's receiver got packets and g2 answered; sets
# HOLDS to the phase's holds.
phase() {
	local a b got rtt log=$LAB_RUN/defer-$1.log
	read -ra a <<<"$(counters)"
	"$2" 8 "$log" &
	sleep 3
	rtt=$(ping -c 10 -i 0.2 -W 2 "$ip2" | awk -F/ '/^rtt|^round-trip/ { print $5 }')
	wait
	read -ra b <<<"$(counters)"
	got=$(lab_iperf_result udp < "$log") || { tail -n 4 "$log"; lab_fail "$1: no result from the flood"; }
	HOLDS=$((b[0] - a[0]))
	local passes=$((b[1] - a[1])) pkts=$((b[2] - a[2]))
	echo "XNB-METRIC defer phase=$1 datagrams=$got holds=$HOLDS passes=$passes packets=$pkts" \
		"packets_per_pass=$(awk -v k="$pkts" -v p="$passes" 'BEGIN { if (p) printf "%.2f", k / p }')" \
		"ping_g2_ms=${rtt:-none}"
	lab_assert_gt "$got" 0 "$1: datagrams received"
	lab_assert "$1: g2 answered ping during the flood" test -n "$rtt"
}

phase tx flood_tx
lab_assert_gt "$HOLDS" 0 "tx: a queue was held"
phase rx flood_rx
lab_assert_gt "$HOLDS" 0 "rx: a queue was held"
xnb_traffic 1 > /dev/null
xnb_traffic 2 > /dev/null

# A queue held at teardown: g1 destroyed while dom0 floods it (dom0's
# client just fails; a flood from g1 would fail the scenario's exec).
flood_rx 20 /dev/null &
sleep 5
lab_guest_destroy 1
wait
lab_assert "g1's vif gone" lab_wait 60 test -z "$(lab_domid 1)"
lab_guest_start 1

lab_assert "defer_max_usecs=0 taken" sh -c "echo 0 > $PARAM"
phase off flood_tx
lab_assert "off: nothing held" test "$HOLDS" = 0
xnb_traffic 1 > /dev/null

xnb_quiesce
xnb_leak_counters > "$LAB_RUN/defer-after"
# A slack of 3 MB: the first guests of a boot grow dom0's caches
# (sockets, xenstore, the bridge) by a megabyte or so, with or without a
# driver leak; the exact counters are what a held queue could leak.
xnb_leak_compare defer-leak 3072 "$LAB_RUN/defer-before" "$LAB_RUN/defer-after"
xnb_leak_unload defer-leak
lab_assert "no leak (counters back, module unloads)" test "$XNB_LEAK_FAIL" = 0
lab_load_backend
