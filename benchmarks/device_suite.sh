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
cp "$R/tp/throughput.json" "$R/throughput_$MODE.json" 2>/dev/null
tar czf "$OUT/suite.tgz" -C /tmp suite
python3 benchmarks/suite_digest.py "$R/tp" "$R/gpu_memory_$MODE.csv"
