# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# attach3: three vifs hot-attached to a running guest each carry traffic
# (their own dom0 counters move), then detach and are gone.
. /lab/xnb.sh
lab_guest_start 1
for k in 1 2 3; do lab_net_attach 1 $k; done
for k in 1 2 3; do
	vif=$(lab_vif_name 1 $k)
	before=$(lab_vif_bytes "$vif" rx)
	xnb_traffic 1 $k >/dev/null
	after=$(lab_vif_bytes "$vif" rx)
	lab_assert_gt $((after - before)) 100000 "bytes received on $vif"
done
for k in 3 2 1; do lab_net_detach 1 $k; done
lab_assert "only vif 0 left" test "$(lab_vifs)" = "$(lab_vif_name 1 0)"
xnb_traffic 1 0 >/dev/null
