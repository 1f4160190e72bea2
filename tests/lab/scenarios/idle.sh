# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# idle: a lab that measures the driver must itself be quiet.  Three idle
# guests each use under 5 % of a CPU (xl list CPU time over 30 s; they
# used ~40 % each when their command channel polled xenstore), and the
# blocking command channel keeps its contract: exit status, output of
# over 2 KiB (split over two xenstore nodes), stdout and stderr, timeout.
lab_guest_create 1
lab_guest_create 2
lab_guest_create 3
lab_guest_wait 1
lab_guest_wait 2
lab_guest_wait 3
sleep 10

# "name cpu-seconds" of every guest.
idle_cpu() { xl list | awk 'NR > 2 { print $1, $NF }'; }

before=$(idle_cpu)
t0=$(cut -d' ' -f1 /proc/uptime)
sleep 30
after=$(idle_cpu)
t1=$(cut -d' ' -f1 /proc/uptime)
xentop -b -i 2 -d 5 | grep -vE '^ *$' || true
pcts=$(awk -v a="$before" -v t0="$t0" -v t1="$t1" '
	BEGIN { n = split(a, l, "\n"); for (i = 1; i <= n; i++) { split(l[i], f, " "); s[f[1]] = f[2] } }
	{ printf "%s %.1f\n", $1, 100 * ($2 - s[$1]) / (t1 - t0) }' <<<"$after")
while read -r name pct; do
	echo "XNB-METRIC idle guest=$name cpu_pct=$pct"
	lab_assert_gt 5 "$pct" "idle guest $name uses under 5 % CPU"
done <<<"$pcts"

lab_guest_exec 2 "exit 3" >/dev/null
lab_assert "exit status comes back" test $? -eq 3
# xenstore-read escapes newlines: "...\n1999\n2000".
out=$(lab_guest_exec 3 "seq 1 2000")
echo "long output: ${#out} bytes, ends with ${out: -12}"
long() { [[ $out == *1999*2000 ]] && [ "${#out}" -ge 2900 ]; }
lab_assert "the last 3000 bytes of a long output come back" long
out=$(lab_guest_exec 3 "echo a; echo b >&2")
# (The escaped trailing newline stays: "a\nb\n".)
both() { [[ $out == a*b* ]]; }
lab_assert "stdout and stderr come back" both
out=$(lab_guest_exec 3 "sleep 3; echo slept" 20)
slept() { [[ $out == slept* ]]; }
lab_assert "a command may take seconds" slept
