#!/usr/bin/env bash
# Issue 15 on the GPU machine: the tasks of MatrixMultiply, Normalization, Optimizer and Quantization
# natively. Usage (GPU machine, repo root):
#   OUT=<dir> [CATEGORIES="Optimizer/ ..."] bash benchmarks/device_new_tasks.sh golden    # golden results
#       (call + exe + perf + torch.compile of every bundled solution, the roofline re-measured, int8
#       included) and the matmul table
#   OUT=<dir> [VARIANT_TASKS=MatrixMultiply/,...] bash benchmarks/device_new_tasks.sh variants
#   OUT=<dir> bash benchmarks/device_new_tasks.sh all       # both
set -uo pipefail
OUT=${OUT:-runs/new-tasks}
PART=${1:-golden}
CATEGORIES=${CATEGORIES:-"MatrixMultiply/ Normalization/ Optimizer/ Quantization/"}
mkdir -p "$OUT"
export PYTHONPATH=${PYTHONPATH:+$PYTHONPATH:}$PWD PYTHONUNBUFFERED=1
{
  date -u +"date: %Y-%m-%dT%H:%M:%SZ"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader
  python3 -c "import torch, triton, sys; print('python', sys.version.split()[0], 'torch', torch.__version__, 'cuda', torch.version.cuda, 'triton', triton.__version__)"
  echo "cpus: $(nproc)"
} 2>&1 | tee "$OUT/env_$PART.txt"

if [ "$PART" = golden ] || [ "$PART" = all ]; then
  GOLDEN=golden_results/h200
  rm -rf /tmp/golden_run
  start=$(date +%s)
  timeout ${GOLDEN_TIMEOUT:-540} python3 -m harness.cli golden $CATEGORIES --out /tmp/golden_run --golden-out "$GOLDEN" \
    > "$OUT/golden.txt" 2>&1
  echo "golden wall: $(( $(date +%s) - start )) s" | tee -a "$OUT/golden.txt"
  grep -v "^\[" "$OUT/golden.txt" | tail -25
  tar czf "$OUT/golden_h200.tgz" "$GOLDEN"
  for f in metrics.json summary.json journal.jsonl; do [ -f /tmp/golden_run/$f ] && cp /tmp/golden_run/$f "$OUT/golden_$f"; done
  [ -f /tmp/golden_run/metrics.json ] && python3 benchmarks/matmul_table.py /tmp/golden_run/metrics.json \
    "$GOLDEN/roofline.json" MatrixMultiply Quantization | tee "$OUT/matmul_table.md"
fi

if [ "$PART" = variants ] || [ "$PART" = all ]; then
  VARIANT_TASKS=${VARIANT_TASKS:-MatrixMultiply/,Normalization/,Optimizer/,Quantization/} \
    OUT=$OUT/variants bash benchmarks/device_tasks_suite.sh
fi
