#!/usr/bin/env bash
# One device step: where a perf job's timed phase goes, sampled from outside. py-spy records every
# process of `kernelbenchx eval SOLUTIONS` with perf (parent, fork server, workers, baselines) as
# raw stacks at 100 Hz, idle frames included, first with the default workers, then with one worker
# (each job's timed phase alone, no other job's processes stopped and continued around it).
#   [PROFILE_WORKERS="default 1"] bash benchmarks/device_perf_profile.sh LIMIT_S [SOLUTIONS...]
#   (on the device: $OUT set, packages on PYTHONPATH, py-spy's wheel carried; each run under LIMIT_S)
# Writes $OUT/perf_profile.tgz (stacks, the runs' metrics and summaries) and prints the summaries.
set -uo pipefail
. "$(dirname "$0")/device_lib.sh"
LIMIT=${1:-200}; shift || true
SOLUTIONS=("${@:-solutions/Activation}")
run_dir perf_profile
git rev-parse --short HEAD > "$R/commit.txt" 2>/dev/null
PYSPY=$(python3 -c "import os, sys; print(next(os.path.join(p, 'bin', 'py-spy') for p in sys.path if os.path.exists(os.path.join(p, 'bin', 'py-spy'))))" 2>/dev/null || command -v py-spy)
for workers in ${PROFILE_WORKERS:-default 1}; do
  opts=(); [ "$workers" = 1 ] && opts=(--workers 1)
  step "profile_$workers" "$LIMIT" "$PYSPY" record --subprocesses --idle --rate 100 --format raw \
    --output "$R/stacks_$workers.txt" -- python3 -m harness.cli eval "${SOLUTIONS[@]}" --out "$R/run_$workers" -q "${opts[@]}"
  cp "$R/run_$workers/metrics.json" "$R/metrics_$workers.json" 2>/dev/null
  cp "$R/run_$workers/summary.json" "$R/summary_$workers.json" 2>/dev/null
  rm -rf "$R/run_$workers"
  tar czf "$OUT/perf_profile.tgz" -C /tmp perf_profile
  python3 -c "import json,sys; s=json.load(open(sys.argv[1])); print(json.dumps({k: s.get(k) for k in ('jobs','wall_s','time_breakdown_s')}))" \
    "$R/summary_$workers.json" 2>&1 | tail -1
done
