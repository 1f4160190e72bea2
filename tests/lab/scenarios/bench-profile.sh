# bench-profile: where the CPU goes under TCP load: perf in dom0 (needs
# LAB_PERF=1) and xentop's per-domain CPU.  For each configuration (ours:
# the defaults, groups=1 tasklet; stock: one) it boots BENCH_GUESTS guests
# and profiles TCP both ways with 1 guest and with all of them (bench-prof
# lines, see bench-full.sh's bench_profile).  Prints no metrics and
# asserts nothing:
#   LAB_PERF=1 make lab SCENARIOS=bench-profile [NETBACK=stock]
[ -x /lab/perf/perf ] || lab_skip "no perf in dom0 (LAB_PERF=1)"
BENCH_LIB_ONLY=1 . /lab/scenarios/bench-full.sh
bench_vif_script
export BENCH_T=${BENCH_T:-10}
guests=${BENCH_GUESTS:-4}
if [ "$NETBACK" = ours ]; then
	configs=("g$(nproc)-kthread|groups=$(nproc) worker=kthread" "g1-tasklet|groups=1 worker=tasklet")
else
	configs=("stock|")
fi
for c in "${configs[@]}"; do
	BENCH_CFG=${c%%|*}
	lab_destroy_all > /dev/null 2>&1
	lab_unload_backend
	lab_load_backend "${c#*|}"
	for ((i = 1; i <= guests; i++)); do lab_guest_create $i; done
	for ((i = 1; i <= guests; i++)); do lab_guest_wait $i; done
	for dir in rx tx; do
		bench_profile $dir 1
		bench_profile $dir "$guests"
	done
done
lab_destroy_all > /dev/null 2>&1
lab_unload_backend
lab_load_backend
