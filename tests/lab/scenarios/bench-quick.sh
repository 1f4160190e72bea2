# bench-quick: `make bench QUICK=1` (run by `make check` so the harness
# cannot rot): bench-full with one repetition, 2 s iperf runs, 2 guests,
# the 1/16-vif phase (threads, memory, connect time) in the first
# configuration only, and two of our four configurations (the default one
# and its opposite, groups=1 with tasklets).  A smoke test, not a measurement.
export BENCH_REPS=1 BENCH_T=${BENCH_T:-2} BENCH_VIFS=first BENCH_GUESTS=${BENCH_GUESTS:-2}
export BENCH_CYCLE_TIMEOUT=${BENCH_CYCLE_TIMEOUT:-600}
export BENCH_ONLY=${BENCH_ONLY:-"g$(nproc)-kthread g1-tasklet stock"}
. /lab/scenarios/bench-full.sh
