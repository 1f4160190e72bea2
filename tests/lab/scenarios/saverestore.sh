# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# saverestore: a guest saved and restored comes back with a connected vif
# that passes traffic.
. /lab/xnb.sh
lab_guest_start 1
xnb_traffic 1 >/dev/null
lab_assert "xl save" xl save g1 /run/g1.save
lab_assert "vif gone after save" lab_wait 30 lab_no_vifs
lab_assert "xl restore" xl restore /run/g1.save
rm -f /run/g1.save
lab_guest_wait 1
xnb_traffic 1 >/dev/null
