#!/usr/bin/env bash
# One device call (under 600 s with SUITE_S at 170): what session 20's throughput levers and session
# 21's lending of a job's call/exe allowance in perf do, on whatever GPU is lent. First the memory a
# CUDA context holds outside the allocator (benchmarks/cuda_context_probe.py), the GPU test of a
# baseline that overshoots its perf-memory estimate (eager attention), then two suite cuts with perf of SUITE_S seconds each: the default workers per
# GPU, and 8 (fewer call/exe workers leave their 2 GiB allowances to the perf budget, the bound of a
# suite with perf on an H100). Compare each with call 3 of
# benchmarks/results/2026-12-06-h100-timed-breakdown/ (35 jobs in 200 s, the timing lock held 62%
# of the time, 38.5 s of it waiting for the parent's GPU work, before the fix of that wait).
#   bash benchmarks/device_levers.sh [SUITE_S]   (on the device: $OUT set, packages on PYTHONPATH)
# Writes $OUT/levers.tgz (each cut's throughput.json, journal and GPU memory log) and prints digests.
set -uo pipefail
. "$(dirname "$0")/device_lib.sh"
SUITE_S=${1:-200}
run_dir levers
step cuda_context 60 python3 benchmarks/cuda_context_probe.py  # what a job in perf keeps of its allowance
step overshoot_test 150 python3 -m pytest -q -p no:cacheprovider -rfEs -m gpu tests/test_gpu_memory.py -k baseline_over
for workers in default 8; do
  nvidia-smi --query-gpu=timestamp,memory.used,memory.total,utilization.gpu --format=csv,noheader -lms 500 \
    > "$R/gpu_memory_$workers.csv" 2>&1 &
  SMI=$!
  if [ "$workers" = default ]; then
    step "suite_$workers" $((SUITE_S + 30)) python3 benchmarks/throughput.py --out "$R/tp_$workers" --parts with_perf \
      --suite-timeout "$SUITE_S"
  else
    KERNELBENCHX_WORKERS=$workers step "suite_$workers" $((SUITE_S + 30)) python3 benchmarks/throughput.py \
      --out "$R/tp_$workers" --parts with_perf --suite-timeout "$SUITE_S"
  fi
  kill $SMI 2>/dev/null
  echo "== workers: $workers"
  python3 benchmarks/suite_digest.py "$R/tp_$workers" "$R/gpu_memory_$workers.csv" | cut -c1-600
  tar czf "$OUT/levers.tgz" -C /tmp levers
done
