#!/usr/bin/env bash
# One device call (about 320 s, at most 600): the perf input mix (harness/perf/server.py _mix_into) against the
# caches it was built for, natively: the cache test of tests/test_adversarial.py, the order-statistic
# probe on Reduce/min_gelu and the roll-surviving sum cache beside their bundled solutions with perf,
# and the Random/rand pool attack beside the bundled rand without. On the device: $OUT set, packages
# on PYTHONPATH. Writes $OUT/probe/ and prints one line per job.
set -u
mkdir -p "$OUT/probe" /tmp/mix_probe
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -c "import torch, triton, sys; print(sys.version.split()[0], torch.__version__, triton.__version__)"
date -u
python3 - <<'PY'
import json, sys
from pathlib import Path
sys.path[:0] = ["tests", "."]
import test_adversarial as t  # the attacks as the tests build them (SOLUTION_EDITS, tests/adversarial/)

def jsonl(path, rows):
    Path(path).write_text("".join(json.dumps({"file": task, "predict": src, "sample_id": i}) + "\n"
                                  for i, (task, src) in enumerate(rows)))

def bundled(task):
    return task, (Path("solutions") / task).read_text()

jsonl("/tmp/mix_probe/perf.jsonl", [("Reduce/min_gelu.py", t._source("mixed_inputs_min_probe")), bundled("Reduce/min_gelu.py"),
                                    ("Reduce/sum.py", t._source("roll_surviving_cache_sum_host")), bundled("Reduce/sum.py")])
jsonl("/tmp/mix_probe/rand.jsonl", [("Random/rand.py", t._source("rand_pool_lifted_as_fresh")), bundled("Random/rand.py")])
PY
timeout 300 python3 -m pytest -q -s -p no:cacheprovider -rfEs tests/test_adversarial.py -k caches_of_inputs_seen_before \
  > "$OUT/probe/cache_test.log" 2>&1; echo "cache test rc $?"; grep -E "gain|passed|failed|Error" "$OUT/probe/cache_test.log" | tail -8
timeout 100 python3 -m harness.cli eval /tmp/mix_probe/rand.jsonl --out "$OUT/probe/rand" -q --no-perf > "$OUT/probe/rand.log" 2>&1; echo "rand rc $?"
timeout 200 python3 -m harness.cli eval /tmp/mix_probe/perf.jsonl --out "$OUT/probe/perf" -q --workers 1 > "$OUT/probe/perf.log" 2>&1; echo "perf probe rc $?"
python3 - <<'PY'
import json, os
for run in ("rand", "perf"):
    try:
        for r in json.load(open(os.path.join(os.environ["OUT"], "probe", run, "metrics.json"))):
            detail = (r["call"]["detail"] + " | " + r["exe"]["detail"])[-240:].replace("\n", " ")
            print(run, r["sample_id"], r["task_id"], r["verdict"], (r.get("perf_metrics") or {}).get("speedup"),
                  (r.get("perf") or {}).get("status"), detail if r["verdict"] != "ok" else "")
    except Exception as exc:
        print(run, "no metrics:", exc)
PY
