#!/usr/bin/env bash
# Device check after a change to the engine: every bundled solution natively (call + exe), the
# bad/cheating corpus and the GPU tests natively, then one category through perf with golden results.
# Usage on the GPU machine, from the repo root:
#   OUT=<dir> bash benchmarks/device_check.sh native     # solutions (no perf), corpus, adversarial, gpu tests
#   OUT=<dir> bash benchmarks/device_check.sh perf [CATEGORY...]   # perf + torch.compile, golden compared
set -uo pipefail
OUT=${OUT:-runs/device-check}
PART=${1:-native}
shift || true
CATEGORIES=${*:-Activation}
mkdir -p "$OUT"
export PYTHONPATH=${PYTHONPATH:+$PYTHONPATH:}$PWD PYTHONUNBUFFERED=1
{
  date -u +"date: %Y-%m-%dT%H:%M:%SZ"
  git log -1 --format="commit: %H %s" 2>/dev/null || true
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader
  python3 -c "import torch, triton, sys; print('python', sys.version.split()[0], 'torch', torch.__version__, 'cuda', torch.version.cuda, 'triton', triton.__version__)"
  python3 -c "from harness.sandbox.confine import landlock_abi; print('landlock abi', landlock_abi())"
  echo "cpus: $(nproc)"
} 2>&1 | tee "$OUT/env_$PART.txt"

if [ "$PART" = native ]; then
  start=$(date +%s)
  timeout 240 python3 -m harness.cli eval solutions --out "$OUT/solutions" --no-perf --workers 8 > "$OUT/solutions.txt" 2>&1
  echo "solutions (call + exe, native) wall: $(( $(date +%s) - start )) s" | tee -a "$OUT/solutions.txt"
  grep -v "^\[" "$OUT/solutions.txt" | tail -16
  cp "$OUT/solutions/summary.json" "$OUT/solutions_summary.json"
  start=$(date +%s)
  timeout 300 python3 -m pytest -q -p no:cacheprovider tests/test_corpus.py tests/test_adversarial.py tests/test_perf.py \
    > "$OUT/pytest_native.txt" 2>&1
  echo "corpus, adversarial and perf tests wall: $(( $(date +%s) - start )) s" >> "$OUT/pytest_native.txt"
  tail -12 "$OUT/pytest_native.txt"
  rm -rf "$OUT/solutions"
fi

if [ "$PART" = perf ]; then
  SUITE=$(mktemp -d)
  for c in $CATEGORIES; do cp -r "solutions/$c" "$SUITE/"; done
  start=$(date +%s)
  timeout 400 python3 -m harness.cli eval "$SUITE" --out "$OUT/perf_run" --compile --workers 8 > "$OUT/perf_run.txt" 2>&1
  echo "perf run ($CATEGORIES) wall: $(( $(date +%s) - start )) s" | tee -a "$OUT/perf_run.txt"
  grep -v "^\[" "$OUT/perf_run.txt" | tail -12
  python3 -m harness.cli report "$OUT/perf_run" > "$OUT/perf_report.md"
  sed -n 1,16p "$OUT/perf_report.md"
  python3 - "$OUT/perf_run/metrics.json" <<'PY' | tee "$OUT/golden_compared.txt"
import json, sys
jobs = json.load(open(sys.argv[1]))
with_golden = [j for j in jobs if (j.get("perf_metrics") or {}).get("speedup_vs_golden_triton")]
ratios = [j["perf_metrics"]["speedup_vs_golden_triton"] for j in with_golden]
print(f"{len(with_golden)}/{len(jobs)} jobs compared with golden results; speedup vs golden reference-Triton "
      f"per job: min {min(ratios, default=0):.4f}, max {max(ratios, default=0):.4f}; "
      f"{sum(abs(r - 1) <= 0.02 for r in ratios)} within 2%; verdicts: "
      f"{sorted({j['verdict'] for j in jobs})}")
for j in jobs:
    r = (j.get("perf_metrics") or {}).get("speedup_vs_golden_triton")
    if j["verdict"] != "ok" or (r and abs(r - 1) > 0.02):
        print(f"  {j['task_id']}: {j['verdict']} {j['perf']['status']} {r} {j['perf']['detail'][:200]}")
PY
  cp "$OUT/perf_run/summary.json" "$OUT/perf_summary.json"
  cp "$OUT/perf_run/metrics.json" "$OUT/perf_metrics.json"
  rm -rf "$OUT/perf_run"
fi
