#!/usr/bin/env bash
# One device call (about 60-120 s): the bundled solutions of a set of tasks, call and exe natively
# (cases split or made stricter on the CPU must hold on the GPU too: references there are torch's
# CUDA kernels, candidates Triton's compiled ones).
#   bash benchmarks/device_changed_tasks.sh <list file> [extra eval options]   solutions/... paths,
#                                                                              one per line
#   bash benchmarks/device_changed_tasks.sh <base commit> [...]               tasks changed since it
#                                                                              (needs git history)
#   PERF=1 bash benchmarks/device_changed_tasks.sh ...                        with perf too
# Session 16's split tasks: benchmarks/results/2026-12-06-h100-mixed-inputs/split_tasks.txt; session
# 17's structured perf mixes (PERF=1): .../structured_mix_tasks.txt in the same folder.
# On the device: $OUT set, packages on PYTHONPATH. Writes $OUT/changed/ and prints the table and
# every job that is not `ok` with the end of its detail.
set -uo pipefail
WHICH=${1:?a list file or a base commit}; shift
mkdir -p "$OUT/changed"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
if [ -f "$WHICH" ]; then
  LISTED=$(cat "$WHICH")
else
  LISTED=$(git diff --name-only "$WHICH" -- harness/tasks | grep '\.py$' | sed 's|^harness/tasks/|solutions/|')
fi
mapfile -t FILES < <(for f in $LISTED; do [ -f "$f" ] && echo "$f"; done)
echo "${#FILES[@]} bundled solutions ($WHICH)"
PERF_OPTION=--no-perf
[ "${PERF:-0}" = 1 ] && PERF_OPTION=--perf-samples
python3 -m harness.cli eval "${FILES[@]}" --out "$OUT/changed/run" -q $PERF_OPTION "$@" 2>&1 | tail -12
python3 - "$OUT/changed/run/metrics.json" <<'PY'
import json, sys
for rec in json.load(open(sys.argv[1])):
    if rec["verdict"] != "ok":
        stage = next((s for s in ("call", "exe", "perf") if (rec.get(s) or {}).get("status") not in (None, "ok", "skipped")), "call")
        print(rec["task_id"], rec["verdict"], rec[stage]["detail"][-400:].replace("\n", " | "))
PY
