"""Golden results: per-GPU-model baselines measured by ``kernelbenchx golden``.

Layout: ``golden_results/<gpu>/<Category>/<name>.json`` (one file per task: per perf case the
eager, torch.compile and reference-Triton medians), ``roofline.json`` (the measured ceilings) and
``provenance.json`` (per measuring run: GPU, driver, versions, clocks before and after, date, seed,
the tasks it wrote; golden results may be measured a few categories at a time). An evaluation
finds the directory for its GPU by the device name (``NVIDIA H200`` -> ``h200``);
``KERNELBENCHX_GOLDEN_MACHINE`` names another folder, ``KERNELBENCHX_GOLDEN_RESULTS_DIR`` another root.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.config import ENV_GOLDEN_MACHINE, ENV_GOLDEN_RESULTS_DIR
from harness.files import write_json_atomic
from harness.perf.roofline import gpu_slug
from harness.protocol import CANDIDATE, COMPILE, EAGER
from harness.shipped import golden_results_dir
from harness.task import get_task

SIDES = {"eager": EAGER, "compile": COMPILE, "triton": CANDIDATE}  # golden name -> timed side


def golden_root() -> Path:
    """Where golden results live: $KERNELBENCHX_GOLDEN_RESULTS_DIR, else those shipped with the package."""
    return Path(os.environ.get(ENV_GOLDEN_RESULTS_DIR) or golden_results_dir())


def machine_name() -> str:
    """The golden folder for this machine: $KERNELBENCHX_GOLDEN_MACHINE, else from the GPU's name."""
    if os.environ.get(ENV_GOLDEN_MACHINE):
        return os.environ[ENV_GOLDEN_MACHINE]
    import torch
    return gpu_slug(torch.cuda.get_device_name(0))


@dataclass
class GoldenResults:
    """The stored golden results of one GPU model."""

    path: Path

    @classmethod
    def find(cls, path: Path | None = None) -> "GoldenResults | None":
        path = path or golden_root() / machine_name()
        return cls(path) if (path / "provenance.json").exists() else None

    def cases(self, task: Any) -> dict[str, dict[str, float]]:
        """``{case label: {"eager": ms, "compile": ms, "triton": ms}}`` for the task's cases whose
        inputs are still the ones measured (a changed case is not compared)."""
        file = self.path / task.category / f"{task.name}.json"
        try:
            data = json.loads(file.read_text())
        except (OSError, ValueError):
            return {}
        if data.get("task_perf_sha") != task.perf_source_hash:
            return {}  # the task's perf cases or reference changed since: not what was measured
        return {c["label"]: {k: c[k] for k in SIDES if c.get(k)} for c in data.get("cases", [])}


    def job_seconds(self) -> dict[str, float]:
        """Seconds the bundled solution of each task took on this GPU in one worker process,
        call and exe (``job_seconds.json``, see benchmarks/job_seconds.py): what a run uses to start
        long jobs first and to decide which to spread over several processes. Empty if not measured."""
        try:
            data = json.loads((self.path / JOB_SECONDS_FILE).read_text())
            return {str(k): float(v) for k, v in data.get("seconds", {}).items()}
        except (OSError, ValueError, TypeError, AttributeError):
            return {}


JOB_SECONDS_FILE = "job_seconds.json"


def nvidia_smi(fields: str) -> str | None:
    try:
        out = subprocess.run(["nvidia-smi", f"--query-gpu={fields}", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.strip() if out.returncode == 0 else None


CLOCK_FIELDS = "clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,temperature.gpu,power.draw,pstate"


def provenance(seed: int) -> dict[str, Any]:
    """Where and with what the golden results were measured (clocks are read again at the end)."""
    import torch
    import triton
    return {"gpu": torch.cuda.get_device_name(0), "driver": nvidia_smi("driver_version"),
            "torch": torch.__version__, "triton": triton.__version__, "cuda": str(torch.version.cuda),
            "python": platform.python_version(), "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "seed": seed, "clocks_before": nvidia_smi(CLOCK_FIELDS), "clock_fields": CLOCK_FIELDS}


def write(out: Path, results: list, roofline: dict[str, Any] | None, prov: dict[str, Any]) -> list[str]:
    """Write one file per task with a timed reference solution (each with this run's provenance),
    the roofline, and append this run to ``provenance.json`` (golden results may be measured in
    several runs, e.g. a category at a time). Returns the tasks that could not be measured."""
    out.mkdir(parents=True, exist_ok=True)
    measured = {k: prov.get(k) for k in ("gpu", "driver", "torch", "triton", "cuda", "date", "seed")}
    missing, written = [], []
    for r in results:
        if not r.perf.ok:
            missing.append(f"{r.task_id}: {r.verdict} ({r.perf.status}: {r.perf.detail[:200]})")
            continue
        task = get_task(r.task_id)
        cases = []
        for c in r.perf_metrics["cases"]:
            row = {"label": c["label"], "describe": c["describe"], "flops": c["flops"], "bytes": c["bytes"]}
            for name, side in SIDES.items():
                row[name] = (c.get(side) or {}).get("median_ms")
                row[f"{name}_iqr"] = (c.get(side) or {}).get("iqr_ms")
            row["compile_s"] = c.get("compile_s")
            row["roofline_ms"] = c.get("roofline_ms")
            cases.append(row)
        path = out / task.category / f"{task.name}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        write_json_atomic(path, {"task_id": task.id, "task_perf_sha": task.perf_source_hash, "measured": measured,
                                 "cases": cases})
        written.append(task.id)
    if roofline:
        write_json_atomic(out / "roofline.json", roofline)
    try:
        runs = json.loads((out / "provenance.json").read_text()).get("runs", [])
    except (OSError, ValueError):
        runs = []
    runs.append({**prov, "clocks_after": nvidia_smi(CLOCK_FIELDS), "tasks": written, "not_measured": missing})
    write_json_atomic(out / "provenance.json", {"runs": runs})
    return missing
