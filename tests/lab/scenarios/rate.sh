# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# rate: the "rate" key on the backend node caps guest TX (guest->dom0)
# within 10 %, live; the xl vif option rate= (same key) works at attach.
. /lab/xnb.sh
lab_guest_start 1
ip=$(lab_guest_ip 1)
be=$(lab_backend_path 1)
# What the lab can do unlimited, in Mbit/s: the lower bound of a cap is
# only checked where the lab is much faster than the cap (a loaded TCG
# host may not be).
free=$(lab_iperf "$ip" -R 3)
free=$(awk -v g="$free" 'BEGIN { printf "%.2f", g * 1000 }')
lab_log "unlimited: $free Mbit/s"
check_rate() {	# IP MBIT
	local got lo hi
	got=$(lab_iperf "$1" -R 8)
	got=$(awk -v g="$got" 'BEGIN { printf "%.2f", g * 1000 }')
	lo=$(awk -v r="$2" 'BEGIN { print r * 0.9 }')
	hi=$(awk -v r="$2" 'BEGIN { print r * 1.1 }')
	lab_log "rate $2 Mbit/s: measured $got Mbit/s (allowed $lo-$hi)"
	echo "XNB-METRIC rate limit_mbps=$2 measured_mbps=$got unlimited_mbps=$free"
	lab_assert_gt "$hi" "$got" "rate capped at $2 Mbit/s"
	if awk -v f="$free" -v r="$2" 'BEGIN { exit !(f >= 3 * r) }'; then
		lab_assert_gt "$got" "$lo" "rate not far below $2 Mbit/s"
	else
		lab_log "lab too slow ($free Mbit/s) to check the lower bound"
	fi
}
# 20 Mbit/s: 125000 bytes every 50 ms.
xenstore-write "$be/rate" "125000,50000"
sleep 1
check_rate "$ip" 20
# Changed live.
xenstore-write "$be/rate" "62500,50000"
sleep 1
check_rate "$ip" 10
# Removed: no limit again.
xenstore-rm "$be/rate"
sleep 1
again=$(lab_iperf "$ip" -R 3)
again=$(awk -v g="$again" 'BEGIN { printf "%.2f", g * 1000 }')
lab_log "rate key removed: $again Mbit/s"
if awk -v f="$free" 'BEGIN { exit !(f >= 30) }'; then
	lab_assert_gt "$again" 11 "unlimited after the key is removed"
fi
# Invalid: ignored, no crash.
xenstore-write "$be/rate" "banana"
sleep 1
lab_assert "ping after an invalid rate" lab_ping "$ip" 2
# The toolstack's own option.
lab_log "attaching vif 1 with rate=10Mb/s"
# shellcheck disable=SC2046
xl network-attach g1 $(lab_vif_spec 1 1 | tr , ' ') rate=10Mb/s || lab_fail "network-attach rate"
lab_wait_vif 1 1
lab_wait_ping "$(lab_guest_ip 1 1)" 60
xenstore-read "$(lab_backend_path 1 1)/rate"
check_rate "$(lab_guest_ip 1 1)" 10
