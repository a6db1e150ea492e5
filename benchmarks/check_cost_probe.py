"""How long a task's custom check takes on its perf-size cases, and which operators the time goes
to (the judge's "comparing" part of a perf job). One task per process, so that a slow factorization
can be cut by ``timeout`` without losing the others' numbers:

    python benchmarks/check_cost_probe.py LinearAlgebra/det.py [--seed 0] [--top 8]

Prints one JSON line per perf case: the seconds of the reference call and of ``check(case, ref,
ref)`` twice (the reference's own output judged, as the baseline judges a right candidate; the
first call pays for cuSOLVER's and LAPACK's set-up), and with ``--top N`` the N operators taking
the most time in a third check, under torch.profiler (CPU and CUDA)."""

from __future__ import annotations

import argparse
import json
import time

import torch

from harness.invoke import clone_case
from harness.task import get_task
from harness.taskdef import Case


def _sync() -> None:
    if torch.cuda.is_available():
        torch.cuda.synchronize()


def _timed(fn) -> tuple[object, float]:
    _sync()
    clock = time.perf_counter()
    value = fn()
    _sync()
    return value, time.perf_counter() - clock


def _top_operators(prof, top: int) -> list[dict]:
    rows = []
    for event in prof.key_averages():
        device_us = getattr(event, "device_time_total", None)
        if device_us is None:
            device_us = getattr(event, "cuda_time_total", 0.0)
        rows.append({"op": event.key, "calls": event.count, "cpu_s": round(event.cpu_time_total / 1e6, 3),
                     "gpu_s": round(device_us / 1e6, 3)})
    rows.sort(key=lambda r: -max(r["cpu_s"], r["gpu_s"]))
    return rows[:top]


def probe_case(task, case: Case, top: int) -> dict:
    run = clone_case(case)
    expected, ref_s = _timed(lambda: task.reference(*run.args, **run.kwargs))
    verdict, check_s = _timed(lambda: task.custom_check(case, expected, expected))
    _, again_s = _timed(lambda: task.custom_check(case, expected, expected))
    record = {"case": case.label, "reference_s": round(ref_s, 3), "check_s": round(check_s, 3),
              "check_again_s": round(again_s, 3), "verdict": verdict}
    if top:  # the profiler records every kernel: a batched cuSOLVER call under it takes minutes
        activities = [torch.profiler.ProfilerActivity.CPU]
        if torch.cuda.is_available():
            activities.append(torch.profiler.ProfilerActivity.CUDA)
        with torch.profiler.profile(activities=activities) as prof:
            task.custom_check(case, expected, expected)
        record["top"] = _top_operators(prof, top)
    return record


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("task")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--top", type=int, default=0)
    args = parser.parse_args()
    task = get_task(args.task)
    if task.custom_check is None:
        raise SystemExit(f"{task.id} has no custom check")
    device = "cuda" if torch.cuda.is_available() else "cpu"
    cases, draw_s = _timed(lambda: task.perf_cases(args.seed, device))
    report = {"task": task.id, "device": device, "draw_s": round(draw_s, 3), "cases": []}
    for case in cases:
        report["cases"].append(probe_case(task, case, args.top))
        print(json.dumps(report["cases"][-1]), flush=True)
    print(json.dumps({"task": task.id, "check_s": round(sum(c["check_s"] for c in report["cases"]), 3)}))


if __name__ == "__main__":
    main()
