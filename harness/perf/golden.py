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
import threading
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

    def file(self, task: Any) -> Path:
        """Where ``task``'s golden results are stored."""
        return self.path / task.category / f"{task.name}.json"

    def cases(self, task: Any) -> dict[str, dict[str, float]]:
        """``{case label: {"eager": ms, "compile": ms, "triton": ms}}`` for the task's cases whose
        inputs are still the ones measured (a changed case is not compared)."""
        try:
            data = json.loads(self.file(task).read_text())
        except (OSError, ValueError):
            return {}
        if data.get("task_perf_sha") != task.perf_source_hash:
            return {}  # the task's perf cases or reference changed since: not what was measured
        return {c["label"]: {k: c[k] for k in SIDES if c.get(k)} for c in data.get("cases", [])}


JOB_SECONDS_FILE = "job_seconds.json"


def expected_job_seconds(path: Path | None = None) -> dict[str, float]:
    """Seconds each task's bundled solution took in one worker process, call and exe
    (``job_seconds.json``, see benchmarks/job_seconds.py): what a run uses to start long jobs first
    and to decide which to spread over several processes. ``path`` is this GPU's golden folder
    (default: found from the device name); a task it has no seconds for takes another folder's
    under the same root. A job's time is Triton compiling its kernels, host work that the GPU
    hardly changes (benchmarks/results/2026-12-07-h100-call-cost: the H100's seconds under a full
    suite's load were 0.95x the H200's alone, in the median), so another GPU's seconds rank jobs
    about as well as none would rank them badly. Empty if nothing was measured."""
    path = Path(path) if path is not None else golden_root() / machine_name()
    try:
        others = sorted(p for p in path.parent.iterdir() if p.is_dir() and p != path)
    except OSError:
        others = []
    seconds: dict[str, float] = {}
    for folder in [path, *others]:
        for task, value in _job_seconds_file(folder).items():
            seconds.setdefault(task, value)
    return seconds


def _job_seconds_file(folder: Path) -> dict[str, float]:
    try:
        data = json.loads((folder / JOB_SECONDS_FILE).read_text())
        return {str(k): float(v) for k, v in data.get("seconds", {}).items()}
    except (OSError, ValueError, TypeError, AttributeError):
        return {}


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


class GoldenWriter:
    """Writes the golden results of one measuring run as its jobs are judged: each task's file when
    its job is done, and this run's entry in ``provenance.json`` kept current (``finished`` false
    until :meth:`finish`), so a run cut short by a time limit keeps everything it measured and says
    that it was cut."""

    def __init__(self, out: Path, prov: dict[str, Any]) -> None:
        self.out = out
        out.mkdir(parents=True, exist_ok=True)
        self.measured = {k: prov.get(k) for k in ("gpu", "driver", "torch", "triton", "cuda", "date", "seed")}
        self.written: list[str] = []
        self.missing: list[str] = []
        try:
            self._runs = json.loads((out / "provenance.json").read_text()).get("runs", [])
        except (OSError, ValueError):
            self._runs = []
        self._run = {**prov, "finished": False, "tasks": self.written, "not_measured": self.missing}
        self._runs.append(self._run)
        self._seen: set[str] = set()
        self._lock = threading.Lock()  # jobs are judged on several threads
        self._save_provenance()

    def add(self, result: Any) -> None:
        """Record one judged job (a :class:`JobResult`): its task's file if its perf stage passed,
        else a line in the run's ``not_measured``. A task already recorded is left as it is."""
        with self._lock:
            if result.task_id not in self._seen:
                self._seen.add(result.task_id)
                self._add(result)

    def _add(self, result: Any) -> None:
        if not result.perf.ok:
            self.missing.append(f"{result.task_id}: {result.verdict} ({result.perf.status}: {result.perf.detail[:200]})")
        else:
            task = get_task(result.task_id)
            path = self.out / task.category / f"{task.name}.json"
            path.parent.mkdir(parents=True, exist_ok=True)
            write_json_atomic(path, {"task_id": task.id, "task_perf_sha": task.perf_source_hash,
                                     "measured": self.measured, "cases": _golden_cases(result.perf_metrics)})
            self.written.append(task.id)
        self._save_provenance()

    def finish(self, roofline: dict[str, Any] | None, **facts: Any) -> list[str]:
        """The run ended: write the roofline it measured, the clocks now and ``facts`` (e.g. its
        wall time). Returns the tasks that could not be measured."""
        with self._lock:
            if roofline:
                write_json_atomic(self.out / "roofline.json", roofline)
            self._run.update(facts, finished=True, clocks_after=nvidia_smi(CLOCK_FIELDS))
            self._save_provenance()
        return self.missing

    def _save_provenance(self) -> None:
        write_json_atomic(self.out / "provenance.json", {"runs": self._runs})


def _golden_cases(perf_metrics: dict) -> list[dict]:
    cases = []
    for c in perf_metrics["cases"]:
        row = {"label": c["label"], "describe": c["describe"], "flops": c["flops"], "bytes": c["bytes"]}
        for name, side in SIDES.items():
            row[name] = (c.get(side) or {}).get("median_ms")
            row[f"{name}_iqr"] = (c.get(side) or {}).get("iqr_ms")
        row["compile_s"] = c.get("compile_s")
        row["roofline_ms"] = c.get("roofline_ms")
        cases.append(row)
    return cases


def write(out: Path, results: list, roofline: dict[str, Any] | None, prov: dict[str, Any]) -> list[str]:
    """Write the golden results of finished ``results`` at once (see :class:`GoldenWriter`); returns
    the tasks that could not be measured."""
    writer = GoldenWriter(out, prov)
    for result in results:
        writer.add(result)
    return writer.finish(roofline)
