#!/usr/bin/env bash
# One device call (under 600 s) for the GPU memory cap (harness/gpu_memory_cap.py): every bundled
# solution's call+exe under the call/exe allowance (an honest worker refused there is the costliest
# mistake), the cap's GPU tests and the memory-hog attacks, then the suite with perf (each
# candidate capped at its job's share) for as long as the call allows: which jobs ran out of memory
# or were retried alone.
#   bash benchmarks/device_memory_cap.sh     (on the device: $OUT set, packages on PYTHONPATH)
# Writes $OUT/memory_cap.tgz and prints a digest.
set -uo pipefail
. "$(dirname "$0")/device_lib.sh"
run_dir memory_cap
git rev-parse --short HEAD > "$R/commit.txt" 2>/dev/null
step call_exe 90 python3 benchmarks/throughput.py --out "$R/tp" --parts call_exe --suite-timeout 80
tar czf "$OUT/memory_cap.tgz" -C /tmp memory_cap
step cap_tests 150 python3 -m pytest -q -p no:cacheprovider -rfEs -m gpu tests/test_gpu_memory.py \
  "tests/test_adversarial.py::test_a_submission_cannot_take_the_gpu_memory_its_judge_needs"
tar czf "$OUT/memory_cap.tgz" -C /tmp memory_cap
step with_perf ${PERF_S:-300} python3 benchmarks/throughput.py --out "$R/tpp" --parts with_perf --suite-timeout $(( ${PERF_S:-300} - 10 ))
tar czf "$OUT/memory_cap.tgz" -C /tmp memory_cap
python3 - "$R" <<'PY'
import json, sys
from pathlib import Path
for part, name in (("tp", "call_exe"), ("tpp", "with_perf")):
    run = Path(sys.argv[1]) / part
    try:
        tp = json.loads((run / "throughput.json").read_text())["suite"][name]
        print(name, {k: tp.get(k) for k in ("wall_s", "cut", "jobs", "verdicts")})
        journal = (run / f"suite_{name}" / "journal.jsonl").read_text().splitlines()  # a cut run has no metrics.json
        for rec in (json.loads(line) for line in journal if line.strip()):
            if "verdict" not in rec:
                continue
            info = rec.get("info") or {}
            if rec["verdict"] != "ok" or "perf_retried_alone" in info:
                stage = next((s for s in ("call", "exe", "perf") if (rec.get(s) or {}).get("status") not in ("ok", None)), "perf")
                print(" ", rec["task_id"], rec["verdict"], info.get("perf_candidate_memory_cap_mb"),
                      info.get("perf_retried_alone", "")[:200], (rec.get(stage) or {}).get("detail", "")[-300:].replace("\n", " | "))
    except Exception as exc:
        print(name, type(exc).__name__, exc)
PY
grep -hE "^(FAILED|ERROR)" "$R"/*.log | cut -c1-300
