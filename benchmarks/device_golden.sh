#!/usr/bin/env bash
# One device call: golden results of some tasks (`kernelbenchx golden FILTER...`), written as each
# task's job finishes, so a run cut at LIMIT_S keeps the tasks it finished.
#   bash benchmarks/device_golden.sh NAME LIMIT_S FILTER...   (on the device: $OUT set, packages on
#                                                               PYTHONPATH; radon's wheels carried)
# Writes $OUT/NAME.tgz (the golden folder with its provenance.json, the run's journal and log) and
# prints which tasks were written. Merge by hand: each task's JSON into golden_results/h200/<Category>/,
# its provenance run (with a "note") appended to golden_results/h200/provenance.json.
set -uo pipefail
. "$(dirname "$0")/device_lib.sh"
NAME=$1; LIMIT=$2; shift 2
run_dir "$NAME"
step golden "$LIMIT" python3 -m harness.cli golden "$@" --out "$R/run" --golden-out "$R/golden" -q
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv,noheader > "$R/clocks_after.txt" 2>&1
tar czf "$OUT/$NAME.tgz" -C /tmp "$NAME"
ls "$R"/golden/*/ 2>/dev/null
