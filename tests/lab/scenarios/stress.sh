# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# stress: back-to-back TCP runs through one vif, short and long, each way.
# The end of a bulk transfer (the guest goes quiet while a few control
# segments still cross) is where a lost wakeup shows; repeat it.
. /lab/xnb.sh
lab_guest_start 1
ip=$(lab_guest_ip 1)
for _ in 1 2 3 4 5 6; do
	xnb_traffic 1 >/dev/null
done
for dir in -R ""; do
	mbps=$(lab_iperf "$ip" $dir 10)
	lab_log "10 s $dir: $mbps Gbit/s"
	lab_assert_gt "$mbps" 0 "10 s run $dir"
done
# Quiet again: nothing may stay counted as queued for the guest (a count
# that drifts keeps the netdev queue stopped for good).
if [ "$NETBACK" = ours ]; then
	sleep 2
	grep -h rx_skbs "$(xnb_debugfs)"/vif-*/io_ring_q* >&2
	lab_assert "queued bytes back to 0" xnb_rx_drained
fi
