#!/usr/bin/env bash
# Device run for issue 3 (perf). Usage on the GPU machine, from the repo root:
#   OUT=<dir> bash benchmarks/device_perf.sh suite    # gpu tests + the 28 first tasks timed twice
#   OUT=<dir> bash benchmarks/device_perf.sh golden [FILTER...]  # golden_results/<gpu>/ (filters:
#                                                     # task-id substrings, e.g. Activation Loss)
set -uo pipefail
OUT=${OUT:-runs/device-perf}
PART=${1:-suite}
shift || true
mkdir -p "$OUT"
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
{
  date -u +"date: %Y-%m-%dT%H:%M:%SZ"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem,clocks.max.sm,temperature.gpu,power.draw,pstate --format=csv
  python3 -c "import torch, triton, sys; print('python', sys.version.split()[0], 'torch', torch.__version__, 'cuda', torch.version.cuda, 'triton', triton.__version__)"
  nproc
} 2>&1 | tee "$OUT/env_$PART.txt"

if [ "$PART" = suite ]; then
  start=$(date +%s)
  timeout 150 python3 -m pytest -q -p no:cacheprovider -m gpu tests/test_perf.py > "$OUT/perf_gpu_tests.txt" 2>&1
  echo "gpu tests wall: $(( $(date +%s) - start )) s" >> "$OUT/perf_gpu_tests.txt"
  tail -25 "$OUT/perf_gpu_tests.txt"
  SUITE=$(mktemp -d)
  cp -r solutions/Activation solutions/Reduce solutions/Loss "$SUITE/"
  for pass in 1 2; do
    start=$(date +%s)
    limit=$([ $pass = 1 ] && echo 280 || echo 200)
    timeout $limit python3 -m harness.cli eval "$SUITE" --out "$OUT/pass$pass" --compile -q --workers 8 > "$OUT/pass$pass.txt" 2>&1
    grep -v Warning "$OUT/pass$pass.txt" | tail -12
    echo "pass $pass wall: $(( $(date +%s) - start )) s" | tee -a "$OUT/walls.txt"
  done
  python3 benchmarks/perf_report.py "$OUT/pass1" "$OUT/pass2" > "$OUT/perf28.md"
  grep -A2 "Repeatability" "$OUT/perf28.md"; sed -n 1,14p "$OUT/perf28.md"
fi

if [ "$PART" = golden ]; then
  start=$(date +%s)
  # 81 tasks take more than one 10-minute call: measure a few categories per call (FILTER...).
  timeout ${GOLDEN_TIMEOUT:-500} python3 -m harness.cli golden "$@" --out "$OUT/golden_run" \
    --golden-out "$OUT/golden_results/h200" -q --workers 8 > "$OUT/golden.txt" 2>&1
  grep -v Warning "$OUT/golden.txt" | tail -30
  echo "golden wall: $(( $(date +%s) - start )) s" | tee -a "$OUT/walls.txt"
  python3 benchmarks/perf_report.py "$OUT/golden_run" > "$OUT/golden.md" && sed -n 1,14p "$OUT/golden.md"
fi
