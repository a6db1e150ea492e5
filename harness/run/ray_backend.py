"""Jobs scheduled on a Ray cluster (``--backend ray``): Ray is the scheduler, not the sandbox.

Each Ray actor holds one local :class:`~harness.run.runner.Evaluator` and evaluates jobs exactly as a
local run does: each job in its own sandboxed worker processes, with its time limits, references and
judging, on the actor's node. In GPU mode there is one actor per GPU (``num_gpus=1``) with several
worker slots, as a local run has per GPU (call/exe compile on the CPU; the timed stage takes the GPU's
one timing lock, shared by the actor's slots): ``--workers`` sets the slots per actor, by default one
per CPU core of the node per GPU, at most 16. In interpreter mode an actor is one CPU with one slot.
The driver keeps the one journal (so ``--resume`` works across a driver restart) and records each
job once: a job whose actor dies (the process killed, the node lost) is given to a new actor and
evaluated again from the start, at most ``MAX_ATTEMPTS`` times, and only the attempt that returns is
recorded. Golden results are looked up on each node for its GPU model.
"""

from __future__ import annotations

import queue
import threading
import time
from dataclasses import asdict
from typing import Any, Callable

from harness.config import GPU, INTERPRETER, RunConfig, resolve_seed
from harness.files import write_json_atomic
from harness.run.journal import Journal, recorded_seed
from harness.run.runner import versions
from harness.run.submissions import Job
from harness.verdicts import HARNESS_ERROR, SKIPPED, JobResult, StageResult

MAX_ATTEMPTS = 3  # evaluations of one job whose actors died before it is recorded as a harness error


class RayUnavailable(RuntimeError):
    """Ray is not installed or the cluster cannot be reached."""


def _ray():
    try:
        import ray
    except ImportError as exc:
        raise RayUnavailable("--backend ray needs Ray: pip install 'kernelbenchx[ray]'") from exc
    return ray


def connect(address: str | None, workers: int | None) -> Any:
    """Join the cluster at ``address`` ("auto", "ray://host:port"), or start a local one (None)."""
    ray = _ray()
    if not ray.is_initialized():
        try:
            if address:
                ray.init(address=address, log_to_driver=False)
            else:
                ray.init(num_cpus=workers, log_to_driver=False)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise RayUnavailable(f"cannot reach the Ray cluster at {address}: {exc}") from exc
    return ray


class JobRunner:
    """The actor: a warm local evaluator with ``slots`` worker slots, run concurrently (Ray's
    ``max_concurrency``). In GPU mode every slot is GPU "0" (Ray's CUDA_VISIBLE_DEVICES gives the
    actor its GPU as device 0), so the slots share that GPU's timing lock and perf memory."""

    def __init__(self, config: RunConfig, mode: str, slots: int) -> None:
        from harness.run.runner import Evaluator
        self.config = RunConfig(out_dir=config.out_dir, seed=config.seed, mode=mode, gpus=[0] if mode == GPU else None,
                                workers=slots, limits=config.limits, memory_limit=config.memory_limit, perf=config.perf,
                                compile_baseline=config.compile_baseline, golden_dir=config.golden_dir, shards=1,
                                fail_fast=config.fail_fast, perf_samples=config.perf_samples,
                                hidden_paths=config.hidden_paths)
        self.evaluator = Evaluator(self.config)
        self.evaluator.open()
        self.slot = "0" if mode == GPU else None
        self.gpu = None
        if mode == GPU:
            import torch
            self.gpu = torch.cuda.get_device_name(0)

    def evaluate(self, job: Job, limits=None) -> dict:
        import os
        result = self.evaluator.evaluate_recorded(job, self.slot, limits)
        data = result.to_json()
        data.setdefault("info", {})["ray"] = {"node": os.uname().nodename, "pid": os.getpid(), "gpu": self.gpu}
        return data

    def context(self) -> dict:
        """What the actor runs with: the roofline and golden results of its node's GPU."""
        ev = self.evaluator
        return {"roofline": ev.roofline, "golden": str(ev.golden.path) if ev.golden else None,
                "perf": ev.perf_note(), "slots": len(ev.slots())}


def default_slots_per_gpu(ray: Any) -> int:
    """Worker slots per GPU actor when ``--workers`` is not given: as a local run on the node with
    the fewest CPU cores per GPU (one per core, at most ``MAX_WORKERS_PER_GPU``)."""
    from harness.run.runner import MAX_WORKERS_PER_GPU
    per_gpu = [node["Resources"].get("CPU", 1) / node["Resources"]["GPU"]
               for node in ray.nodes() if node.get("Alive") and node["Resources"].get("GPU", 0) >= 1]
    return max(1, min(MAX_WORKERS_PER_GPU, int(min(per_gpu, default=1))))


def cluster_mode(ray: Any, config: RunConfig) -> str:
    """GPU mode when the cluster has GPUs (unless the interpreter was asked for)."""
    if config.mode:
        return config.mode
    return GPU if ray.cluster_resources().get("GPU", 0) >= 1 else INTERPRETER


class RayActors:
    """The actors of one run or warm evaluator, shaped like a local evaluator for
    :class:`~harness.run.pool.JobPool`: :meth:`slots` lists every worker slot of every actor, and
    :meth:`evaluate_recorded` blocks for the result of the job on its slot's actor (re-running the
    job on a new actor if that one dies)."""

    def __init__(self, config: RunConfig, address: str | None = None, slots_per_actor: int | None = None) -> None:
        """``slots_per_actor``: concurrent jobs per actor (default: GPU mode ``config.workers`` or
        :func:`default_slots_per_gpu`, with one actor per GPU of the cluster; interpreter mode 1,
        with ``config.workers`` actors or one per CPU of the cluster)."""
        self._started_ray = not _ray().is_initialized()  # then close() shuts down what this started
        self.ray = connect(address, config.workers)
        # one seed for every actor (each would otherwise draw its own)
        config.seed = resolve_seed(config.seed, recorded_seed(config.out_dir) if config.resume else None)
        self.config = config
        self.mode = cluster_mode(self.ray, config)
        resources = self.ray.cluster_resources()
        if self.mode == GPU:
            n = max(1, int(resources.get("GPU", 0)))
            self.per_actor = slots_per_actor or config.workers or default_slots_per_gpu(self.ray)
            options = {"num_gpus": 1, "num_cpus": 1}  # the actor mostly waits; its jobs' processes do the work
        else:
            self.per_actor = slots_per_actor or 1
            n = max(1, (config.workers or int(resources.get("CPU", 1))) // self.per_actor)
            options = {"num_cpus": self.per_actor}
        self._class = self.ray.remote(**options)(JobRunner)
        self._lock = threading.Lock()  # replacing a dead actor: once, though all its slots see it die
        self.actors = [self._new() for _ in range(n)]
        self.context = self.ray.get(self.actors[0].context.remote())

    def _new(self):
        return self._class.options(max_restarts=0, max_concurrency=self.per_actor).remote(
            self.config, self.mode, self.per_actor)

    def open(self) -> None:
        """Nothing to do: the actors opened their evaluators when they started."""

    def slots(self) -> list[int]:
        """Slot ``s`` belongs to actor ``s // per_actor``."""
        return list(range(len(self.actors) * self.per_actor))

    def _replace(self, index: int, dead: Any) -> None:
        with self._lock:
            if self.actors[index] is dead:  # not yet replaced by another of its slots
                self.ray.kill(dead, no_restart=True)
                self.actors[index] = self._new()

    def evaluate_recorded(self, job: Job, slot: int, limits=None) -> JobResult:
        """``job`` on the actor of ``slot``; a job whose actor dies goes to a new actor, at most
        ``MAX_ATTEMPTS`` times, then is a ``harness_error``, as is a job whose evaluation raised."""
        index = slot // self.per_actor
        error: BaseException | None = None
        for attempt in range(1, MAX_ATTEMPTS + 1):
            actor = self.actors[index]
            try:
                result = JobResult.from_json(self.ray.get(actor.evaluate.remote(job, limits)))
            except self.ray.exceptions.RayTaskError as exc:  # the actor lives; the harness raised on this job
                return _lost(job, self.mode, exc, "the harness raised while evaluating this job on Ray")
            except self.ray.exceptions.RayError as exc:  # the actor or its node died during the job
                error = exc
                self._replace(index, actor)
                continue
            result.info.setdefault("ray", {})["attempt"] = attempt
            return result
        return _lost(job, self.mode, error, f"the Ray actor evaluating this job died {MAX_ATTEMPTS} times")

    def close(self) -> None:
        """Stop the actors, and the Ray instance if this object started it (a local one: its
        processes would otherwise outlive an interrupted run)."""
        for actor in self.actors:
            self.ray.kill(actor, no_restart=True)
        if self._started_ray:
            self.ray.shutdown()


def run_on_ray(jobs: list[Job], config: RunConfig, address: str | None = None,
               on_result: Callable[[JobResult], None] | None = None) -> tuple[dict, dict[str, JobResult]]:
    """Evaluate ``jobs`` on the cluster; returns (summary, results by job key), as a local run's."""
    from harness.report.summary import write_reports
    actors = RayActors(config, address)
    started = time.monotonic()
    context = actors.context
    header = {"seed": config.seed, "mode": actors.mode, "versions": versions(),
              "started": time.strftime("%Y-%m-%dT%H:%M:%S"), "perf": context["perf"],
              "compile_baseline": config.compile_baseline and actors.mode == GPU, "roofline": context["roofline"],
              "golden": context["golden"], "backend": "ray", "workers": len(actors.slots()),
              "fail_fast": config.fail_fast, "limits": asdict(config.limits)}
    journal = Journal(config.out_dir, header, config.resume)
    pending: "queue.Queue[Job]" = queue.Queue()
    for job in jobs:
        if job.key not in journal.done:
            pending.put(job)

    def slot_loop(slot: int) -> None:  # one thread per worker slot, as in a local run
        while True:
            try:
                job = pending.get_nowait()
            except queue.Empty:
                return
            result = actors.evaluate_recorded(job, slot)
            journal.append(result)
            if on_result:
                on_result(result)

    threads = [threading.Thread(target=slot_loop, args=(slot,), daemon=True) for slot in actors.slots()]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        actors.close()
    results = {r.key: r for r in journal.results_for(jobs)}
    summary = write_reports(config.out_dir, list(results.values()), header | {"wall_s": round(time.monotonic() - started, 1)})
    by_model = per_gpu_model(list(results.values()))
    if len(by_model) > 1:  # speedups against eager on different GPUs are not one population: say so
        summary["per_gpu_model"] = by_model
        summary["note"] = f"jobs ran on {len(by_model)} GPU models: compare speedups within a model (per_gpu_model)"
        write_json_atomic(config.out_dir / "summary.json", summary)
    return summary, results


def per_gpu_model(results: list[JobResult]) -> dict[str, dict]:
    """Jobs and geometric-mean speedup vs eager per GPU model the jobs ran on (GPU mode)."""
    from harness.perf.metrics import geomean
    groups: dict[str, list[JobResult]] = {}
    for r in results:
        model = (r.info.get("ray") or {}).get("gpu")
        if model:
            groups.setdefault(model, []).append(r)
    return {model: {"jobs": len(rs), "geomean_speedup_vs_eager": geomean(r.perf_metrics.get("speedup_vs_eager") for r in rs)}
            for model, rs in sorted(groups.items())}


def _lost(job: Job, mode: str, exc: BaseException | None, what: str) -> JobResult:
    detail = f"{what} (last: {type(exc).__name__}: {str(exc)[:300]})"
    return JobResult(key=job.key, task_id=job.task_id, category=(job.task_id or "").split("/")[0] or None,
                     sample_id=job.sample_id, source=job.source, code_sha=job.code_sha,
                     call=StageResult(HARNESS_ERROR, detail), exe=StageResult(SKIPPED, "harness error"),
                     perf=StageResult(SKIPPED, "harness error"), mode=mode)
