#!/usr/bin/env bash
# One device call (under 600 s) for what the session of 2026-12-04 (second) left open:
# - why host-bound solutions' times do not repeat between runs: five of their perf cases timed by
#   benchmarks/host_bound_probe.py with the host idle, loaded by torch work or spinning processes,
#   and with the timed process pinned to one core;
# - where the warm evaluator's call+exe latency goes beyond its recorded stages on a GPU (1.62 s
#   against ~0.7 s of stages): throughput.py's warm part, now with worker_close_s, worker_life_s
#   and outside_worker_s;
# - whether a steady (not host-bound) kernel's time differs between processes: two cases that timed
#   20-140% apart in the suite and their golden run, each in two fresh processes.
#   bash benchmarks/device_host_bound.sh     (on the device: $OUT set, packages on PYTHONPATH)
# Writes $OUT/host_bound.tgz (every log) and prints a digest.
set -uo pipefail
. "$(dirname "$0")/device_lib.sh"
run_dir host_bound
probe() {  # probe NAME TASK CASE
  step "probe_$1" 80 python3 benchmarks/host_bound_probe.py "$2" "$3" --reps 15
}
probe lu_1024 LinearAlgebra/lu.py 1024
probe svd_reconstruct_256 Fusion/fused_svd_reconstruct.py 256
probe low_rank_batch LinearAlgebra/low_rank_svd_approximation.py batch-64x128-k16
# steady kernels whose time differed 20-140% between the suite and their golden run: the same case
# in two fresh processes, one after another (does a process's time differ from the next one's?)
for i in 1 2; do
  step "steady_transformer_$i" 35 python3 benchmarks/host_bound_probe.py Fusion/fused_transformer_block.py \
    8x512x1024-dk4096 --conditions idle --rounds 1 --reps 50
  step "steady_matmul_$i" 35 python3 benchmarks/host_bound_probe.py MatrixMultiply/matmul.py \
    batched-8x1024x4096-times-4096x1024 --conditions idle --rounds 1 --reps 50
done
step warm 120 python3 benchmarks/throughput.py --out "$R/warm" --parts warm --repeats 6
tar czf "$OUT/host_bound.tgz" -C /tmp host_bound
for f in "$R"/probe_*.log "$R"/steady_*.log; do echo "== $f"; grep '^{' "$f" | tail -1; done
python3 - "$R" <<'PY'
import json, sys
from pathlib import Path
try:
    warm = json.loads((Path(sys.argv[1]) / "warm" / "throughput.json").read_text())["warm"]
    for name, part in warm.items():
        print(name, {k: part.get(k) for k in ("p50_s", "p95_s")}, part.get("median_parts_s"))
except Exception as exc:
    print("warm:", exc)
PY
