# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# migrate: live migration on one host, `xl migrate g<N> localhost` as the
# Xen project tests it, without ssh: `-s ''` makes xl run the receiving
# side itself (its last argument is the command).  MIGRATE_COUNT
# migrations of a 1-queue guest (g1), then of a 2-queue guest (g2, 2
# vcpus), each while an iperf3 TCP stream (the direction alternating,
# the 2-queue guest starting the other way) and a ping every
# MIGRATE_PING_INTERVAL s run between dom0 and the guest.  After each:
# xl exits 0; the guest's new domain has its vif Connected at both ends
# with its queue count; the old domain, its netdev and backend nodes
# (with ours, its queues in the groups) are gone; ping answers again and
# the same TCP connection moves data through the new vif.  The ping gap
# (longest run of lost pings x interval) and the TCP stall go out as
# XNB-METRIC.  With no guest, before and after, the soak's leak counters
# (xnb.sh) must be back and the module must unload.  One "XNB-MIGRATE"
# line per migration and per counter, then "XNB-MIGRATE N passed, N
# failed".  `make migrate` (tests/lab/migrate.mk) runs it in its own boot.
#   MIGRATE_COUNT (default 1; make migrate: 10), MIGRATE_PING_INTERVAL
#   (s, 0.05), MIGRATE_RESUME_TIMEOUT (s, 120: how long ping and TCP get
#   to resume; TCP's retransmissions back off), MIGRATE_MEM_SLACK_KB
#   (growth of unreclaimable slab and vmalloc allowed, default 4096 + 64
#   per migration: no warm-up before the first count, unlike the soak),
#   MIGRATE_IPERF_RATE (iperf3 -b, default none: as fast as it goes).
. /lab/xnb.sh
MIGRATE_COUNT=${MIGRATE_COUNT:-1}
MIGRATE_PING_INTERVAL=${MIGRATE_PING_INTERVAL:-0.05}
MIGRATE_RESUME_TIMEOUT=${MIGRATE_RESUME_TIMEOUT:-120}
MIGRATE_MEM_SLACK_KB=${MIGRATE_MEM_SLACK_KB:-$((4096 + 64 * 2 * MIGRATE_COUNT))}
MIGRATE_IPERF_RATE=${MIGRATE_IPERF_RATE:-}
# What the stream must move through a vif to count as flowing.
mig_flow_bytes=1048576
# Longer than a migration can take: the stream is always stopped by us.
mig_iperf_t=$((MIGRATE_RESUME_TIMEOUT + 900))
# Per migration: "queues gap_ms seconds", for the summary.
mig_figures=/run/migrate-figures
: > "$mig_figures"

mig_xs_is() { [ "$(xenstore-read "$1" 2>/dev/null)" = "$2" ]; }
mig_xs_gone() { ! xenstore-read "$1" >/dev/null 2>&1; }
mig_domain_gone() { xl list | awk -v d="$1" 'NR > 1 && $2 == d { f = 1 } END { exit f }'; }
# mig_bytes_at_least VIF rx|tx MIN
mig_bytes_at_least() {
	local b
	b=$(cat "/sys/class/net/$1/statistics/$2_bytes" 2>/dev/null) && [ "$b" -ge "$3" ]
}
# mig_no_queues VIF: none of VIF's queues left in our groups.
mig_no_queues() {
	xnb_groups_file | awk -v v="$1-q" 'index($1, v) == 1 { f = 1 } END { exit f }'
}
# mig_tcp_stall LOG: the longest run of iperf3 intervals (1 s) that moved
# nothing, from the client's output.
mig_tcp_stall() {
	awk '!/sender|receiver/ {
		for (i = 1; i < NF - 1; i++) if ($i ~ /^[0-9.]+-[0-9.]+$/ && $(i + 1) == "sec") {
			if ($(i + 2) + 0 == 0) { r++; if (r > m) m = r } else r = 0
			break
		} }
		END { print m + 0 }' "$1"
}
# mig_exited PID: PID is gone or a zombie (bash may not have reaped it
# yet: kill -0 still succeeds on one).
mig_exited() {
	local st
	st=$(cat "/proc/$1/stat" 2>/dev/null) || return 0
	st=${st##*) }
	[ "${st%% *}" = Z ]
}
mig_secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f\n", b - a }'; }

# The stream, in the background, into /run/migrate-iperf.log; its pid in
# mig_iperf.  mig_iperf_start N IP [-R]: a server that refuses or is busy
# with the previous run's end gets one more try.
mig_iperf=
mig_iperf_start() {
	local n=$1 ip=$2 try
	shift 2
	for try in 1 2; do
		# shellcheck disable=SC2086 # -b RATE, split on purpose
		iperf3 -c "$ip" "$@" -t "$mig_iperf_t" -i 1 -f m \
			${MIGRATE_IPERF_RATE:+-b $MIGRATE_IPERF_RATE} \
			> /run/migrate-iperf.log 2>&1 &
		mig_iperf=$!
		sleep 2
		mig_exited "$mig_iperf" || return 0
		wait "$mig_iperf"
		mig_iperf=
		tail -n 5 /run/migrate-iperf.log
		if [ $try = 1 ]; then
			lab_log "iperf3 to $ip did not start; (re)starting the server"
			lab_guest_exec "$n" "iperf3 -s -D" >/dev/null || true
			sleep 2
		fi
	done
	lab_fail "iperf3 to $ip did not start"
}
mig_iperf_stop() {
	[ -n "$mig_iperf" ] || return 0
	kill -INT "$mig_iperf" 2>/dev/null
	lab_wait 10 mig_exited "$mig_iperf" || kill -KILL "$mig_iperf" 2>/dev/null
	wait "$mig_iperf" 2>/dev/null
	mig_iperf=
}
mig_stop() { lab_ping_stop; mig_iperf_stop; }
mig_diag() {
	mig_iperf_stop
	echo "--- iperf3 ---"; tail -n 25 /run/migrate-iperf.log
	lab_diag "$1"
}

# mig_once N QUEUES RUN: one migration of g<N> under traffic, asserted.
# Run in a subshell: a failure ends this migration only.
mig_once() {
	local n=$1 q=$2 i=$3 ip old new oldvif newvif dir=() key=tx what="dom0->guest"
	local log t0 t1 t2 rc k gap stall
	ip=$(lab_guest_ip "$n")
	old=$(lab_domid "$n") || lab_fail "no domain g$n"
	oldvif=vif$old.0
	# guest->dom0 is the backend's TX path, counted as the vif's rx.
	((i % 2 == q % 2)) && dir=(-R) key=rx what="guest->dom0"
	trap mig_stop EXIT
	LAB_PING_INTERVAL=$MIGRATE_PING_INTERVAL lab_ping_start "migrate" "$ip"
	log=${LAB_PING_LOGS# }
	mig_iperf_start "$n" "$ip" "${dir[@]}"
	# Both flow through the old vif before the migration starts.
	k=$(lab_vif_bytes "$oldvif" "$key")
	lab_wait 60 mig_bytes_at_least "$oldvif" "$key" $((k + mig_flow_bytes)) ||
		{ mig_diag "$ip"; lab_fail "run $i: no TCP $what through $oldvif before migrating"; }
	lab_assert "run $i: ping answered before migrating" grep -q 'bytes from' "$log"

	lab_log "run $i: migrating g$n (domid $old, $q queue(s), TCP $what)"
	t0=$(date +%s.%N)
	xl migrate -s '' "g$n" 'exec xl migrate-receive' < /dev/null > /run/migrate-xl.log 2>&1
	rc=$?
	t1=$(date +%s.%N)
	[ $rc -eq 0 ] || { cat /run/migrate-xl.log; lab_fail "run $i: xl migrate g$n exited $rc"; }
	# xl's progress comes with carriage returns.
	tr '\r' '\n' < /run/migrate-xl.log | grep -v '^ *$' | tail -n 3
	new=$(lab_domid "$n") || lab_fail "run $i: no domain g$n after the migration"
	lab_assert "run $i: g$n has a new domain ($old -> $new)" test "$new" != "$old"
	newvif=vif$new.0

	# The new vif: Connected at both ends, with the guest's queues.
	lab_wait_vif "$n" 0 60
	lab_assert "run $i: frontend of $newvif Connected" \
		lab_wait 60 mig_xs_is "/local/domain/$new/device/vif/0/state" 4
	lab_assert "run $i: $newvif has queue $((q - 1))" \
		test -d "/sys/class/net/$newvif/queues/tx-$((q - 1))"
	lab_assert "run $i: $newvif has no queue $q" test ! -d "/sys/class/net/$newvif/queues/tx-$q"
	# The old domain and what dom0 held for it are gone.
	lab_assert "run $i: domain $old gone" lab_wait 30 mig_domain_gone "$old"
	lab_assert "run $i: $oldvif gone" lab_wait 30 test ! -e "/sys/class/net/$oldvif"
	lab_assert "run $i: backend nodes of domain $old gone" \
		lab_wait 30 mig_xs_gone "/local/domain/0/backend/vif/$old"
	lab_assert "run $i: xenstore home of domain $old gone" \
		lab_wait 30 mig_xs_gone "/local/domain/$old"
	if [ "$NETBACK" = ours ]; then
		for ((k = 0; k < q; k++)); do
			xnb_group_of "$newvif-q$k" > /dev/null ||
				{ xnb_groups_file; lab_fail "run $i: $newvif-q$k in no group"; }
		done
		lab_wait 10 mig_no_queues "$oldvif" ||
			{ xnb_groups_file; lab_fail "run $i: queues of $oldvif left in the groups"; }
	fi

	# Traffic resumes: ping, and the same TCP connection, through the new vif.
	lab_wait "$MIGRATE_RESUME_TIMEOUT" lab_ping_reply_since "$log" "$t1" ||
		{ tail -n 5 "$log"; lab_fail "run $i: no ping reply from $ip after the migration"; }
	lab_wait "$MIGRATE_RESUME_TIMEOUT" mig_bytes_at_least "$newvif" "$key" "$mig_flow_bytes" ||
		{ mig_diag "$ip"; lab_fail "run $i: TCP $what not resumed through $newvif"; }
	t2=$(date +%s.%N)
	! mig_exited "$mig_iperf" ||
		{ mig_diag "$ip"; lab_fail "run $i: iperf3 ended across the migration"; }
	# A little of both after the recovery, for the figures.
	sleep 2
	mig_stop
	gap=$(lab_ping_gap "$log" "$MIGRATE_PING_INTERVAL")
	stall=$(mig_tcp_stall /run/migrate-iperf.log)
	echo "XNB-METRIC migrate netback=$NETBACK queues=$q run=$i/$MIGRATE_COUNT tcp=$what" \
		"seconds=$(mig_secs "$t0" "$t1") $gap tcp_stall_s=$stall" \
		"tcp_resumed_s=$(mig_secs "$t1" "$t2")"
	gap=${gap#*gap_ms=}
	echo "$q ${gap%% *} $(mig_secs "$t0" "$t1")" >> "$mig_figures"
	trap - EXIT
}

# mig_recover N QUEUES: after a failed migration, whatever is left of
# g<N> (g<N>, g<N>--incoming, g<N>--migratedaway) goes, and g<N> boots
# again for the next run.
mig_recover() {
	local d ds
	ds=$(xl list | awk -v g="g$1" 'NR > 1 && ($1 == g || index($1, g "--") == 1) { print $2 }')
	for d in $ds; do xl destroy "$d" || true; done
	for d in $ds; do lab_wait 60 mig_domain_gone "$d"; done
	LAB_GUEST_VCPUS=$2 lab_guest_start "$1"
}

mig_pass=0 mig_fail=0
# mig_guest N QUEUES: MIGRATE_COUNT migrations of g<N>, one verdict each.
mig_guest() {
	local i why
	for ((i = 1; i <= MIGRATE_COUNT; i++)); do
		rm -f /run/migrate-run.failed
		# shellcheck disable=SC2034 # lab_fail (lib.sh) writes there
		if (LAB_FAILED=/run/migrate-run.failed; mig_once "$1" "$2" "$i") &&
		   [ ! -s /run/migrate-run.failed ]; then
			mig_pass=$((mig_pass + 1))
			echo "XNB-MIGRATE queues=$2 run=$i/$MIGRATE_COUNT PASS"
		else
			mig_fail=$((mig_fail + 1))
			why=$(head -n 1 /run/migrate-run.failed 2>/dev/null)
			# Xen refusing to track a PV guest's dirty pages stops
			# every migration before netback plays any part: the
			# host cannot migrate, which says nothing of the driver.
			grep -q 'Failed to enable logdirty' /run/migrate-xl.log 2>/dev/null &&
				lab_skip "Xen here cannot migrate a PV guest: $(grep -m1 -o 'Failed to enable logdirty.*' /run/migrate-xl.log)"
			echo "XNB-MIGRATE queues=$2 run=$i/$MIGRATE_COUNT FAIL ${why:-exit status}"
			mig_recover "$1" "$2"
		fi
	done
}

# With no guest: what dom0 and Xen hold before.
xnb_quiesce
xnb_leak_counters > /run/migrate-before
lab_log "before: $(xargs < /run/migrate-before)"

# Both guests boot together; g2 idles while g1 migrates.
lab_guest_create 1
LAB_GUEST_VCPUS=2 lab_guest_create 2
lab_guest_wait 1
lab_guest_wait 2
lab_assert "vif of g2 has 2 queues" test -d "/sys/class/net/$(lab_vif_name 2)/queues/tx-1"
mig_guest 1 1
mig_guest 2 2

# Per queue count: the ping gap's least, median and most, the migration's
# median time.
for q in 1 2; do
	awk -v q=$q '$1 == q { print $2, $3 }' "$mig_figures" | sort -n | awk -v q=$q -v nb="$NETBACK" '
		{ g[NR] = $1; s[NR] = $2 }
		END {
			if (!NR) exit
			# The times in order too, for their median.
			for (i = 2; i <= NR; i++) {
				v = s[i]
				for (j = i - 1; j >= 1 && s[j] > v; j--) s[j + 1] = s[j]
				s[j + 1] = v
			}
			m = int((NR + 1) / 2)
			printf "XNB-METRIC migrate-summary netback=%s queues=%d runs=%d gap_ms_min=%d gap_ms_median=%d gap_ms_max=%d seconds_median=%s\n",
				nb, q, NR, g[1], g[m], g[NR], s[m]
		}'
done

xnb_quiesce
xnb_leak_counters > /run/migrate-after
lab_log "after: $(xargs < /run/migrate-after)"
xnb_leak_compare XNB-MIGRATE "$MIGRATE_MEM_SLACK_KB" /run/migrate-before /run/migrate-after
xnb_leak_unload XNB-MIGRATE
echo "XNB-MIGRATE $((mig_pass + XNB_LEAK_PASS)) passed, $((mig_fail + XNB_LEAK_FAIL)) failed"
[ $((mig_fail + XNB_LEAK_FAIL)) -eq 0 ] ||
	lab_fail "migrate: $mig_fail of $((2 * MIGRATE_COUNT)) migrations failed, $XNB_LEAK_FAIL counters not back"
