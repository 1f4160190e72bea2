# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# xdp: a real netfront with an XDP program (XDP_PASS) on eth0 still
# passes traffic both ways.  netfront asks for RX headroom (xdp-headroom
# 256, through Reconfiguring/Reconfigured) when it attaches the program
# and for none when it removes it; the backend must follow both ways and
# end Connected.  Needs /bin/xdp-pass in the guest (make lab-xdp).
. /lab/xnb.sh
lab_guest_start 1
ip=$(lab_guest_ip 1)
vif=$(lab_vif_name 1)
bp=$(lab_backend_path 1)
fp=$(xenstore-read "$bp/frontend") || lab_fail "no frontend path in $bp"
lab_guest_exec 1 "test -x /bin/xdp-pass" >/dev/null ||
	lab_skip "no /bin/xdp-pass in the guest (run make lab-xdp)"

offer=$(xenstore-read "$bp/feature-xdp-headroom" 2>/dev/null)
lab_log "feature-xdp-headroom=$offer"
if [ "$NETBACK" = ours ]; then
	lab_assert "feature-xdp-headroom offered" test "$offer" = 1
fi

# pings DESC: both ways, small and near the MTU.
pings() {
	local s out
	for s in 56 1400; do
		lab_assert "$1: ping -s $s dom0 -> guest" ping -c 3 -W 2 -s $s "$ip"
		out=$(lab_guest_exec 1 "ping -c 3 -W 2 -s $s 192.0.2.1") ||
			{ echo "$out"; lab_fail "$1: ping -s $s guest -> dom0"; }
	done
}
# states WANT_HEADROOM: both ends Connected, the frontend's key as wanted.
states() {
	local be fe hr
	be=$(xenstore-read "$bp/state")
	fe=$(xenstore-read "$fp/state")
	hr=$(xenstore-read "$fp/xdp-headroom" 2>/dev/null)
	lab_log "backend state $be, frontend state $fe, xdp-headroom '$hr'"
	[ "$be" = 4 ] && [ "$fe" = 4 ] && [ "${hr:-0}" = "$1" ]
}

pings "no XDP"
out=$(lab_guest_exec 1 "xdp-pass eth0 && ip link show eth0" 60) ||
	{ echo "$out"; lab_fail "attaching XDP to eth0"; }
echo "$out"
lab_wait 20 states 256 || lab_fail "after attach: not Connected with xdp-headroom 256"
pings "XDP_PASS"
# netfront drops multi-buffer packets under XDP: TCP from dom0 needs
# frames that fit one buffer, so segment before the vif.
ethtool -K "$vif" tso off gso off >/dev/null 2>&1 || true
tx=$(lab_iperf "$ip" -R 2)
rx=$(lab_iperf "$ip" 2)
lab_log "XDP_PASS: guest->dom0 $tx Gbit/s, dom0->guest $rx Gbit/s (vif TSO/GSO off)"
echo "XNB-METRIC xdp pass tx_gbit=$tx rx_gbit=$rx"
lab_assert_gt "$tx" 0 "guest->dom0 TCP with XDP_PASS"
lab_assert_gt "$rx" 0 "dom0->guest TCP with XDP_PASS"
ethtool -K "$vif" tso on gso on >/dev/null 2>&1 || true

out=$(lab_guest_exec 1 "xdp-pass eth0 off && ip link show eth0" 60) ||
	{ echo "$out"; lab_fail "removing XDP from eth0"; }
lab_wait 20 states 0 || lab_fail "after removal: not Connected with xdp-headroom 0"
pings "XDP removed"
xnb_traffic 1 >/dev/null
lab_log "xdp: PASS"
