"""Probe: float64 singular values computed by several processes at once, as a suite's judges do.

Starts PROCS processes together; each decomposes the same shapes (one 2048x2048 matrix, one
1024x1024, a batch of 512 64x64) a few times, on the host with THREADS OpenMP threads or on the GPU,
and prints its seconds per shape. The question: do concurrent host SVDs on every core (each process
an OpenMP team of all of them) slow each other down by orders of magnitude, and does one thread
each avoid it?
    python benchmarks/host_svd_contention_probe.py [--procs 5] [--rounds 2] [--limit 60]
Prints one JSON line per condition (median over processes and rounds of each shape's seconds), or
that the condition's processes were killed after --limit seconds.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

SHAPES = {"2048": (2048, 2048), "1024": (1024, 1024), "batch-512x64": (512, 64, 64)}


def child(where: str, threads: int, rounds: int) -> None:
    import torch

    if threads:
        torch.set_num_threads(threads)
    g = torch.Generator().manual_seed(0)
    times: dict[str, list[float]] = {name: [] for name in SHAPES}
    for _ in range(rounds):
        for name, shape in SHAPES.items():
            a = torch.randn(shape, generator=g, dtype=torch.float64)
            a = a.cuda() if where == "gpu" else a
            if where == "gpu":
                torch.cuda.synchronize()
            start = time.perf_counter()
            torch.linalg.svdvals(a)
            if where == "gpu":
                torch.cuda.synchronize()
            times[name].append(time.perf_counter() - start)
    print(json.dumps(times), flush=True)


def condition(where: str, threads: int, procs: int, rounds: int, limit: float) -> dict:
    cmd = [sys.executable, __file__, "--child", where, str(threads), str(rounds)]
    start = time.perf_counter()
    runs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True) for _ in range(procs)]
    try:
        results = [json.loads(r.communicate(timeout=max(1.0, start + limit - time.perf_counter()))[0]
                              .strip().splitlines()[-1]) for r in runs]
    except subprocess.TimeoutExpired:
        for r in runs:
            r.kill()
            r.wait()
        return {"where": where, "threads": threads or "default", "procs": procs, "timed_out_after_s": limit}
    wall = time.perf_counter() - start
    per_shape = {name: round(statistics.median(t for res in results for t in res[name]), 3) for name in SHAPES}
    return {"where": where, "threads": threads or "default", "procs": procs, "wall_s": round(wall, 1),
            "median_s": per_shape}


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--procs", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--limit", type=float, default=60.0, help="seconds per condition before its processes are killed")
    args = ap.parse_args()
    for where, threads, procs in (("host", 0, 1), ("host", 1, 1), ("host", 1, args.procs),
                                  ("gpu", 0, args.procs), ("host", 0, args.procs)):
        print(json.dumps(condition(where, threads, procs, args.rounds, args.limit)), flush=True)


if __name__ == "__main__":
    main()
