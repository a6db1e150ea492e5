"""Why a host-bound solution's time does not repeat between runs (2026-12-04: `lu` 1024 timed 79,
54 and 112 ms in three runs with every other job stopped): one bundled solution's perf case timed
with the harness's own timer while the host is idle, busy with torch work on every core (what a
run's parent does while it judges other jobs), busy with one spinning process per core, and with
the timed process pinned to one core, each condition twice, in alternation:

    python benchmarks/host_bound_probe.py LinearAlgebra/lu.py 1024 [--reps 25] [--rounds 2]
                                          [--conditions idle,load+torch,load+spin,pinned,pinned+torch]

With ``--conditions idle --rounds 1`` in several processes one after another, it also shows whether
a steady kernel's time differs between processes (2026-12-04: `fused_transformer_block`
8x512x1024-dk4096 timed 1.90 ms in the suite and 4.56 ms in its golden run, each with a spread
under 1%).

Prints one JSON line per condition and round (median, quartiles, repetitions whose time includes
host time, the GPU's SM clock during the timing: min, median, max), then a summary line. GPU only: the bundled solution runs in this process, unconfined
(it is the project's own code), as in a golden run's Triton side but without the sandbox."""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import torch

from harness.perf.timing import EventTimer, TimingStats
from harness.task import get_task

ROOT = Path(__file__).resolve().parent.parent
# one process doing what a parent judging other jobs does: float work on every core
TORCH_LOAD = ("import torch\n"
              "a = torch.randn(1024, 1024)\n"
              "print('ready', flush=True)\n"
              "while True:\n"
              "    a = torch.tanh(a @ a)\n")
SPIN_LOAD = "print('ready', flush=True)\nwhile True:\n    pass\n"


def _solution(task) -> object:
    path = ROOT / "solutions" / task.category / f"{task.name}.py"
    spec = importlib.util.spec_from_file_location(f"probe_{task.name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, task.entry)


@contextmanager
def _load(kind: str, cpus: list[int]) -> Iterator[None]:
    """Background load of ``kind`` (``torch``: one multi-threaded process; ``spin``: one busy
    process per CPU) on ``cpus``, stopped on exit."""
    if kind == "none":
        yield
        return
    code, count = (TORCH_LOAD, 1) if kind == "torch" else (SPIN_LOAD, len(cpus))
    procs = []
    for _ in range(count):
        proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
        os.sched_setaffinity(proc.pid, cpus)
        procs.append(proc)
    for proc in procs:  # the load is running (torch imported) before the timing starts
        proc.stdout.readline()
    try:
        yield
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()


@contextmanager
def _sm_clocks(samples: list[int]) -> Iterator[None]:
    """The GPU's SM clock (MHz) every 100 ms while the block runs, appended to ``samples``: a GPU
    that is mostly idle between a host-bound call's launches may clock down, and its kernels then
    take longer (nothing is sampled where nvidia-smi is missing)."""
    try:
        proc = subprocess.Popen(["nvidia-smi", "--query-gpu=clocks.sm", "--format=csv,noheader,nounits",
                                 "-lms", "100"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    except OSError:
        yield
        return
    try:
        yield
    finally:
        proc.terminate()
        out, _ = proc.communicate()
        samples.extend(int(line) for line in out.split() if line.strip().isdigit())


def measure(fn, timer: EventTimer, reps: int, condition: str, all_cpus: list[int]) -> dict:
    pinned = condition.startswith("pinned")
    load = condition.split("+")[1] if "+" in condition else "none"
    others = all_cpus[1:] if pinned and len(all_cpus) > 1 else all_cpus
    clocks: list[int] = []
    os.sched_setaffinity(0, all_cpus[:1] if pinned else all_cpus)
    try:
        with _load(load, others), _sm_clocks(clocks):
            times = timer.time(fn, lambda i: None, reps)
    finally:
        os.sched_setaffinity(0, all_cpus)
    stats = TimingStats.of(times)
    return {"condition": condition, "median_ms": round(stats.median_ms, 4), "q1_ms": round(stats.q1_ms, 4),
            "q3_ms": round(stats.q3_ms, 4), "reps": reps, "host_bound_reps": timer.take_host_bound(),
            "sm_mhz": [min(clocks), int(statistics.median(clocks)), max(clocks)] if clocks else None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("task")
    parser.add_argument("case", help="the perf case's label")
    parser.add_argument("--reps", type=int, default=25)
    parser.add_argument("--conditions", default="idle,load+torch,load+spin,pinned,pinned+torch")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    if not torch.cuda.is_available():
        raise SystemExit("host_bound_probe.py times on a GPU")
    task = get_task(args.task)
    cases = {c.label: c for c in task.perf_cases(0, "cuda")}
    case = cases[args.case]
    entry = _solution(task)
    fn = lambda: entry(*case.args, **case.kwargs)  # noqa: E731
    for _ in range(3):  # compile and warm up
        fn()
    torch.cuda.synchronize()
    timer = EventTimer(torch.device("cuda"))
    all_cpus = sorted(os.sched_getaffinity(0))
    rows = []
    for round_ in range(args.rounds):
        for condition in args.conditions.split(","):
            row = {"round": round_, **measure(fn, timer, args.reps, condition.replace("idle", "none"), all_cpus)}
            row["condition"] = condition
            rows.append(row)
            print(json.dumps(row), flush=True)
    by = {}
    for row in rows:
        by.setdefault(row["condition"], []).append(row["median_ms"])
    print(json.dumps({"task": task.id, "case": args.case, "cpus": len(all_cpus),
                      "median_ms_by_condition": {k: round(statistics.median(v), 4) for k, v in by.items()}}))


if __name__ == "__main__":
    main()
