"""The Python API: :func:`score` (code in, flat metric dict out), which the Hugging Face wrappers
(``evaluate`` metric, lm-eval task) call, and :class:`Evaluator`, a warm evaluator for reward loops
and the ``serve`` command. Everything runs through the same isolated runner as the CLI."""

from __future__ import annotations

import math
import tempfile
import time
from collections import defaultdict
from concurrent.futures import Future
from math import comb
from pathlib import Path
from typing import Any, Iterable, Sequence

from harness.config import GPU, RunConfig, StageLimits, draw_seed, seed_given
from harness.files import remove_tree
from harness.run.pool import JobPool, PoolClosed, QueueFull
from harness.run.runner import Evaluator as _Runner
from harness.run.shards import MAX_SHARES
from harness.run.submissions import load_submissions
from harness.verdicts import JobResult

__all__ = ["Evaluator", "QueueFull", "PoolClosed", "evaluate_code", "metric_dict", "pass_at_k", "score"]


# Run-level perf figures passed through to the metric dict (see perf/metrics.run_metrics).
PERF_KEYS = ("perf_rate", "avg_speedup", "geomean_speedup_vs_eager", "geomean_speedup_vs_compile",
             "fast_0", "fast_1", "fast_1.5", "fast_2", "slower_than_eager",
             "fast_0_core", "fast_1_core", "fast_1.5_core", "fast_2_core")
QUALITY_KEYS = ("mean_maintainability_index", "mean_cyclomatic_max", "median_sloc")
# A warm evaluator answers one submission at a time as fast as it can: its idle worker slots take
# shares of a submission expected to need more than this many seconds of compiling, each share in
# a spare the fork server keeps ready (a share forked cold spends about 0.8 s starting CUDA on an
# H100 while the others wait for it; benchmarks/results/2026-12-05-h100-warm-io/).
WARM_SHARD_TARGET_S = 1.0
WARM_SPARES = MAX_SHARES


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k for one task with ``n`` samples of which ``c`` are correct."""
    if n - c < k:
        return 1.0
    return 1.0 - comb(n - c, k) / comb(n, k)


def evaluate_code(predictions: Sequence[str | Sequence[str]], references: Sequence[str], *,
                  seed: int | None = None, out_dir: str | Path | None = None, timeout: float | None = None,
                  mode: str | None = None, workers: int | None = None, perf: bool = True,
                  compile_baseline: bool = False, backend: str = "local",
                  address: str | None = None) -> tuple[dict, list[list[JobResult]]]:
    """Evaluate ``predictions[i]`` (one code string or several samples) for task ``references[i]``.

    Returns the run summary and, per reference, the results of its samples in order. ``perf``
    times correct kernels on a GPU (ignored without one); ``compile_baseline`` adds torch.compile;
    ``backend="ray"`` schedules the jobs on the Ray cluster at ``address`` (None: a local one).
    """
    if len(predictions) != len(references):
        raise ValueError(f"{len(predictions)} predictions but {len(references)} references")
    pairs, owners = [], []
    for i, (pred, task) in enumerate(zip(predictions, references)):
        # several samples only as a list or tuple: anything else (None from a failed generation,
        # bytes, a dict) is one sample, refused with its own verdict
        samples = list(pred) if isinstance(pred, (list, tuple)) else [pred]
        for code in samples:
            pairs.append((task, code))
            owners.append(i)
    jobs = load_submissions(pairs)
    limits = StageLimits.with_timeout(timeout)
    with tempfile.TemporaryDirectory(prefix="kbx-run-") as tmp:
        config = RunConfig(out_dir=Path(out_dir) if out_dir else Path(tmp), seed=seed, mode=mode,
                           workers=workers, limits=limits, perf=perf, compile_baseline=compile_baseline,
                           backend=backend, ray_address=address)
        if backend == "ray":
            from harness.run.ray_backend import run_on_ray
            summary, by_key = run_on_ray(jobs, config, address)
        else:
            evaluator = _Runner(config)
            summary = evaluator.run(jobs)
            by_key = evaluator.results
    results: list[list[JobResult]] = [[] for _ in references]
    for owner, job in zip(owners, jobs):
        results[owner].append(by_key[job.key])
    return summary, results


DEFAULT_K = (1, 5, 10)


def metric_dict(summary: dict, results: list[list[JobResult]], references: Sequence[str],
                k: Sequence[int] | None = None) -> dict:
    """The flat dict the ``evaluate`` metric and lm-eval report. ``pass@k`` for each ``k`` that every
    reference has samples enough for; without ``k``, for 1, 5 and 10 when some reference has several."""
    out: dict = {"call_rate": summary["call_rate"], "exe_rate": summary["exe_rate"],
                 "exe_core_rate": summary["exe_core_rate"], "case_pass_rate": summary["case_pass_rate"],
                 "failure_causes": summary["failure_causes"], "mode": summary["mode"],
                 "seed": summary["seed"], "perf": summary["perf"], "workers": summary.get("workers")}
    out.update({k: summary.get(k) for k in PERF_KEYS + QUALITY_KEYS})
    n_samples = [len(r) for r in results]
    wanted = DEFAULT_K if k is None and max(n_samples, default=1) > 1 else (k or ())
    for kk in wanted:
        if n_samples and kk <= min(n_samples):
            scores = [pass_at_k(len(rs), sum(r.correct for r in rs), kk) for rs in results]
            out[f"pass@{kk}"] = round(sum(scores) / len(scores), 4)
    by_category: dict[str, list[JobResult]] = defaultdict(list)
    for rs in results:
        for r in rs:
            by_category[r.category or "(invalid)"].append(r)
    for category, rs in sorted(by_category.items()):
        out[f"exe_rate/{category}"] = round(sum(r.correct for r in rs) / len(rs), 4)
        out[f"exe_core_rate/{category}"] = round(sum(r.correct_core for r in rs) / len(rs), 4)
        out[f"call_rate/{category}"] = round(sum(r.call.ok for r in rs) / len(rs), 4)
    out["results"] = [[{"task_id": r.task_id or ref, "verdict": r.verdict, "call": r.call.status,
                        "exe": r.exe.status, "exe_core": r.correct_core, "case_pass_fraction": round(r.case_pass_fraction, 4),
                        "perf": r.perf.status, "speedup": r.perf_metrics.get("speedup"),
                        "quality": r.quality,
                        "detail": (r.call.detail if not r.call.ok else r.exe.detail if not r.exe.ok
                                   else r.perf.detail)[-1000:],
                        "cases": r.cases}
                       for r in rs] for rs, ref in zip(results, references)]
    return out


def score(predictions: Sequence[str | Sequence[str]], references: Sequence[str], *,
          k: Sequence[int] | None = None, **kwargs) -> dict:
    """``evaluate_code`` (``kwargs``) then ``metric_dict`` (``k``): the one call the wrappers make."""
    if k is not None and (isinstance(k, int) or not all(isinstance(x, int) and x >= 1 for x in k)):
        raise ValueError(f"k must be a list of positive integers (pass@k for each), got {k!r}")
    workers = kwargs.get("workers")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise ValueError(f"num_workers must be a positive integer, got {workers!r}")
    summary, results = evaluate_code(predictions, references, **kwargs)
    return metric_dict(summary, results, references, k)


def _check_submission(task_id: Any, code: Any, sample_id: Any, timeout: Any) -> None:
    """TypeError or ValueError for arguments of :meth:`Evaluator.submit` no job could be made of."""
    if not isinstance(task_id, str) or not isinstance(code, str):
        raise TypeError(f"task_id and code must be strings, got {type(task_id).__name__} and {type(code).__name__}")
    if isinstance(sample_id, bool) or not isinstance(sample_id, int) or sample_id < 0:
        raise ValueError(f"sample_id must be a non-negative integer, got {sample_id!r}")
    if timeout is None:
        return
    try:
        seconds = float(timeout) if isinstance(timeout, (int, float)) and not isinstance(timeout, bool) else math.nan
    except OverflowError:  # an integer past any float
        seconds = math.inf
    if not 0 < seconds < math.inf:
        raise ValueError(f"timeout must be a positive, finite number of seconds, got {str(timeout)[:40]}")


class Evaluator:
    """A warm evaluator: started once, it keeps its worker zygote, reference outputs and perf
    budget across submissions, so each one pays only for its own worker process (call, exe and,
    on a GPU, perf). Use it as a context manager::

        with Evaluator(perf=False) as ev:
            future = ev.submit("Activation/relu.py", code)     # returns at once
            record = future.result()                            # the job's metrics.json record
            records = ev.evaluate([(task_id, code), ...])       # a batch, in order

    Each record is the per-job dict of ``metrics.json`` (``verdict``, ``call``/``exe``/``perf``,
    ``cases``, ``perf_metrics``, ...). ``submit`` raises :class:`QueueFull` when ``max_pending``
    jobs already wait for a worker (back-pressure: retry later), :class:`PoolClosed` after
    :meth:`close`. Submissions run isolated exactly as in ``kernelbenchx eval``. Unless ``seed``
    (or ``KERNELBENCHX_SEED``) is given, each submission's inputs are drawn from a fresh secret seed
    of its own (its record's ``info.seed``), and :attr:`seed` is None.
    """

    def __init__(self, *, seed: int | None = None, mode: str | None = None, workers: int | None = None,
                 timeout: float | None = None, perf: bool = True, compile_baseline: bool = False,
                 max_pending: int = 256, shards: int | None = None, backend: str = "local",
                 address: str | None = None, fail_fast: bool = False) -> None:
        """``fail_fast``: stop a submission at its first wrong case (a faster answer for a wrong
        one, with case counts that cover only the cases run); ``timeout``: seconds for call and exe each (default 300; per submission in
        :meth:`submit`); ``workers``: concurrent worker processes (per GPU, or interpreter
        workers; with ``backend="ray"``, slots per GPU actor, or interpreter actors); ``shards``:
        processes per submission (default on a GPU: as many as idle worker slots allow for its
        expected compile time, so one submission alone is answered sooner); ``backend="ray"``: submissions run on the Ray
        cluster at ``address`` (None: a local one), one per actor slot at a time."""
        self._scratch = tempfile.TemporaryDirectory(prefix="kbx-warm-")
        self._left_behind: list[str] = []
        config = RunConfig(out_dir=Path(self._scratch.name), seed=seed, mode=mode, workers=workers,
                           limits=StageLimits.with_timeout(timeout), perf=perf, compile_baseline=compile_baseline,
                           shards=shards, shard_target_s=WARM_SHARD_TARGET_S, backend=backend, ray_address=address,
                           fail_fast=fail_fast)
        # (the interpreter shares out no job unless told to: one spare does there)
        config.spares = shards or (WARM_SPARES if config.resolved_mode() == GPU else 1)
        if backend == "ray":
            from harness.run.ray_backend import RayActors
            self._runner = RayActors(config, address)
        else:
            self._runner = _Runner(config)
        self.mode = self._runner.mode
        # Unless a seed is given, every submission's inputs come from a seed of its own: a client
        # sees each record (a case's error text can carry input values) before it sends the next,
        # and with one seed for the evaluator's life a submission that printed its inputs let the
        # next carry a table of the answers (a reward loop would learn the same). None then.
        self._own_seeds = not seed_given(seed)
        self.seed = None if self._own_seeds else config.seed
        self._pool = JobPool(self._runner, max_pending=max_pending)

    def submit(self, task_id: str, code: str, *, sample_id: int = 0,
               timeout: float | None = None) -> "Future[dict[str, Any]]":
        """Queue one submission (model output or plain source) for ``task_id``; the future's
        result is its metrics.json record. ``timeout`` overrides the call/exe limits for it
        (seconds, positive and finite). Cancelling the future before a worker takes the job drops
        the job. Raises TypeError or ValueError for malformed arguments."""
        _check_submission(task_id, code, sample_id, timeout)
        [job] = load_submissions([(task_id, code)])
        job.sample_id = sample_id
        if self._own_seeds:
            job.seed = draw_seed()  # (in the record's info)
        inner = self._pool.submit(job, StageLimits.with_timeout(timeout) if timeout else None)
        outer: "Future[dict[str, Any]]" = Future()

        def relay(done: "Future[JobResult]") -> None:
            if outer.cancelled():
                return
            if done.cancelled():
                outer.cancel()
            elif done.exception() is not None:
                outer.set_exception(done.exception())
            else:
                outer.set_result(done.result().to_json())
        inner.add_done_callback(relay)
        outer.add_done_callback(lambda f: inner.cancel() if f.cancelled() else None)
        return outer

    def evaluate(self, items: Iterable[tuple[str, str]], timeout: float | None = None) -> list[dict[str, Any]]:
        """Evaluate ``(task_id, code)`` pairs concurrently; their records, in order. Waits for room
        in the queue instead of raising :class:`QueueFull`."""
        futures = [self._submit_waiting(task_id, code, timeout) for task_id, code in items]
        return [f.result() for f in futures]

    def _submit_waiting(self, task_id: str, code: str, timeout: float | None) -> "Future[dict[str, Any]]":
        while True:
            try:
                return self.submit(task_id, code, timeout=timeout)
            except QueueFull:
                time.sleep(0.05)

    def load(self) -> dict[str, int]:
        """Jobs waiting and running now, and the number of worker slots."""
        return self._pool.load()

    @property
    def left_behind(self) -> list[str]:
        """Folders of the evaluator's (job directories, its scratch and output folders) that could
        not be removed: a submission may shape its job directory to resist removal."""
        return list(getattr(self._runner, "left_behind", [])) + self._left_behind

    def close(self) -> None:
        """Finish the running jobs, fail the waiting ones, stop every process of the evaluator and
        remove its folders (even if a step before failed; what stays is in :attr:`left_behind`)."""
        try:
            self._pool.close()
        finally:
            self._remove_out_dir()

    def _remove_out_dir(self) -> None:
        """Remove the folder of the evaluator's journal; never raises (a close must not end in a
        traceback for a folder)."""
        folder = Path(self._scratch.name)
        if not remove_tree(folder):
            self._left_behind.append(str(folder))
        try:
            self._scratch.cleanup()  # the folder is gone (or listed): this only detaches its finalizer
        except Exception:  # noqa: BLE001 - said through left_behind above
            pass

    def __enter__(self) -> "Evaluator":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
