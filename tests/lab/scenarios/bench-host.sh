# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# bench-host: bench/bench-host.sh (make bench-host, the bench on a real
# dom0) run in this dom0 as if it were a real host, from a tree laid out
# like an admin's checkout (bench/ from /lab/bench, tests/lab -> /lab).
# This dom0 has no network, no compiler and no python3 library: the guest
# comes from /lab-images (BENCH_HOST_IMAGES), our module from /lab
# (BENCH_HOST_MODULE), and the report is made on the host, from the
# console (--no-report here; `make bench BENCH_SCENARIO=bench-host
# QUICK=1` boots this scenario and aggregates its figures into the same
# md/csv/png).  The host's module beforehand is the kernel's, loaded
# with max_queues=2, as an admin might have it.  Asserts:
#  - with a guest running and xenbr0 holding 192.0.2.1/24, it refuses
#    (exit 3) naming both and why, and changes nothing: the guest runs
#    on, the module stays;
#  - with both gone, --check says it is ready (exit 0), and a run of the
#    set BENCH_SET (default quick), ours and stock alternating, exits 0
#    with a raw log holding figures of both and the machine's facts;
#  - afterwards no guest, vif, bridge, namespace or staging directory of
#    its is left, and the kernel's module is loaded again with
#    max_queues=2.
# About 6 minutes under TCG (a cycle of ours and one of stock, each with
# its 1/16-vif phase): LAB_SCENARIO_TIMEOUTS="bench-host=900".
. /lab/xnb.sh
[ -f /lab/xen-netback.ko ] || lab_skip "needs our module in /lab (a NETBACK=ours boot)"
tree=/run/bench-host-tree
bh=$tree/bench/bench-host.sh
results=$tree/build/bench-results
M=/sys/module/xen_netback

# xenbr0's address and the boot's backend come back whatever happens.
bh_restore() {
	ip addr replace 192.0.2.1/24 dev xenbr0
	lab_destroy_all > /dev/null 2>&1
	lab_unload_backend
	lab_load_backend
}
trap bh_restore EXIT

rm -rf "$tree"
mkdir -p "$tree/bench" "$tree/tests"
cp /lab/bench/* "$tree/bench/"
ln -s /lab "$tree/tests/lab"
# The bench's knobs of this run (lab-run.sh put them in /lab/config).
for v in $(compgen -v | grep '^BENCH_'); do export "${v?}"; done
export BENCH_SET=${BENCH_SET:-quick}
export BENCH_HOST_IMAGES=/lab-images BENCH_HOST_MODULE=/lab/xen-netback.ko
lab_unload_backend
NETBACK=stock lab_load_backend max_queues=2

# bh STATUS ARGS...: run bench-host.sh, its output on the console as it
# comes (the figures go to the host from there) and in $out; fail unless
# it exits STATUS.
bh() {
	local want=$1 rc
	shift
	"$bh" "$@" 2>&1 | tee /run/bench-host.out
	rc=${PIPESTATUS[0]}
	out=$(cat /run/bench-host.out)
	[ "$rc" = "$want" ] || lab_fail "bench-host.sh $*: exit $rc, not $want"
}

lab_guest_create 1
bh 3 --no-report
lab_assert "the refusal names g1" grep -q 'domains besides Domain-0: g1' <<< "$out"
lab_assert "the refusal names xenbr0's address" grep -q '192\.0\.2\.1/24 on xenbr0' <<< "$out"
lab_assert "the refusal says why" grep -q 'swaps the backend module' <<< "$out"
lab_assert "g1 still runs" xl domid g1 > /dev/null
lab_assert "the kernel's module still loaded, max_queues=2" \
	test -d $M -a ! -e $M/srcversion -a "$(cat $M/parameters/max_queues)" = 2
lab_destroy_all

ip addr del 192.0.2.1/24 dev xenbr0
bh 0 --check --no-report
lab_assert "--check: ready" grep -q 'ready: ' <<< "$out"
bh 0 --no-report
log=$(ls "$results"/host-*.log 2> /dev/null | tail -n 1)
lab_assert "a raw log in $results" test -s "$log"
for b in ours stock; do
	lab_assert "figures of $b" grep -Eq "^XNB-METRIC bench b=$b .* m=tcp_rx_gbps n=1 v=[0-9.]+$" "$log"
done
lab_assert "the machine's facts" grep -q '^RUN=host$' "${log%.log}.env"
lab_assert "Xen's version in them" grep -Eq '^XEN=4\.[0-9]+' "${log%.log}.env"
lab_assert "the module of before in them" \
	grep -q "^BEFORE=the kernel's xen-netback (.*max_queues=2" "${log%.log}.env"
lab_assert "the aggregation command given" grep -q 'python3 bench/aggregate.py --info' <<< "$out"

lab_assert "no guest left" test -z "$(xl list | awk 'NR > 2')"
lab_assert "no vif left" lab_no_vifs
lab_assert "bridge xnbbench0 removed" test ! -e /sys/class/net/xnbbench0
lab_assert "xenbr0 untouched" test -e /sys/class/net/xenbr0
lab_assert "namespaces removed" test -z "$(ip netns list)"
lab_assert "staging directory removed" test ! -e "$tree/build/bench-host"
lab_assert "the kernel's module loaded again, max_queues=2" \
	test -d $M -a ! -e $M/srcversion -a "$(cat $M/parameters/max_queues)" = 2
