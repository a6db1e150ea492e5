#!/usr/bin/env bash
# Device run for issue 3 (perf). Usage on the GPU machine, from the repo root:
#   OUT=<dir> bash benchmarks/device_perf.sh suite    # gpu tests; the 28 first tasks timed twice (golden, eval)
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

GOLDEN=golden_results/h200   # in the working tree: a later call merges into what earlier calls measured
golden() {  # golden() LIMIT RUN_DIR FILTER...: golden results for the filtered tasks, merged into $GOLDEN
  local limit=$1 run=$2; shift 2
  local start=$(date +%s)
  timeout "$limit" python3 -m harness.cli golden "$@" --out "$run" --golden-out "$GOLDEN" -q --workers 8 \
    > "$run.txt" 2>&1
  grep -v Warning "$run.txt" | tail -12
  echo "$(basename "$run") (golden $*) wall: $(( $(date +%s) - start )) s" | tee -a "$OUT/walls.txt"
  # $OUT returns few files, two folders deep at most: one archive each for the golden folder and the runs.
  tar czf "$OUT/golden_h200.tgz" "$GOLDEN"
}
runs_archive() { (cd "$OUT" && tar czf runs.tgz --exclude='*.tgz' "$@" && rm -rf "$@"); }

if [ "$PART" = suite ]; then
  start=$(date +%s)
  timeout 120 python3 -m pytest -q -p no:cacheprovider -m gpu tests/test_perf.py > "$OUT/perf_gpu_tests.txt" 2>&1
  echo "gpu tests wall: $(( $(date +%s) - start )) s" >> "$OUT/perf_gpu_tests.txt"
  tail -5 "$OUT/perf_gpu_tests.txt"
  # Pass 1 is the golden run of the 28 tasks (eager, torch.compile and the reference solutions, timed
  # as eval times them); pass 2 evaluates the same solutions again in the same call.
  golden 270 "$OUT/pass1" Activation Reduce Loss
  SUITE=$(mktemp -d)
  cp -r solutions/Activation solutions/Reduce solutions/Loss "$SUITE/"
  start=$(date +%s)
  timeout 170 python3 -m harness.cli eval "$SUITE" --out "$OUT/pass2" --compile -q --workers 8 > "$OUT/pass2.txt" 2>&1
  grep -v Warning "$OUT/pass2.txt" | tail -12
  echo "pass2 (eval) wall: $(( $(date +%s) - start )) s" | tee -a "$OUT/walls.txt"
  python3 -m harness.cli report "$OUT/pass1" "$OUT/pass2" > "$OUT/perf28.md"
  grep -A2 "Repeatability" "$OUT/perf28.md"; sed -n 1,14p "$OUT/perf28.md"
  runs_archive pass1 pass2
fi

if [ "$PART" = golden ]; then
  # 81 tasks take more than one 10-minute call: a few categories per call (FILTER: task-id substrings).
  # RESUME_RUN=<run dir in the tree>: continue a golden run an earlier call's limit cut short.
  if [ -n "${RESUME_RUN:-}" ]; then rm -rf "$OUT/golden_run" && cp -r "$RESUME_RUN" "$OUT/golden_run"; fi
  golden "${GOLDEN_TIMEOUT:-500}" "$OUT/golden_run" "$@" ${RESUME_RUN:+--resume}
  python3 -m harness.cli report "$OUT/golden_run" > "$OUT/golden.md" && sed -n 1,14p "$OUT/golden.md"
  runs_archive golden_run
fi
