#!/usr/bin/env bash
# Device run for issue 2: the bundled solutions and the bad/cheating corpus, natively on the GPU.
# Usage (on the GPU machine, from the repo root): OUT=<dir> bash benchmarks/device_call_exe.sh
set -uo pipefail
OUT=${OUT:-runs/device}
mkdir -p "$OUT"
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
{
  date -u +"date: %Y-%m-%dT%H:%M:%SZ"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  python3 -c "import torch, triton, sys; print('python', sys.version.split()[0], 'torch', torch.__version__, 'cuda', torch.version.cuda, 'triton', triton.__version__)"
  python3 -c "from harness.sandbox.confine import landlock_abi; print('landlock abi', landlock_abi())"
} 2>&1 | tee "$OUT/env.txt"
start=$(date +%s)
python3 -m harness.cli eval solutions --out "$OUT/solutions" -q 2>&1 | tee "$OUT/solutions.txt"
echo "solutions wall: $(( $(date +%s) - start )) s" | tee -a "$OUT/solutions.txt"
cp "$OUT/solutions/summary.json" "$OUT/solutions_summary.json"
cp "$OUT/solutions/metrics.json" "$OUT/solutions_metrics.json"
python3 -m pytest -q -p no:cacheprovider tests 2>&1 | tail -40 | tee "$OUT/pytest.txt"
