# bench-quick: `make bench QUICK=1` (run by `make check`): bench-full with
# one repetition, 3 s iperf runs, and the 1/16-vif phase (threads, memory,
# connect time) only in the first configuration of each boot.  Numbers are a smoke test, not a measurement.
export BENCH_REPS=1 BENCH_T=${BENCH_T:-3} BENCH_VIFS=first BENCH_CYCLE_TIMEOUT=${BENCH_CYCLE_TIMEOUT:-900}
. /lab/scenarios/bench-full.sh
