# Device command of call 5 (run from the repo root): eight copies of the side-stream submission of
# tests/test_perf.py evaluated natively (--no-perf), then the gpu-marked perf tests once.
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
cd tests && python3 - <<'PY'
import json, sys
sys.path.insert(0, ".")
import test_perf as t
rows = [{"file": "Activation/relu.py", "predict": t.SIDE_STREAM, "sample_id": i} for i in range(8)]
with open("/tmp/side.jsonl", "w") as f:
    f.writelines(json.dumps(r) + "\n" for r in rows)
PY
cd ..
python3 -m harness.cli eval /tmp/side.jsonl --out /tmp/side_out --no-perf -q --workers 4 2>&1 | grep -v Warning | tail -4
python3 -c "
import json
for m in json.load(open('/tmp/side_out/metrics.json')): print(m['sample_id'], m['verdict'], m['exe'])
"
timeout 150 python3 -m pytest -q -p no:cacheprovider -m gpu tests/test_perf.py 2>&1 | grep -v Warning | tail -8
