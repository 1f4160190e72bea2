# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# jumbo: at MTU 9000 an 8000-byte ping crosses the vif unfragmented both
# ways, and TCP passes.
. /lab/xnb.sh
lab_guest_start 1
vif=$(lab_vif_name 1)
ip=$(lab_guest_ip 1)
lab_assert "vif mtu 9000" ip link set "$vif" mtu 9000
lab_assert "bridge mtu 9000" ip link set xenbr0 mtu 9000
out=$(lab_guest_exec 1 "ip link set eth0 mtu 9000 && ip link show eth0") ||
	{ echo "$out"; lab_fail "guest mtu 9000"; }
echo "$out"
# -M do: dom0 sets DF, so an MTU problem anywhere is an error, not fragments.
lab_assert "8000-byte ping dom0 -> guest, DF" ping -M "do" -s 8000 -c 3 -W 2 "$ip"
out=$(lab_guest_exec 1 "ping -c 3 -W 2 -s 8000 192.0.2.1") ||
	{ echo "$out"; lab_fail "8000-byte ping guest -> dom0"; }
xnb_traffic 1 >/dev/null
ip link set xenbr0 mtu 1500 2>/dev/null || true
