#!/usr/bin/env bash
# One device call (under 600 s) that measures what the sessions of 2026-12-03 (sixth, seventh)
# changed without a GPU: spare workers (harness/sandbox/forkserver.py), the page-locked save and the
# in-place result kept once (harness/perf/server.py, harness/kept.py), the wait for a quiet GPU
# before timing and the count of host-bound repetitions (harness/perf/timing.py), and times again,
# alone, the golden results of the three tl.dot convolutions whose golden run was the outlier.
#   bash benchmarks/device_spares.sh        (on the device: $OUT set, packages on PYTHONPATH)
# Writes $OUT/spares.tgz (every log and JSON; the device returns few files) and prints a digest.
set -uo pipefail
. "$(dirname "$0")/device_lib.sh"
R=/tmp/spares
rm -rf "$R" && mkdir -p "$R"
device_env "$R/env.txt"
# the GPU tests of the changed code: the pinned save, an in-place result kept once, a stopped
# process's queued kernels seen by the wait before timing, host-bound repetitions counted; then the
# spare tests on a GPU
step gpu_tests 100 python3 -m pytest -q -p no:cacheprovider -m gpu tests/test_perf_kept.py tests/test_quiet_gpu.py \
  tests/test_perf.py::test_a_call_of_thousands_of_launches_is_timed_with_host_time_and_says_so
step spare_tests 90 python3 -m pytest -q -p no:cacheprovider tests/test_spare_workers.py
# the warm evaluator: call+exe and with perf, 6 sequential ReLU submissions each (worker_starts says
# how many started in a spare), then the same with each job forked (what the spares save)
step warm 120 python3 benchmarks/throughput.py --out "$R/warm" --parts warm --repeats 6
KERNELBENCHX_NO_SPARES=1 step warm_forked 110 python3 benchmarks/throughput.py --out "$R/warm_forked" --parts warm --repeats 6
# the three convolutions' golden results, alone (written to a copy: merged by hand if they agree)
step golden_dot 100 python3 -m harness.cli golden fused_instance_norm_selu_conv2d fused_leaky_relu_conv2d \
  fused_conv2d_add --out "$R/golden_run" --golden-out "$R/golden_h200" -q
tar czf "$OUT/spares.tgz" -C /tmp spares
python3 - "$R" <<'EOF'
import json, sys
from pathlib import Path
r = Path(sys.argv[1])
for run in ("warm", "warm_forked"):
    try:
        warm = json.loads((r / run / "throughput.json").read_text())["warm"]
        for name, part in warm.items():
            print(run, name, {k: part.get(k) for k in ("p50_s", "p95_s", "worker_starts")},
                  {k: v for k, v in part.get("median_parts_s", {}).items() if k in ("setup_s", "call_s", "perf_s",
                   "perf_judge_checks_saving_s", "perf_judge_checks_s", "perf_timed_settle_s")})
    except (OSError, KeyError, ValueError) as exc:
        print(run, "no numbers", exc)
try:
    for m in json.loads((r / "golden_run" / "metrics.json").read_text()):
        cases = (m.get("perf_metrics") or {}).get("cases") or []
        print(m["task_id"], m.get("verdict"), (m.get("info") or {}).get("perf_settle"),
              [(c["label"], c.get("runtime_ms"), (c.get("candidate") or {}).get("host_bound_reps")) for c in cases])
except (OSError, KeyError, ValueError) as exc:
    print("golden: no metrics", exc)
EOF
