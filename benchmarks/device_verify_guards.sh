#!/usr/bin/env bash
# One device call (under 600 s) for trust-boundary changes not yet run natively: the whole
# adversarial corpus (GPU entries included: jiterator and pinned-host work, the perf wrapper timed
# faster than its watched call), the corpus of bad submissions and the perf tests on the H200, the
# call+exe suite of every bundled solution for false positives (device tensors only, the disk watch
# counting deleted files held open or mapped, the new proxies), and the launch-API probe (which
# API queued each kernel in the profiler's trace: benchmarks/launch_api_probe.py). Since 2026-12-05
# also: the guard's refusals to library frames while the submission runs (frameless callables), the
# launch stand-ins answered through the guard's hook, and the harness's classes made immutable, none
# of which has run natively yet (Triton's native compile path must still start ptxas and load its
# launcher: call_exe shows it).
#   bash benchmarks/device_verify_guards.sh     (on the device: $OUT set, packages on PYTHONPATH)
# Writes $OUT/verify_guards.tgz and prints a digest. A perf suite (device_suite.sh) then gives the
# spread of timed_over_check_busy: python benchmarks/check_busy_table.py <journal>.
set -uo pipefail
. "$(dirname "$0")/device_lib.sh"
run_dir verify_guards
step call_exe 160 python3 benchmarks/throughput.py --out "$R/tp" --parts call_exe --suite-timeout 150
step adversarial 230 python3 -m pytest -q -p no:cacheprovider -rfEs tests/test_adversarial.py tests/test_saved_results.py \
  tests/test_crash_retry.py tests/test_disk_watch.py tests/test_frozen_types.py
step corpus_perf 120 python3 -m pytest -q -p no:cacheprovider -rfEs tests/test_corpus.py tests/test_perf.py -m gpu
step launch_api 40 python3 benchmarks/launch_api_probe.py
step launch_api_cpu 40 python3 benchmarks/launch_api_probe.py --cpu-events
tar czf "$OUT/verify_guards.tgz" -C /tmp verify_guards
python3 - "$R" <<'PY'
import json, sys
from pathlib import Path
try:
    tp = json.loads((Path(sys.argv[1]) / "tp" / "throughput.json").read_text())["suite"]["call_exe"]
    print({k: tp.get(k) for k in ("wall_s", "cut", "jobs", "verdicts")})
except Exception as exc:
    print("call_exe:", exc)
PY
