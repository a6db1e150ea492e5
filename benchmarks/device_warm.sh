#!/usr/bin/env bash
# One device call (under 600 s): the warm evaluator (issue 14) as it is, and with every submission in
# one process (--warm-shards 1, what sharing a small job out saves or costs), 16 HTTP clients, the
# GPU tests of saving, judging (large results at drawn positions: tests/test_sampled_results.py)
# and spares, and the monitor-blinding attacks natively. (Until 2026-12-05 it began with
# benchmarks/judge_io_probe.py, what saving and loading a 512 MB result cost: results are no longer
# moved whole.)
#   bash benchmarks/device_warm.sh      (on the device: $OUT set, packages on PYTHONPATH)
# Writes $OUT/warm.tgz and prints the numbers.
set -uo pipefail
. "$(dirname "$0")/device_lib.sh"
run_dir warm
git rev-parse --short HEAD > "$R/commit.txt" 2>/dev/null
# most wanted first; the archive is rewritten after each step (a call cut at its limit keeps what ran)
step warm 150 python3 benchmarks/throughput.py --out "$R/tp" --parts warm --repeats 8
tar czf "$OUT/warm.tgz" -C /tmp warm
step gpu_tests 110 python3 -m pytest -q -p no:cacheprovider -rfEs -m gpu tests/test_perf.py tests/test_saved_results.py \
  tests/test_sampled_results.py tests/test_perf_kept.py tests/test_spare_workers.py tests/test_adversarial.py::test_pytorch_work_the_monitor_cannot_see_is_caught_natively
tar czf "$OUT/warm.tgz" -C /tmp warm
step warm_one_process 90 python3 benchmarks/throughput.py --out "$R/tp1" --parts warm --repeats 5 --warm-shards 1
tar czf "$OUT/warm.tgz" -C /tmp warm
step serve 80 python3 benchmarks/throughput.py --out "$R/tps" --parts serve --repeats 2 --clients 16
tar czf "$OUT/warm.tgz" -C /tmp warm
python3 - "$R" <<'PY'
import json, sys
from pathlib import Path
for part in ("tp", "tp1", "tps"):
    try:
        data = json.loads((Path(sys.argv[1]) / part / "throughput.json").read_text())
    except OSError as exc:
        print(part, exc)
        continue
    for name, row in (data.get("warm") or {}).items():
        print(part, name, {k: row.get(k) for k in ("p50_s", "p95_s", "first_s", "processes", "verdicts")})
        print("   ", {k: v for k, v in (row.get("median_parts_s") or {}).items() if v >= 0.05})
    if "serve" in data:
        print(part, "serve", data["serve"])
PY
