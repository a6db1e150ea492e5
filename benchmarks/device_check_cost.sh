#!/usr/bin/env bash
# One device call (under 600 s): where the linear-algebra checks' time goes on the H200 (the perf
# suite's "comparing" part: 1,910 s summed over 14 LinearAlgebra jobs on 2026-12-04).
#   bash benchmarks/device_check_cost.sh     (on the device: $OUT set, packages on PYTHONPATH)
# Writes $OUT/check_cost.tgz (every log) and prints a digest.
set -uo pipefail
. "$(dirname "$0")/device_lib.sh"
run_dir check_cost
# float64 singular values by method (GPU cuSOLVER drivers against LAPACK on the host)
for spec in "1024" "2048" "4096" "64 --batch 1024" "16 --batch 16384" "128 --batch 512"; do
  step "svd_${spec// /_}" 30 python3 benchmarks/svd_cost_probe.py $spec
done
step svd_8192 45 python3 benchmarks/svd_cost_probe.py 8192 --methods cpu,gpu
# each slow task's check on its perf cases (check_cost_probe.py --top N adds the operators it spends
# its time in, under torch.profiler: in call 1 of 2026-12-04 that made batched cases take minutes)
for t in det determinant_lu determinant_via_qr cholesky_solve cholesky solve_and_add_scaled_vector invert_matrix_lu solve; do
  step "check_$t" 35 python3 benchmarks/check_cost_probe.py "LinearAlgebra/$t.py"
done
cat "$R"/svd_*.log | grep '^{' > "$R/svd_all.jsonl"
tar czf "$OUT/check_cost.tgz" -C /tmp check_cost
cat "$R/steps.txt"
cat "$R/svd_all.jsonl"
for f in "$R"/check_*.log; do echo "== $f"; grep '^{' "$f" | python3 -c "
import json, sys
for line in sys.stdin:
    r = json.loads(line)
    print({k: r[k] for k in ('case', 'reference_s', 'check_s', 'check_again_s', 'verdict') if k in r} if 'case' in r else r)
    for op in r.get('top', [])[:3]: print('   ', op)
"; done
