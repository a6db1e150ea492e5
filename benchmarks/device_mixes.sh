#!/usr/bin/env bash
# One device call (about 300-500 s): the perf mixes of session 19 natively. The structure test and
# the mix tests of tests/test_perf_inputs.py at full perf size, then the bundled solutions of the
# tasks whose timed inputs they changed (the six "convex" tasks, now with a product term, and the
# four order-statistic tasks, now "gaussian"), call, exe and perf; then the fail-fast test and the
# corpus (autotuners built during a call, pinned at their first launch).
#   bash benchmarks/device_mixes.sh      (on the device: $OUT set, packages on PYTHONPATH)
# Writes $OUT/mixes.tgz (logs, the run's metrics) and prints the digest.
set -uo pipefail
. "$(dirname "$0")/device_lib.sh"
run_dir mixes
git rev-parse --short HEAD > "$R/commit.txt" 2>/dev/null
step structure 120 python3 -m pytest -q -p no:cacheprovider -rfEs tests/test_perf_inputs.py -k "structure or gaussian or convex"
tar czf "$OUT/mixes.tgz" -C /tmp mixes
LIST="$R/tasks.txt"
grep -l 'PERF_MIX = "\(convex\|gaussian\)"' -r harness/tasks | sed 's|^harness/tasks/|solutions/|' | sort > "$LIST"
step perf 250 python3 -m harness.cli eval $(cat "$LIST") --out "$R/run" -q --perf-samples
python3 - "$R/run/metrics.json" <<'PY' | tee "$R/digest.txt"
import json, sys
for rec in json.load(open(sys.argv[1])):
    failed = next((rec[s] for s in ("call", "exe", "perf") if (rec.get(s) or {}).get("status") not in (None, "ok", "skipped")), {})
    print(rec["task_id"], rec["verdict"], (rec.get("perf_metrics") or {}).get("speedup"),
          str(failed.get("detail", ""))[-300:].replace("\n", " | "))
PY
cp "$R/run/metrics.json" "$R/metrics.json" 2>/dev/null
rm -rf "$R/run"
tar czf "$OUT/mixes.tgz" -C /tmp mixes
# the fail-fast test's GPU-independent form, and the corpus (autotuners pinned at their first launch)
step failfast_corpus 120 python3 -m pytest -q -p no:cacheprovider -rfEs tests/test_shards.py -k fail_fast tests/test_corpus.py
tar czf "$OUT/mixes.tgz" -C /tmp mixes
