"""Run jobs: schedule them on workers (one per GPU, or CPU interpreter workers), judge each, journal
each result as it finishes, and write the report at the end."""

from __future__ import annotations

import os
import platform
import queue
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import torch

from harness import report
from harness.journal import Journal
from harness.judge import judge_worker
from harness.process import StageLimits, _harness_pythonpath, run_worker
from harness.reference import ReferenceCache
from harness.sandbox import worker_env
from harness.submissions import Job
from harness.task import get_task
from harness.verdicts import ERROR, HARNESS_ERROR, SKIPPED, JobResult, StageResult

INTERPRETER = "interpreter"
GPU = "gpu"


@dataclass
class RunConfig:
    """Settings of one evaluation run."""

    out_dir: Path
    seed: int = 0
    resume: bool = False
    mode: str | None = None            # "gpu" | "interpreter"; None = gpu when CUDA is available
    gpus: list[int] | None = None      # GPU indices (default: all visible)
    workers: int | None = None         # interpreter workers, or workers per GPU (default: by CPU cores, at most 4)
    limits: StageLimits = field(default_factory=StageLimits)
    memory_limit: int | None = 8 << 30  # address-space cap per interpreter worker
    keep_job_dirs: bool = False

    def resolved_mode(self) -> str:
        if self.mode:
            return self.mode
        return GPU if torch.cuda.is_available() else INTERPRETER


def versions() -> dict[str, str]:
    import triton
    info = {"python": platform.python_version(), "torch": torch.__version__, "triton": triton.__version__}
    if torch.cuda.is_available():
        info["cuda"] = str(torch.version.cuda)
        info["gpu"] = torch.cuda.get_device_name(0)
    return info


def _physical_gpu(slot: str | None) -> str | None:
    """The CUDA_VISIBLE_DEVICES entry for torch index ``slot`` as the parent sees it."""
    if slot is None:
        return None
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    return visible.split(",")[int(slot)].strip() if visible else slot


class Evaluator:
    """Evaluates jobs under a :class:`RunConfig`; see :meth:`run`."""

    def __init__(self, config: RunConfig) -> None:
        self.config = config
        self.mode = config.resolved_mode()
        if self.mode == GPU and not torch.cuda.is_available():
            raise RuntimeError("mode 'gpu' asked for, but no CUDA GPU is visible")
        self.references = ReferenceCache()
        self.results: dict[str, JobResult] = {}  # by job key, after run()
        self._scratch = Path(tempfile.mkdtemp(prefix="kbx-jobs-"))

    def _slots(self) -> list[str | None]:
        """One entry per concurrent worker: the GPU index it owns, or None for interpreter workers."""
        if self.mode == GPU:
            gpus = self.config.gpus if self.config.gpus is not None else list(range(torch.cuda.device_count()))
            # call/exe do not time anything, so several workers may share a GPU (each compiles on the
            # CPU most of the time); a timed stage will need a GPU to itself.
            per_gpu = self.config.workers or max(1, min(4, (os.cpu_count() or 1) // max(len(gpus), 1)))
            return [str(g) for g in gpus for _ in range(per_gpu)]
        n = self.config.workers or min(os.cpu_count() or 1, 4)
        return [None] * max(1, n)

    def run(self, jobs: list[Job], on_result: Callable[[JobResult], None] | None = None) -> dict:
        """Evaluate every job not already in the journal; returns the summary dict."""
        header = {"seed": self.config.seed, "mode": self.mode, "versions": versions(),
                  "started": time.strftime("%Y-%m-%dT%H:%M:%S")}
        journal = Journal(self.config.out_dir, header, self.config.resume)
        pending: "queue.Queue[Job]" = queue.Queue()
        for job in jobs:
            if job.key not in journal.done:
                pending.put(job)
        errors: list[BaseException] = []

        def worker_loop(slot: str | None) -> None:
            while True:
                try:
                    job = pending.get_nowait()
                except queue.Empty:
                    return
                try:
                    result = self.evaluate(job, slot)
                except BaseException as exc:  # noqa: BLE001 - record, keep the run going
                    errors.append(exc)
                    result = self._result(job, StageResult(HARNESS_ERROR, f"{type(exc).__name__}: {exc}"),
                                          StageResult(SKIPPED, "harness error"))
                journal.append(result)
                if on_result:
                    on_result(result)

        threads = [threading.Thread(target=worker_loop, args=(slot,), daemon=True) for slot in self._slots()]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        shutil.rmtree(self._scratch, ignore_errors=True)
        results = [journal.done[j.key] for j in jobs if j.key in journal.done]
        self.results = {r.key: r for r in results}
        return report.write(self.config.out_dir, results, header)

    def _result(self, job: Job, call: StageResult, exe: StageResult, seconds: float = 0.0,
                info: dict | None = None) -> JobResult:
        category = job.task_id.split("/")[0] if job.task_id else None
        perf = StageResult(SKIPPED, "no GPU" if self.mode == INTERPRETER else "perf not requested")
        if not (call.ok and exe.ok):
            perf = StageResult(SKIPPED, "exe did not pass")
        return JobResult(key=job.key, task_id=job.task_id, category=category, sample_id=job.sample_id,
                         source=job.source, code_sha=job.code_sha, call=call, exe=exe, perf=perf,
                         mode=self.mode, seconds=round(seconds, 3), info=info or {})

    def evaluate(self, job: Job, slot: str | None) -> JobResult:
        """Evaluate one job in a fresh worker process."""
        if job.error:
            return self._result(job, StageResult(ERROR, job.error), StageResult(SKIPPED, "call did not pass"))
        task = get_task(job.task_id)
        device = "cpu" if self.mode == INTERPRETER else f"cuda:{slot}"
        expected = self.references.get(task, self.config.seed, device)
        cases = task.correctness_cases(self.config.seed, device)  # custom checks see the reference device
        job_dir = Path(tempfile.mkdtemp(prefix="job-", dir=self._scratch))
        try:
            (job_dir / "submission.py").write_text(job.code, encoding="utf-8")
            env = worker_env(job_dir, interpret=self.mode == INTERPRETER, visible_device=_physical_gpu(slot),
                             pythonpath=_harness_pythonpath())
            spec = {"job_dir": str(job_dir), "task_id": task.id, "seed": self.config.seed,
                    "device": "cpu" if self.mode == INTERPRETER else "cuda",
                    "interpret": self.mode == INTERPRETER,
                    "memory_limit": self.config.memory_limit if self.mode == INTERPRETER else None}
            outcome = run_worker(job_dir, spec, env, self.config.limits)
            call, exe = judge_worker(task, outcome, cases, expected, job_dir)
            info = {"sandbox": next((e.get("sandbox") for e in outcome.events if e.get("sandbox")), None),
                    "configs": (outcome.report or {}).get("configs"),
                    "source_task": task.id}
            return self._result(job, call, exe, outcome.seconds, info)
        finally:
            if not self.config.keep_job_dirs:
                shutil.rmtree(job_dir, ignore_errors=True)
