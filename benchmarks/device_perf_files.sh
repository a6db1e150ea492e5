#!/usr/bin/env bash
# One device call: some bundled solutions through `kernelbenchx eval` with perf, then compared with
# the committed golden results (benchmarks/throughput.py --against-golden).
#   bash benchmarks/device_perf_files.sh NAME LIMIT_S FILE...   (on the device: $OUT set, packages
#                                                                on PYTHONPATH)
# Writes $OUT/NAME.tgz (the run's journal, metrics, log, the comparison) and prints a digest. The
# device returns a limited number of files from $OUT: a call that runs this should write nothing
# else there.
set -uo pipefail
. "$(dirname "$0")/device_lib.sh"
NAME=$1; LIMIT=$2; shift 2
run_dir "$NAME"
step eval "$LIMIT" python3 -m harness.cli eval "$@" --out "$R/run" --no-report
python3 benchmarks/throughput.py --against-golden "$R/run/journal.jsonl" > "$R/against_golden.json" 2> "$R/against_golden.err"
tar czf "$OUT/$NAME.tgz" -C /tmp "$NAME"
python3 - "$R" <<'PY'
import json, sys
from pathlib import Path
r = Path(sys.argv[1])
for line in (r / "run" / "journal.jsonl").read_text().splitlines():
    job = json.loads(line)
    if "info" not in job:
        continue
    t = job["info"].get("timing", {})
    print(job["task_id"], {s: job[s]["status"] for s in ("call", "exe", "perf") if isinstance(job.get(s), dict)},
          f"{job['seconds']:.0f}s", {k: round(t.get(k, 0), 1) for k in ("call_s", "held_s", "perf_judge_checks_comparing_s", "perf_timed_s")})
try:
    g = json.loads((r / "against_golden.json").read_text())
    print({k: v for k, v in g.items() if k != "jobs"})
except Exception as exc:
    print("against golden:", exc, (r / "against_golden.err").read_text()[-500:])
PY
