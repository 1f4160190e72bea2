# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# demo: what `make demo` shows: two worker groups serving three guests
# (one with two queues), traffic both ways, then what the driver did.
. /lab/xnb.sh
show() { sed 's/^/XNB-DEMO /'; }
[ "$NETBACK" = ours ] && lab_load_backend "groups=2 worker=kthread $XNB_PARAMS"
# One at a time: the hotplug script has a timeout a loaded host can miss.
lab_guest_start 1
LAB_GUEST_VCPUS=2 lab_guest_start 2
lab_guest_start 3
for n in 1 2 3; do
	read -r tx rx <<< "$(xnb_traffic $n)"
	echo "g$n: guest->dom0 $tx Gbit/s, dom0->guest $rx Gbit/s" | show
done
echo "all three guests sending to dom0 at once:" | show
for n in 1 2 3; do
	iperf3 -c "$(lab_guest_ip $n)" -R -t 5 -f m > /run/demo-$n.log 2>&1 &
done
wait
for n in 1 2 3; do
	echo "  g$n: $(awk '/receiver/ {print $(NF-2), $(NF-1)}' /run/demo-$n.log)" | show
done
if [ "$NETBACK" = ours ]; then
	echo "--- /sys/kernel/debug/xen-netback/groups" | show
	xnb_groups_file | show
	echo "--- worker threads: $(ps -e -o comm= | grep '^napi/xnb-g[0-9]' | xargs)" | show
	vif=$(lab_vif_name 2)
	echo "--- ethtool -S $vif" | show
	ethtool -S "$vif" | show
fi
