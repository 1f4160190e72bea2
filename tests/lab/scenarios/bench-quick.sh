# bench-quick: `make bench QUICK=1` (run by `make check`): bench-full with
# one repetition and 3 s iperf runs.  Numbers are a smoke test, not a measurement.
export BENCH_REPS=1 BENCH_T=${BENCH_T:-3} BENCH_CYCLE_TIMEOUT=${BENCH_CYCLE_TIMEOUT:-600}
. /lab/scenarios/bench-full.sh
