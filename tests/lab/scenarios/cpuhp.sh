# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# cpuhp: a worker group follows its CPU offline and back (docs/admin.md,
# "CPU hotplug and irqbalance").  groups=2 on dom0's 2 vcpus: group 1's
# home is CPU1, which a PV dom0 can take offline (CPU0 it cannot).  g1's
# vif is pinned to group 1; iperf3 runs back to back (6 s each, the
# direction alternating) and a ping every 0.2 s while CPU1 goes offline
# and comes back CPUHP_CYCLES times (default 5) with worker=kthread, then
# CPUHP_TASKLET_CYCLES times (default 2, 0 = none) with worker=tasklet,
# a second guest boot.  After each step:
#  - offline: group 1's sysfs cpu is another online CPU, home_cpu still
#    CPU1; its thread (kthread) may run only there, its queue's irqs
#    interrupt there (effective affinity, affinity hint); group 0 stays;
#  - online: all of it back on CPU1, and group 1 serves packets again;
#  - in cycle 1, xnbctl status marks group 1's CPU away from home, with
#    its footnote, while CPU1 is offline, and not once it is back;
#  - in cycle 2 the vif is pinned to group 0 and back while CPU1 is
#    offline: the attach takes group 1's CPU of the moment, and the
#    queue goes home with the group when CPU1 returns;
# before the cycles, a user write of the queue's irqs' smp_affinity_list
# to another online CPU is taken and stands (effective affinity there,
# the hint still CPU1, pings flow), and a pin to group 0 and back puts
# them on CPU1 again; and throughout: dmesg has one line for each
# hotplug that moved the group, the hotplug state exists only while the
# module is loaded, every iperf3 run completes and ping loss stays
# under 10 % (XNB-METRIC).  A CPU going offline
# pauses dom0 for a moment, nothing more: the loss is reported, not
# expected to be 0 under TCG.
. /lab/xnb.sh
xnb_ours_only
CPUHP_CYCLES=${CPUHP_CYCLES:-5}
CPUHP_TASKLET_CYCLES=${CPUHP_TASKLET_CYCLES:-2}
STATES=/sys/devices/system/cpu/hotplug/states
STATE=net/xen-netback:online
STOP=/run/cpuhp.stop
ONLINE='' tpid=''

# Whatever happens, CPU1 comes back and the traffic stops.
cleanup() {
	touch $STOP
	if [ -n "$ONLINE" ] && [ "$(cat "$ONLINE")" = 0 ]; then
		echo 1 >"$ONLINE"
	fi
	# shellcheck disable=SC2086 # pids, split on purpose
	[ -z "$LAB_PING_PIDS" ] || kill $LAB_PING_PIDS 2>/dev/null
	[ -z "$tpid" ] || kill "$tpid" 2>/dev/null
}
trap cleanup EXIT

# vif_irqs: the irqs of $vif's queues ("<vif>-q<i>" in /proc/interrupts).
vif_irqs() {
	awk -v v="$vif-q" 'index($NF, v) == 1 { sub(":", "", $1); print $1 }' \
		/proc/interrupts
}
# irq_cpu IRQ: the CPU it interrupts.
irq_cpu() {
	cat "/proc/irq/$1/effective_affinity_list" 2>/dev/null ||
		cat "/proc/irq/$1/smp_affinity_list"
}
# hint_is IRQ CPU: its affinity hint is CPU alone.
hint_is() {
	local h
	h=$(tr -d ',\n' <"/proc/irq/$1/affinity_hint")
	[ $((16#$h)) = $((1 << $2)) ]
}
# thread_cpus: where group 1's NAPI thread may run.
thread_cpus() {
	local pid
	pid=$(ps -e -o pid=,comm= | awk '$2 == "napi/xnb-g1-0" { print $1 }')
	[ -n "$pid" ] && awk '/^Cpus_allowed_list:/ { print $2 }' "/proc/$pid/status"
}
# placed CPU: group 1 runs on CPU (thread, irqs, hint), home unchanged,
# group 0 at home (CPU0, which stays online).
placed() {
	local irq
	[ "$(xnb_sysfs 1 cpu)" = "$1" ] || return 1
	[ "$(xnb_sysfs 1 home_cpu)" = "$HOME_CPU" ] || return 1
	[ "$(xnb_sysfs 0 cpu)" = "$(xnb_sysfs 0 home_cpu)" ] || return 1
	[ "$worker" = tasklet ] || [ "$(thread_cpus)" = "$1" ] || return 1
	for irq in $(vif_irqs); do
		[ "$(irq_cpu "$irq")" = "$1" ] || return 1
		hint_is "$irq" "$1" || return 1
	done
}
away_from() { [ "$(xnb_sysfs 1 cpu)" != "$1" ]; }
# other_cpu: an online CPU other than group 1's home.
other_cpu() {
	local d n
	for d in /sys/devices/system/cpu/cpu[0-9]*; do
		n=${d##*cpu}
		[ "$n" != "$HOME_CPU" ] || continue
		if [ "$(cat "$d/online" 2>/dev/null || echo 1)" = 1 ]; then
			echo "$n"
			return 0
		fi
	done
	return 1
}
# user_placed CPU: the queue's irqs interrupt CPU, where a user put them;
# their hint still names group 1's CPU, which stays.
user_placed() {
	local irq
	[ "$(xnb_sysfs 1 cpu)" = "$HOME_CPU" ] || return 1
	for irq in $(vif_irqs); do
		[ "$(irq_cpu "$irq")" = "$1" ] || return 1
		hint_is "$irq" "$HOME_CPU" || return 1
	done
}
show() {
	local irq
	printf 'groups/1: cpu=%s home_cpu=%s; groups/0: cpu=%s; thread: %s;' \
		"$(xnb_sysfs 1 cpu)" "$(xnb_sysfs 1 home_cpu)" "$(xnb_sysfs 0 cpu)" \
		"$(thread_cpus || echo -)"
	for irq in $(vif_irqs); do
		printf ' irq %s -> %s (hint %s)' "$irq" "$(irq_cpu "$irq")" \
			"$(cat "/proc/irq/$irq/affinity_hint")"
	done
	echo
}
# pin GROUP: g1's vif to GROUP, its queue there.
pin() {
	xenstore-write "$(lab_backend_path 1)/worker-group" "$1"
	lab_assert "$vif-q0 in group $1" lab_wait 10 xnb_in_group "$vif-q0" "$1"
}
# traffic TAG: iperf3 runs back to back until $STOP, logs /run/TAG-iperfN.log.
traffic() {
	local n=0 dir
	while [ ! -e $STOP ]; do
		n=$((n + 1))
		dir=-R
		[ $((n % 2)) = 0 ] && dir=
		# shellcheck disable=SC2086 # no direction: no argument
		timeout 60 iperf3 -c "$ip" $dir -t 6 -f m >"/run/$1-iperf$n.log" 2>&1
		sleep 0.5
	done
}
rises() { [ "$(xnb_sysfs 1 packets)" -gt "$1" ]; }
# xnbctl_marks CPU: xnbctl status shows group 1 on CPU away from its
# home (the '*' and its footnote); with no CPU, no mark and no footnote.
xnbctl_marks() {
	local out
	out=$(/lab/xnbctl status) || return 1
	echo "$out" | sed -n '/^GROUP /,/^$/p'
	if [ -n "${1:-}" ]; then
		grep -Eq "^ +1 +$1\* " <<<"$out" &&
			grep -qx "\* group 1: home CPU $HOME_CPU is offline, on CPU $1 until it returns" <<<"$out"
	else
		! grep -q '^\* ' <<<"$out" && grep -Eq "^ +1 +$HOME_CPU  " <<<"$out"
	fi
}

# cycle TAG N: CPU1 offline and back, checked at each step.
cycle() {
	local tag=$1 n=$2 away p
	lab_log "[$tag] cycle $n: cpu$HOME_CPU offline"
	echo 0 >"$ONLINE" || lab_fail "[$tag] cpu$HOME_CPU would not go offline"
	lab_assert "[$tag] cycle $n: group 1 left cpu$HOME_CPU" \
		lab_wait 10 away_from "$HOME_CPU"
	away=$(xnb_sysfs 1 cpu)
	lab_assert "[$tag] cycle $n: cpu$away is online" \
		test "$(cat "/sys/devices/system/cpu/cpu$away/online" 2>/dev/null || echo 1)" = 1
	show
	lab_assert "[$tag] cycle $n: group 1 on cpu$away, thread and irqs too" placed "$away"
	[ "$n" != 1 ] || lab_assert "[$tag] xnbctl status: group 1 on cpu$away, marked away" \
		xnbctl_marks "$away"
	if [ "$n" = 2 ]; then
		# An attach while displaced: the group's CPU of the moment.
		pin 0
		pin 1
		show
		lab_assert "[$tag] repinned: irqs on cpu$away" placed "$away"
	fi
	sleep 2
	p=$(xnb_sysfs 1 packets)
	lab_log "[$tag] cycle $n: cpu$HOME_CPU online"
	echo 1 >"$ONLINE" || lab_fail "[$tag] cpu$HOME_CPU would not come back"
	lab_assert "[$tag] cycle $n: group 1 back on cpu$HOME_CPU" \
		lab_wait 10 placed "$HOME_CPU"
	show
	[ "$n" != 1 ] || lab_assert "[$tag] xnbctl status: group 1 home, no mark" xnbctl_marks
	lab_assert "[$tag] cycle $n: group 1 serves again" lab_wait 10 rises "$p"
	sleep 2
}

# run_mode WORKER CYCLES
run_mode() {
	local mode=$1 cycles=$2 n irq l r d0 moves back other
	lab_load_backend "$XNB_PARAMS groups=2 worker=$mode"
	worker=$(cat /sys/module/xen_netback/parameters/worker)
	lab_assert "[$mode] 2 groups" test "$(cat /sys/module/xen_netback/parameters/groups)" = 2
	lab_assert "[$mode] hotplug state $STATE" grep -q "$STATE\$" $STATES
	HOME_CPU=$(xnb_sysfs 1 home_cpu)
	ONLINE=/sys/devices/system/cpu/cpu$HOME_CPU/online
	if [ "$HOME_CPU" = 0 ] || [ ! -w "$ONLINE" ]; then
		ONLINE=''
		lab_load_backend
		lab_skip "group 1's home is cpu$HOME_CPU, which cannot go offline (dom0 needs 2 vcpus)"
	fi
	lab_assert "[$mode] group 1 at home" test "$(xnb_sysfs 1 cpu)" = "$HOME_CPU"
	lab_guest_start 1
	vif=$(lab_vif_name 1)
	ip=$(lab_guest_ip 1)
	pin 1
	lab_assert "[$mode] $vif has queue irqs" test -n "$(vif_irqs)"
	show
	lab_assert "[$mode] group 1 on cpu$HOME_CPU, thread and irqs too" placed "$HOME_CPU"
	# A user's write (an admin's, irqbalance's) stands until the queue's
	# next attach or move, which puts the irqs back on the group's CPU.
	other=$(other_cpu) || lab_fail "[$mode] no online CPU besides cpu$HOME_CPU"
	for irq in $(vif_irqs); do
		lab_assert "[$mode] irq $irq: a user write of smp_affinity_list (cpu$other) is taken" \
			sh -c "echo $other >/proc/irq/$irq/smp_affinity_list"
	done
	lab_assert "[$mode] ping with the irqs moved to cpu$other" lab_ping "$ip" 3
	show
	lab_assert "[$mode] irqs on cpu$other, their hint still cpu$HOME_CPU" \
		lab_wait 5 user_placed "$other"
	pin 0
	pin 1
	show
	lab_assert "[$mode] pinned away and back: group 1 on cpu$HOME_CPU, thread and irqs too" \
		placed "$HOME_CPU"

	d0=$(dmesg | wc -l)
	rm -f $STOP
	lab_ping_start "cpuhp-$mode" "$ip"
	traffic "cpuhp-$mode" &
	tpid=$!
	sleep 3
	for n in $(seq "$cycles"); do cycle "$mode" "$n"; done
	touch $STOP
	wait "$tpid"
	tpid=''
	lab_ping_loss "cpuhp-$mode" 10 "across $cycles CPU hotplug cycles ($mode)" replies
	lab_assert "[$mode] ping after the cycles" lab_ping "$ip" 3

	n=0
	for l in /run/cpuhp-"$mode"-iperf*.log; do
		n=$((n + 1))
		r=$(lab_iperf_result tcp <"$l") ||
			{ tail -5 "$l"; lab_fail "[$mode] ${l##*/} did not complete"; }
		echo "XNB-METRIC cpuhp-$mode ${l##*/} tcp_mbit=$r"
	done
	lab_assert "[$mode] iperf3 ran during the cycles" test "$n" -ge 2
	# One line per hotplug that moved a group; with 2 groups, group 1.
	# (A "no longer affine" line is no failure: the scheduler may move
	# the NAPI thread before our callback does; for a kernel thread it
	# prints none.)
	moves=$(dmesg | tail -n +$((d0 + 1)) | grep -c "xen_netback: cpu $HOME_CPU going offline: 1 of 2 groups moved off it\$")
	back=$(dmesg | tail -n +$((d0 + 1)) | grep -c "xen_netback: cpu $HOME_CPU online: 1 of 2 groups back home\$")
	echo "XNB-METRIC cpuhp-$mode cycles=$cycles logged_away=$moves logged_back=$back iperf_runs=$n"
	lab_assert "[$mode] each move away logged" test "$moves" = "$cycles"
	lab_assert "[$mode] each move back logged" test "$back" = "$cycles"
	lab_destroy_all
}

run_mode kthread "$CPUHP_CYCLES"
[ "$CPUHP_TASKLET_CYCLES" -gt 0 ] && run_mode tasklet "$CPUHP_TASKLET_CYCLES"
lab_unload_backend
lab_assert "hotplug state gone with the module" sh -c "! grep -q '$STATE\$' $STATES"
lab_load_backend
