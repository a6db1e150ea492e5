#!/usr/bin/env bash
# One device call (under 600 s): where a job's call stage goes. For a few bundled solutions (light
# and heavy call stages of the 2026-12-07 call+exe suite), first outside the harness
# (benchmarks/call_cost_probe.py: a fresh process, a cold Triton cache, no sandbox: CUDA start,
# Triton's compiles and C builds, the calls), then each through `kernelbenchx eval` alone, one job
# at a time and one process per job (its metrics.json call_s), then all of them at once.
#   TASKS="Activation/relu.py ..." bash benchmarks/device_call_cost.sh
# Writes $OUT/call_cost.tgz and prints a table.
set -uo pipefail
. "$(dirname "$0")/device_lib.sh"
run_dir call_cost
TASKS=${TASKS:-"Activation/relu.py Activation/combined_activation.py Convolution/conv_transpose2d.py Fusion/fused_bmm_rmsnorm_gelu_dropout_sub.py LinearAlgebra/svd.py Fusion/fused_sigmoid_batch_norm.py"}
for t in $TASKS; do
  timeout 120 python3 benchmarks/call_cost_probe.py "$t" >> "$R/probe.jsonl" 2> "$R/probe_$(basename "$t" .py).err"
  echo "probe $t: rc $?"
done
mkdir -p "$R/solutions"
for t in $TASKS; do mkdir -p "$R/solutions/$(dirname "$t")"; cp "solutions/$t" "$R/solutions/$t"; done
step alone "${ALONE_S:-200}" python3 -m harness.cli eval "$R/solutions" --out "$R/alone" -q --no-perf --workers 1 --shards 1 --seed 0
step together "${TOGETHER_S:-120}" python3 -m harness.cli eval "$R/solutions" --out "$R/together" -q --no-perf --seed 0
tar czf "$OUT/call_cost.tgz" -C /tmp call_cost
python3 - "$R" <<'PY'
import json, sys
from pathlib import Path
R = Path(sys.argv[1])
probes = {}
for line in (R / "probe.jsonl").read_text().splitlines():
    p = json.loads(line)
    probes[p["task"]] = p
def call_s(run):
    try:
        return {m["task_id"]: (m["info"]["timing"].get("call_s"), m["verdict"]) for m in json.loads((R / run / "metrics.json").read_text())}
    except Exception as exc:
        return {}
alone, together = call_s("alone"), call_s("together")
print("task | cases | probe calls_s | compiles | compile_s | builds | build_s | harness call_s alone | together")
for t, p in probes.items():
    print(t, p["cases"], p["calls_s"], p["compiles"], p["compile_s"], p["builds"], p["build_s"], alone.get(t), together.get(t), p.get("stage_s"), sep=" | ")
PY
