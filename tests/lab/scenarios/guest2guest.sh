# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# guest2guest: two guests on the bridge ping each other and pass TCP both
# ways between themselves (iperf3 client in one guest, the other guest's
# iperf3 server), dom0 only bridging.  The data must cross both vifs: the
# sender's vif receives it from its guest (rx) and the receiver's vif
# sends it to its guest (tx).
lab_guest_create 1
lab_guest_create 2
lab_guest_wait 1
lab_guest_wait 2
ip1=$(lab_guest_ip 1) ip2=$(lab_guest_ip 2)
v1=$(lab_vif_name 1) v2=$(lab_vif_name 2)

for p in "1 $ip2" "2 $ip1"; do
	# shellcheck disable=SC2086
	set -- $p
	out=$(lab_guest_exec "$1" "ping -c 3 -W 3 $2" 30) ||
		{ echo "$out"; lab_fail "g$1 cannot ping $2"; }
	lab_log "g$1 -> $2: $(echo "$out" | sed 's/\\n/\n/g' | grep -E 'received|round-trip|rtt' | tr '\n' ' ')"
done

# g_iperf N IP [-R]: iperf3 client in g<N> against the server at IP for
# 3 s; prints the receiver's Mbit/s.
g_iperf() {
	local out
	out=$(lab_guest_exec "$1" "iperf3 -c $2 ${3:-} -t 3 -f m 2>&1 | grep receiver" 90) ||
		{ echo "$out" >&2; lab_fail "iperf3 in g$1 to $2 ${3:-} failed"; }
	echo "$out" | awk '{ for (i = 1; i < NF; i++) if ($(i + 1) == "Mbits/sec") r = $i }
		END { if (r == "") exit 1; print r }' ||
		lab_fail "no iperf3 result in g$1 to $2 ${3:-}: $out"
}

# bytes: "<v1 rx> <v1 tx> <v2 rx> <v2 tx>"
bytes() {
	echo "$(lab_vif_bytes "$v1" rx) $(lab_vif_bytes "$v1" tx)" \
	     "$(lab_vif_bytes "$v2" rx) $(lab_vif_bytes "$v2" tx)"
}
# moved BEFORE AFTER FIELD: bytes the counter FIELD (1..4) grew by.
moved() {
	echo "$1 $2" | awk -v f="$3" '{ print $(f + 4) - $f }'
}

# Each direction separately, so each vif's counters show its own share.
# Requested direction, then what must grow: sender's vif rx, receiver's vif tx.
for run in "1 $ip2 - 1 4" "1 $ip2 -R 3 2" "2 $ip1 - 3 2" "2 $ip1 -R 1 4"; do
	# shellcheck disable=SC2086
	set -- $run
	n=$1 dst=$2 rev=$3 from=$4 to=$5
	[ "$rev" = - ] && rev=""
	b0=$(bytes)
	mbps=$(g_iperf "$n" "$dst" "$rev")
	b1=$(bytes)
	s=$(moved "$b0" "$b1" "$from") r=$(moved "$b0" "$b1" "$to")
	lab_log "g$n -> $dst ${rev:-(forward)}: $mbps Mbit/s; sender vif rx +$s bytes, receiver vif tx +$r bytes"
	echo "XNB-METRIC guest2guest g$n dst=$dst dir=${rev:-fwd} mbps=$mbps sender_rx_bytes=$s receiver_tx_bytes=$r"
	lab_assert_gt "$mbps" 0 "TCP g$n $dst ${rev:-forward}"
	# iperf3 moved at least 100 kB (3 s at a starved 0.3 Mbit/s).
	lab_assert_gt "$s" 100000 "bytes from the sending guest through its vif (g$n $dst ${rev:-forward})"
	lab_assert_gt "$r" 100000 "bytes to the receiving guest through its vif (g$n $dst ${rev:-forward})"
done
lab_destroy_all
