#!/usr/bin/env bash
# Issue 14 on the GPU machine: the suite's call/exe wall time in one process per job (profiled, and
# the per-task seconds written to golden_results/<gpu>/job_seconds.json), then with the default
# scheduling (long jobs first, idle slots shared out), then one perf run against golden results.
#   OUT=<dir> bash benchmarks/device_speed.sh [PERF CATEGORIES...]
set -uo pipefail
OUT=${OUT:-runs/speed}
mkdir -p "$OUT"
export PYTHONPATH=${PYTHONPATH:+$PYTHONPATH:}$PWD PYTHONUNBUFFERED=1
OUT=$OUT/single bash benchmarks/device_profile.sh solutions --shards 1
python3 benchmarks/job_seconds.py "$OUT/single/profiled_metrics.json" golden_results/h200/job_seconds.json
cp golden_results/h200/job_seconds.json "$OUT/job_seconds.json"
start=$(date +%s)
timeout 200 python3 -m harness.cli eval solutions --out "$OUT/default_run" --no-perf > "$OUT/default_run.txt" 2>&1
echo "default scheduling (call + exe) wall: $(( $(date +%s) - start )) s" | tee -a "$OUT/default_run.txt"
grep -v "^\[" "$OUT/default_run.txt" | tail -6
cp "$OUT/default_run/summary.json" "$OUT/default_summary.json"; cp "$OUT/default_run/metrics.json" "$OUT/default_metrics.json"
rm -rf "$OUT/default_run"
if [ $# -gt 0 ]; then OUT=$OUT/perf timeout 300 bash benchmarks/device_check.sh perf "$@"; fi
