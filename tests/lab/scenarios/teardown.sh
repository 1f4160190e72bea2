# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# teardown: destroying guests removes every vif netdev and backend node, and
# the backend module can then be unloaded.
lab_guest_create 1 2
lab_guest_create 2
lab_guest_wait 1 2
lab_guest_wait 2
d1=$(lab_domid 1); d2=$(lab_domid 2)
lab_guest_destroy 1
lab_guest_destroy 2
lab_wait 60 lab_no_vifs || lab_fail "vif netdevs left: $(lab_vifs)"
lab_assert "backend nodes of g1 removed" lab_wait 30 sh -c "! xenstore-ls /local/domain/0/backend/vif/$d1 2>/dev/null | grep -q ."
lab_assert "backend nodes of g2 removed" lab_wait 30 sh -c "! xenstore-ls /local/domain/0/backend/vif/$d2 2>/dev/null | grep -q ."
lab_unload_backend
lab_assert "module gone" test ! -d /sys/module/xen_netback
