#!/usr/bin/env bash
# One device call (under 600 s): every bundled solution through `kernelbenchx eval` with perf
# (benchmarks/throughput.py --parts with_perf), compared with the committed golden results.
#   bash benchmarks/device_suite.sh first  [SUITE_S]  a new run; before it, which sockets a CUDA process
#                                                     holds, and the spare-socket test on a GPU
#   bash benchmarks/device_suite.sh resume [SUITE_S]  continue the run carried in as suite.tgz (a cut run)
# Writes $OUT/suite.tgz (the run's journal, throughput.json, logs, the GPU's memory in use every half
# second) and prints a digest.
set -uo pipefail
. "$(dirname "$0")/device_lib.sh"
MODE=${1:-first}; SUITE_S=${2:-470}
R=/tmp/suite
if [ "$MODE" = resume ] && [ -f suite.tgz ]; then rm -rf "$R"; tar xzf suite.tgz -C /tmp; else rm -rf "$R"; fi
mkdir -p "$R"
device_env "$R/env_$MODE.txt"
if [ "$MODE" = first ]; then
  # what a process holds once CUDA is up (the spare-socket test saw one socket in a GPU worker)
  python3 - > "$R/cuda_sockets.txt" 2>&1 <<'PY'
import os, socket, stat, torch
torch.zeros(1, device="cuda")
for fd in range(3, 1024):
    try:
        st = os.fstat(fd)
    except OSError:
        continue
    if stat.S_ISSOCK(st.st_mode):  # (the scan's own descriptors come and go: fstat first, then dup)
        try:
            s = socket.socket(fileno=os.dup(fd))
            link = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        try:
            peer = s.getpeername()
        except OSError as exc:
            peer = f"({exc.strerror})"
        print(fd, link, s.family.name, s.type.name, repr(s.getsockname()), repr(peer))
PY
  cat "$R/cuda_sockets.txt"
  timeout 90 python3 -m pytest -q -p no:cacheprovider tests/test_spare_workers.py -k socket > "$R/spare_socket_test.log" 2>&1
  echo "spare socket test: rc $?"; tail -2 "$R/spare_socket_test.log"
fi
start=$(date +%s)
# the GPU's memory in use through the run, every half second (what the perf budget leaves unused)
nvidia-smi --query-gpu=timestamp,memory.used,memory.total,utilization.gpu --format=csv,noheader -lms 500 \
  > "$R/gpu_memory_$MODE.csv" 2>&1 &
SMI=$!
python3 benchmarks/throughput.py --out "$R/tp" --parts with_perf --suite-timeout "$SUITE_S" \
  $([ "$MODE" = resume ] && echo --resume) > "$R/throughput_$MODE.log" 2>&1
echo "suite ($MODE): rc $? in $(( $(date +%s) - start )) s"
kill $SMI 2>/dev/null
python3 - "$R/gpu_memory_$MODE.csv" <<'PY'
import sys
used = [float(line.split(",")[1].split()[0]) for line in open(sys.argv[1]) if line.count(",") >= 3 and "MiB" in line]
if used:
    used.sort()
    print(f"GPU memory used (MiB) over {len(used)} samples: median {used[len(used) // 2]:.0f}, "
          f"90th percentile {used[int(len(used) * 0.9)]:.0f}, max {used[-1]:.0f}")
PY
cp "$R/tp/throughput.json" "$R/throughput_$MODE.json" 2>/dev/null
tar czf "$OUT/suite.tgz" -C /tmp suite
python3 - "$R" <<'PY'
import json, sys
from pathlib import Path
tp = json.loads((Path(sys.argv[1]) / "tp" / "throughput.json").read_text())["suite"]["with_perf"]
print({k: tp.get(k) for k in ("wall_s", "resumed", "exit", "cut", "jobs", "verdicts")})
print("time_breakdown_s", tp.get("time_breakdown_s"))
print("timing lock", tp.get("timing_lock"))
golden = tp.get("against_golden") or {}
print("against golden", {k: v for k, v in golden.items() if k != "jobs"})
# the perf memory each job was estimated to need beside what its two processes' allocators held at most
ratios = []
for line in open(Path(sys.argv[1]) / "tp" / "suite_with_perf" / "journal.jsonl"):
    info = json.loads(line).get("info") or {}
    peak, footprint = info.get("perf_peak_mb") or {}, info.get("perf_footprint_mb")
    if footprint and peak:
        ratios.append((round(sum(peak.values()) / footprint, 3), footprint, peak))
ratios.sort(key=lambda r: r[0])
if ratios:
    print(f"perf peak / footprint over {len(ratios)} jobs: median {ratios[len(ratios) // 2][0]}, max {ratios[-1]}")
PY
