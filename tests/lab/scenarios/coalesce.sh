# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# coalesce: the vif's guest RX notification moderation (ethtool -c/-C,
# docs/design.md "Telling the guest").  One guest:
#  - ethtool -c shows the defaults: adaptive-rx on, rx-usecs 64,
#    rx-frames 64;
#  - ethtool -C sets each value and -c reads it back; values out of
#    range (rx-usecs 10001, rx-frames 257) are refused, nothing changed;
#  - with adaptive-rx on, pings get replies (their RTT is a figure, not
#    an assert) and TCP passes both ways;
#  - with no moderation (adaptive-rx off, rx-usecs 0, rx-frames 1) the
#    same traffic passes and no notification is held (rx_notify_deferred
#    and rx_notify_skipped stay);
#  - with the largest values (rx-usecs 10000, rx-frames 256) it passes
#    too, held notifications going when due;
#  - back to adaptive-rx on, read back.
# Per setting, XNB-METRIC gives the guest RX notifications per packet
# (rx_notify / rx_packets of ethtool -S over the phase) and the ping RTT.
. /lab/xnb.sh
xnb_ours_only
lab_guest_start 1
vif=$(lab_vif_name 1)
ip=$(lab_guest_ip 1)

# coal NAME: one value of ethtool -c ("rx-usecs", ...; "adaptive-rx"
# from its "Adaptive RX: on  TX: ..." line).
coal() {
	ethtool -c "$vif" | awk -v k="$1" '
		k == "adaptive-rx" && $1 == "Adaptive" && $2 == "RX:" { print $3; f = 1 }
		$1 == k ":" { print $2; f = 1 }
		END { exit !f }'
}
# coal_is ADAPTIVE USECS FRAMES: ethtool -c reads these.
coal_is() {
	local a u f
	a=$(coal adaptive-rx) && u=$(coal rx-usecs) && f=$(coal rx-frames) ||
		{ ethtool -c "$vif"; return 1; }
	[ "$a $u $f" = "$1 $2 $3" ] || { echo "ethtool -c $vif: $a $u $f, not $1 $2 $3"; return 1; }
}
# counters: "rx_packets rx_notify rx_notify_deferred rx_notify_skipped"
counters() {
	local c out=''
	for c in rx_packets rx_notify rx_notify_deferred rx_notify_skipped; do
		out+="$(xnb_ethtool "$vif" "$c") " || lab_fail "no $c in ethtool -S $vif"
	done
	echo "$out"
}
# phase NAME: ping, then TCP both ways (xnb_traffic asserts both), and
# the figures of the phase; sets DEFERRED and SKIPPED to its deltas.
phase() {
	local a b rtt
	read -ra a <<<"$(counters)"
	rtt=$(ping -c 10 -i 0.2 -W 2 "$ip" | awk -F/ '/^rtt|^round-trip/ { print $5 }')
	[ -n "$rtt" ] || lab_fail "$1: no ping reply from $ip"
	xnb_traffic 1 >/dev/null
	read -ra b <<<"$(counters)"
	local pk=$((b[0] - a[0])) nt=$((b[1] - a[1]))
	DEFERRED=$((b[2] - a[2])) SKIPPED=$((b[3] - a[3]))
	lab_assert_gt "$pk" 0 "$1: packets reached the guest"
	lab_assert_gt "$nt" 0 "$1: the guest was notified"
	echo "XNB-METRIC coalesce setting=$1 rx_packets=$pk rx_notify=$nt" \
		"notify_per_packet=$(awk -v n="$nt" -v p="$pk" 'BEGIN { printf "%.3f", n / p }')" \
		"deferred=$DEFERRED skipped=$SKIPPED ping_avg_ms=$rtt"
}

ethtool -c "$vif"
lab_assert "defaults: adaptive-rx on, rx-usecs 64, rx-frames 64" coal_is on 64 64
phase adaptive

# The static values are kept with adaptive-rx on.
lab_assert "set rx-usecs 100 rx-frames 32" ethtool -C "$vif" rx-usecs 100 rx-frames 32
lab_assert "read back: on 100 32" coal_is on 100 32

lab_assert "set no moderation" ethtool -C "$vif" adaptive-rx off rx-usecs 0 rx-frames 1
lab_assert "read back: off 0 1" coal_is off 0 1
phase off-0us-1frame
lab_assert "no notification held without moderation" test "$DEFERRED" = 0
lab_assert "none skipped without moderation" test "$SKIPPED" = 0

lab_assert "set the largest values" ethtool -C "$vif" rx-usecs 10000 rx-frames 256
lab_assert "read back: off 10000 256" coal_is off 10000 256
phase off-10000us-256frames
lab_log "held at rx-usecs 10000: $DEFERRED, of them found unneeded: $SKIPPED"

# Out of range: refused (the kernel's message on stderr), nothing changed.
refused() { ! ethtool -C "$vif" "$@"; }
lab_assert "rx-usecs 10001 refused" refused rx-usecs 10001
lab_assert "rx-frames 257 refused" refused rx-frames 257
lab_assert "nothing changed by a refusal" coal_is off 10000 256

lab_assert "back to adaptive, defaults" ethtool -C "$vif" adaptive-rx on rx-usecs 64 rx-frames 64
lab_assert "read back: on 64 64" coal_is on 64 64
lab_assert "ping after the changes" lab_ping "$ip"
# Each queue's net_dim limits and debt (debugfs, for the log).
xnb_groups_file | grep -E "^  $vif-q|rxmod" || true
