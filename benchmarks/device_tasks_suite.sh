#!/usr/bin/env bash
# Device run for the task suite (issues 2 and 5): every bundled solution and every wrong variant,
# natively on the GPU (call and exe; perf is device_perf.sh's job). Usage (GPU machine, repo root):
#   OUT=<dir> bash benchmarks/device_tasks_suite.sh              # both (the variants need ~8 min alone)
#   SKIP_SOLUTIONS=1 OUT=<dir> bash benchmarks/device_tasks_suite.sh   # wrong variants only
set -uo pipefail
OUT=${OUT:-runs/device}
mkdir -p "$OUT"
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
{
  date -u +"date: %Y-%m-%dT%H:%M:%SZ"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  python3 -c "import torch, triton, sys; print('python', sys.version.split()[0], 'torch', torch.__version__, 'cuda', torch.version.cuda, 'triton', triton.__version__)"
} 2>&1 | tee "$OUT/env.txt"
start=$(date +%s)
[ "${SKIP_SOLUTIONS:-0}" = 1 ] || python3 -m harness.cli eval solutions --out "$OUT/solutions" -q --workers 12 --no-perf 2>&1 | grep -v Warning | tee "$OUT/solutions.txt"
echo "solutions wall: $(( $(date +%s) - start )) s" | tee -a "$OUT/solutions.txt"
cp "$OUT/solutions/summary.json" "$OUT/solutions_summary.json" 2>/dev/null
start=$(date +%s)
# Written straight to the file (no pipe), so a run cut short still leaves its progress.
KERNELBENCHX_WORKERS=${KERNELBENCHX_WORKERS:-14} timeout ${VARIANTS_TIMEOUT:-540} \
  python3 -m pytest -q -p no:cacheprovider tests/test_wrong_variants.py > "$OUT/variants.txt" 2>&1
tail -15 "$OUT/variants.txt"
echo "variants wall: $(( $(date +%s) - start )) s" | tee -a "$OUT/variants.txt"
rm -rf "$OUT/solutions"
