#!/usr/bin/env bash
# One device call (under 600 s): where the linear-algebra checks' time goes on the H200 (the perf
# suite's "comparing" part: 1,910 s summed over 14 LinearAlgebra jobs on 2026-12-04).
#   bash benchmarks/device_check_cost.sh     (on the device: $OUT set, packages on PYTHONPATH)
# Writes $OUT/check_cost.tgz (every log) and prints a digest.
set -uo pipefail
R=/tmp/check_cost
rm -rf "$R" && mkdir -p "$R"
{
  date -u +"date: %Y-%m-%dT%H:%M:%SZ"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem,temperature.gpu,power.draw,pstate --format=csv
  python3 -c "import torch, triton, sys; print('python', sys.version.split()[0], 'torch', torch.__version__, 'cuda', torch.version.cuda, 'triton', triton.__version__, 'threads', torch.get_num_threads())"
  nproc
  git log -1 --format='commit: %H' 2>/dev/null
} > "$R/env.txt" 2>&1
cat "$R/env.txt"
step() {  # step NAME LIMIT COMMAND...: run, log, time
  local name=$1 limit=$2; shift 2
  local start=$(date +%s)
  timeout "$limit" "$@" > "$R/$name.log" 2>&1
  echo "$name: rc $? in $(( $(date +%s) - start )) s" | tee -a "$R/steps.txt"
}
# float64 singular values by method (GPU cuSOLVER drivers against LAPACK on the host)
for spec in "1024" "2048" "4096" "64 --batch 1024" "16 --batch 16384" "128 --batch 512"; do
  step "svd_${spec// /_}" 30 python3 benchmarks/svd_cost_probe.py $spec
done
step svd_8192 45 python3 benchmarks/svd_cost_probe.py 8192 --methods cpu,gpu
# each slow task's check on its perf cases, with the operators it spends its time in
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
