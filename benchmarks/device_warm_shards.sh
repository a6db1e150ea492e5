#!/usr/bin/env bash
# One device call (under 600 s) for what the third session of 2026-12-04 left open:
# - does spreading a small submission over several processes still pay in a warm evaluator? The
#   warm ReLU with the evaluator's choice (6 processes) and with one process per submission
#   (throughput.py --warm-shards 1): latency and each part, share_wait_s included;
# - golden results of the steady jobs whose golden run was the odd one out (the same Triton-side
#   difference in two suites; fused_transformer_block 4.56 ms golden against 1.90 ms everywhere else).
#   bash benchmarks/device_warm_shards.sh     (on the device: $OUT set, packages on PYTHONPATH)
# Writes $OUT/warm_shards.tgz (every log, the golden folder) and prints a digest. Merge the golden
# results by hand (see device_golden.sh).
set -uo pipefail
. "$(dirname "$0")/device_lib.sh"
run_dir warm_shards
step warm_auto 150 python3 benchmarks/throughput.py --out "$R/warm_auto" --parts warm --repeats 6
step warm_one 150 python3 benchmarks/throughput.py --out "$R/warm_one" --parts warm --repeats 6 --warm-shards 1
step golden 250 python3 -m harness.cli golden fused_gather_masked_fill fused_index_select_eq fused_mv_sigmoid_sub \
  fused_sigmoid_adaptive_avg_pool2d fused_transformer_block --out "$R/run" --golden-out "$R/golden" -q
tar czf "$OUT/warm_shards.tgz" -C /tmp warm_shards
python3 - "$R" <<'PY'
import json, sys
from pathlib import Path
for name in ("warm_auto", "warm_one"):
    try:
        warm = json.loads((Path(sys.argv[1]) / name / "throughput.json").read_text())["warm"]
        for mode, part in warm.items():
            parts = part.get("median_parts_s", {})
            print(name, mode, {k: part.get(k) for k in ("p50_s", "p95_s", "processes")},
                  {k: parts.get(k) for k in ("call_s", "share_wait_s", "worker_life_s")})
    except Exception as exc:
        print(name, exc)
PY
ls "$R"/golden/*/ 2>/dev/null
