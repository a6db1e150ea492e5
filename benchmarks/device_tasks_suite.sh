#!/usr/bin/env bash
# Device run for the task suite (issues 2 and 5), natively on the GPU (call and exe; perf is
# device_perf.sh's job). Usage (GPU machine, repo root):  OUT=<dir> bash benchmarks/device_tasks_suite.sh
#  1. a zygote check: the Random solutions with forked GPU workers (the default); the variants run
#     uses the zygote only if both pass (KERNELBENCHX_NO_ZYGOTE=1 otherwise);
#  2. tests/test_wrong_variants.py: every wrong variant of every task must fail exe, and every
#     task's unmodified solution (a control in the same run) must pass.
# VARIANT_TASKS=Activation,Loss,... runs only those tasks' variants (all 81 tasks' take more than one
# 10-minute call natively: split them over calls).
# Outputs: env.txt, zygote_check.txt, variants.txt, variants_verdicts.txt, variants_run.tgz (journal, and
# metrics and summary when the run finished).
set -uo pipefail
OUT=${OUT:-runs/device}
mkdir -p "$OUT"
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
{
  date -u +"date: %Y-%m-%dT%H:%M:%SZ"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  python3 -c "import torch, triton, sys; print('python', sys.version.split()[0], 'torch', torch.__version__, 'cuda', torch.version.cuda, 'triton', triton.__version__)"
  nproc
} 2>&1 | tee "$OUT/env.txt"
# A warm machine keeps /tmp between calls: start from nothing, or a stale result is read back.
rm -rf /tmp/zygote_check /tmp/variants

start=$(date +%s)
timeout 120 python3 -m harness.cli eval solutions/Random --out /tmp/zygote_check \
  --no-perf 2>&1 | grep -v Warning > "$OUT/zygote_check.txt"
echo "zygote check wall: $(( $(date +%s) - start )) s" >> "$OUT/zygote_check.txt"
cat "$OUT/zygote_check.txt"
ZYGOTE=$(python3 -c "import json; s=json.load(open('/tmp/zygote_check/summary.json')); print(int(s['jobs'] == 2 and s['exe_rate'] == 1.0))" 2>/dev/null || echo 0)
echo "GPU zygote for the variants run: $ZYGOTE" | tee -a "$OUT/zygote_check.txt"

start=$(date +%s)
# Written straight to the file (no pipe), so a run cut short still leaves its progress.
KERNELBENCHX_VARIANT_TASKS=${VARIANT_TASKS:-} KERNELBENCHX_NO_ZYGOTE=$((1 - ZYGOTE)) KERNELBENCHX_WORKERS=${KERNELBENCHX_WORKERS:-14} timeout ${VARIANTS_TIMEOUT:-520} \
  python3 -m pytest -q -p no:cacheprovider --basetemp=/tmp/variants tests/test_wrong_variants.py > "$OUT/variants.txt" 2>&1
echo "variants wall: $(( $(date +%s) - start )) s" | tee -a "$OUT/variants.txt"
tail -15 "$OUT/variants.txt"
# metrics.json is written at the end of a run; a run cut by the timeout still has its journal.
run_dir=$(dirname "$(find /tmp/variants -name journal.jsonl | head -1)" 2>/dev/null)
[ -n "$run_dir" ] && python3 - "$run_dir" > "$OUT/variants_verdicts.txt" <<'PY'
import collections, json, pathlib, sys
run = pathlib.Path(sys.argv[1])
if (run / "metrics.json").exists():
    rows = json.loads((run / "metrics.json").read_text())
else:
    print("run cut short: verdicts from journal.jsonl")
    rows = [r for r in map(json.loads, (run / "journal.jsonl").read_text().splitlines()) if r.get("kind") != "header"]
print(f"jobs: {len(rows)} (the first job of each task is its unmodified solution)")
print("verdicts:", dict(collections.Counter(r.get("verdict") for r in rows)))
print("mode:", dict(collections.Counter(r.get("mode") for r in rows)))
PY
[ -n "$run_dir" ] && tar czf "$OUT/variants_run.tgz" -C "$run_dir" $(cd "$run_dir" && ls journal.jsonl metrics.json summary.json 2>/dev/null)
cat "$OUT/variants_verdicts.txt" 2>/dev/null
