"""Where a job's call stage goes, outside the harness: one bundled solution's correctness cases
called in a fresh process with an empty Triton cache, no sandbox and no monitors, with Triton's
compile times (``triton.knobs.compilation.listener``, Triton >= 3.4) and its C builds (the launcher
and driver modules, ``triton.runtime.build.compile_module_from_src``) summed:

    python benchmarks/call_cost_probe.py Activation/relu.py [--seed 0]

Prints one JSON line: the seconds of CUDA's start, the solution's import, every case's first call
and the compiles and C builds inside them. Set beside the same job's ``call_s`` in ``metrics.json``
it splits the call stage into Triton's own cost and the harness's (isolation, monitors, checks)."""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("task")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="probe_triton_")  # cold, as a job's
    clock = time.perf_counter()
    import torch
    import triton
    from triton import knobs
    from triton.runtime import build

    from harness.invoke import clone_case
    from harness.task import get_task
    record: dict = {"task": args.task, "triton": triton.__version__, "torch": torch.__version__,
                    "import_s": round(time.perf_counter() - clock, 3)}
    compiles: list[dict] = []

    def listener(*, src, metadata, metadata_group, times, cache_hit) -> None:
        stages = dict(times.lowering_stages)
        compiles.append({"name": metadata.get("name"), "hit": cache_hit,
                         "s": round((times.ir_initialization + sum(stages.values()) + times.store_results) / 1e6, 3),
                         "stages_s": {k: round(v / 1e6, 3) for k, v in stages.items()}})
    listener_ok = hasattr(knobs, "compilation") and hasattr(knobs.compilation, "listener")
    if listener_ok:
        knobs.compilation.listener = listener
    builds: list[dict] = []
    original_build = build.compile_module_from_src

    def timed_build(*a, **kw):
        start = time.perf_counter()
        try:
            return original_build(*a, **kw)
        finally:
            builds.append({"name": kw.get("name", a[1] if len(a) > 1 else "?"), "s": round(time.perf_counter() - start, 3)})
    build.compile_module_from_src = timed_build
    import triton.backends.nvidia.driver as nv_driver  # binds the function at its import: patch it there too
    if getattr(nv_driver, "compile_module_from_src", None) is original_build:
        nv_driver.compile_module_from_src = timed_build
    clock = time.perf_counter()
    torch.zeros(1, device="cuda")
    torch.cuda.synchronize()
    record["cuda_init_s"] = round(time.perf_counter() - clock, 3)
    task = get_task(args.task)
    path = ROOT / "solutions" / task.id
    clock = time.perf_counter()
    spec = importlib.util.spec_from_file_location("probe_solution", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    record["solution_import_s"] = round(time.perf_counter() - clock, 3)
    fn = getattr(module, task.entry)
    cases = task.correctness_cases(args.seed, "cuda")
    calls = []
    for case in cases:
        run = clone_case(case)
        before = (len(compiles), len(builds))
        torch.cuda.synchronize()
        clock = time.perf_counter()
        try:
            fn(*run.args, **run.kwargs)
            torch.cuda.synchronize()
            error = None
        except Exception as exc:  # noqa: BLE001 - a case the solution refuses (e.g. a ValueError) still costs
            error = type(exc).__name__
        calls.append({"case": case.label, "s": round(time.perf_counter() - clock, 3),
                      "compiles": len(compiles) - before[0], "builds": len(builds) - before[1], "error": error})
    record.update({
        "cases": len(cases), "calls_s": round(sum(c["s"] for c in calls), 3),
        "listener": listener_ok,
        "compile_s": round(sum(c["s"] for c in compiles if not c["hit"]), 3),
        "compiles": sum(1 for c in compiles if not c["hit"]),
        "build_s": round(sum(b["s"] for b in builds), 3), "builds": len(builds),
        "stage_s": {}, "calls": calls, "build_names": sorted({b["name"] for b in builds}),
    })
    for c in compiles:
        for stage, s in c["stages_s"].items():
            record["stage_s"][stage] = round(record["stage_s"].get(stage, 0.0) + s, 3)
    print(json.dumps(record))


if __name__ == "__main__":
    main()
