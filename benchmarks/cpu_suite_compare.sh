#!/usr/bin/env bash
# The CPU interpreter suite against the one issue 14 was filed on (its target: no slower), on this
# machine: the 81 solutions the project had at commit OLD, evaluated by OLD's harness and by this
# checkout's (its own solutions for the same tasks), then every solution of this checkout.
#   bash benchmarks/cpu_suite_compare.sh [OUT]    (OLD=<commit> to compare with another)
# Needs a CPU-only torch and this checkout's dependencies installed; takes a few minutes per run.
set -euo pipefail
cd "$(dirname "$0")/.."
OLD=${OLD:-861f6d6}
OUT=$(realpath -m "${1:-runs/cpu-suite}")
mkdir -p "$OUT"
OLD_TREE="$OUT/old-tree"
rm -rf "$OLD_TREE" && git worktree prune && git worktree add -q --detach "$OLD_TREE" "$OLD"
trap 'git worktree remove --force "$OLD_TREE"' EXIT
# the same 81 tasks, each with this checkout's solution
python3 - "$OLD_TREE" "$OUT/same-tasks.jsonl" <<'PY'
import json, sys
from pathlib import Path
old, out = Path(sys.argv[1]), Path(sys.argv[2])
rows = [{"file": str(p.relative_to(old / "solutions")), "predict": Path("solutions", p.relative_to(old / "solutions")).read_text(),
         "sample_id": 0} for p in sorted((old / "solutions").rglob("*.py"))]
out.write_text("".join(json.dumps(r) + "\n" for r in rows))
print(f"{len(rows)} tasks")
PY
run() {  # name, tree, predictions
  local start end
  start=$(date +%s.%N)
  (cd "$2" && PYTHONPATH="$2" python3 -m harness.cli eval "$3" --out "$OUT/$1" -q) > "$OUT/$1.log" 2>&1 || echo "$1: exit $?" >> "$OUT/$1.log"
  end=$(date +%s.%N)
  python3 - "$OUT/$1" "$1" "$start" "$end" <<'PY'
import collections, json, sys
from pathlib import Path
out, name, start, end = Path(sys.argv[1]), sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
metrics = json.loads((out / "metrics.json").read_text()) if (out / "metrics.json").exists() else []
verdicts = collections.Counter(m["verdict"] for m in metrics)
print(f"{name}: {end - start:.1f} s wall, {len(metrics)} jobs, verdicts {dict(verdicts)}")
PY
}
{
  echo "date: $(date -u +%FT%TZ)  machine: $(nproc) cores, $(python3 -c 'import platform; print(platform.processor() or platform.machine())')"
  python3 -c 'import sys, torch, triton; print(f"python {sys.version.split()[0]}, torch {torch.__version__}, triton {triton.__version__}")'
  echo "old: $OLD ($(git log -1 --format=%cs "$OLD")), new: $(git rev-parse --short HEAD)"
  run old "$OLD_TREE" solutions
  run new-same-tasks "$PWD" "$OUT/same-tasks.jsonl"
  run new-all "$PWD" solutions
} | tee "$OUT/summary.txt"
