#!/usr/bin/env bash
# Where a native suite run's time goes, sampled from outside: py-spy records every process of
# `kernelbenchx eval solutions --no-perf` (parent, fork server, workers) as raw stacks, idle frames
# included (a worker waiting on ptxas or a lock shows as waiting).
# Usage on the GPU machine, from the repo root, with py-spy installed (a wheel, see benchmarks/README.md):
#   OUT=<dir> bash benchmarks/device_profile.sh [SOLUTIONS_DIR] [EVAL OPTIONS...]
set -uo pipefail
OUT=${OUT:-runs/profile}
SOLUTIONS=${1:-solutions}
shift || true
mkdir -p "$OUT"
export PYTHONPATH=${PYTHONPATH:+$PYTHONPATH:}$PWD PYTHONUNBUFFERED=1
start=$(date +%s)
timeout 280 py-spy record --subprocesses --idle --rate 20 --format raw --output "$OUT/stacks.txt" -- \
  python3 -m harness.cli eval "$SOLUTIONS" --out "$OUT/profiled_run" --no-perf "$@" \
  > "$OUT/profiled_run.txt" 2>&1
echo "profiled run (call + exe, options: $*) wall: $(( $(date +%s) - start )) s" | tee -a "$OUT/profiled_run.txt"
grep -v "^\[" "$OUT/profiled_run.txt" | tail -8
python3 -c "import json,sys; s=json.load(open(sys.argv[1])); print(json.dumps({k: s.get(k) for k in ('jobs','exe_rate','wall_s','time_breakdown_s')}))" \
  "$OUT/profiled_run/summary.json" | tee "$OUT/profiled_summary.txt"
cp "$OUT/profiled_run/metrics.json" "$OUT/profiled_metrics.json"
cp "$OUT/profiled_run/summary.json" "$OUT/profiled_summary.json"
rm -rf "$OUT/profiled_run"
