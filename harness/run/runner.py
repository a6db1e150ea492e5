"""Run jobs: schedule them on workers (one per GPU, or CPU interpreter workers), judge each, journal
each result as it finishes, and write the report at the end."""

from __future__ import annotations

import os
import platform
import queue
import tempfile
import threading
import time
from collections import Counter
from contextlib import nullcontext
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path
from typing import Any, Callable

import torch

import harness
from harness import protocol
from harness.config import (ENV_NO_SPARES, ENV_NO_ZYGOTE, ENV_PERF_ON_CPU, GPU, INTERPRETER, WORKER_FILE_LIMIT, RunConfig,
                            StageLimits, resolve_seed)
from harness.perf.metrics import implausible_timing, job_metrics
from harness.files import remove_tree
from harness.report.summary import write_reports
from harness.report.quality import code_quality
from harness.run.compile_times import merged_compile_times
from harness.run.environment import baseline_env, physical_gpu, private_dirs, visible_devices, worker_env
from harness.run.disk import SLACK_BYTES
from harness.run.gpu_memory import (CALL_EXE_ALLOWANCE, JUDGING_FACTOR, LENT_IN_PERF, PerfMemory, Reservation,
                                    budget_for, candidate_cap, out_of_gpu_memory, perf_footprint)
from harness.run.journal import Journal, recorded_seed
from harness.run.judge import fails_numerically, judge_worker
from harness.run.perf_stage import baseline_dir, run_perf, start_baseline
from harness.run.quiet import JobClock, QuietGpu
from harness.run.process import WorkerProcess
from harness.run.reference import PassInputs, ReferenceCache
from harness.run.shards import JobWorkers, ProcessSlots, cheapest_first, shares_wanted, split_cases
from harness.run.teardown import Teardowns
from harness.run.submissions import Job
from harness.run.zygote import Zygote
from harness.task import get_task
from harness.verdicts import CRASHED, ERROR, HARNESS_ERROR, INTEGRITY, SKIPPED, JobResult, StageResult, core_passed

# Largest file a worker may write when perf runs: its check-set results at perf sizes (outputs and
# arguments after the call) go through a file in its job dir.
PERF_FILE_LIMIT = 16 << 30
# Default call/exe workers per GPU: one per CPU core up to this many (each holds a CUDA context and,
# during perf, a share of the GPU's memory; see run/gpu_memory.py).
MAX_WORKERS_PER_GPU = 16
# A job's expected seconds in one worker where no measurement of its task is known (a typical
# task's compile time per case on a GPU), for deciding whether to spread it over processes.
DEFAULT_SECONDS_PER_CASE = 0.4


def _foreign_code(job: Job, workers: list[WorkerProcess]) -> str | None:
    """Why a verdict of these workers would not be about ``job``'s code (a worker of the job
    imported a file with other bytes than the ones written for it), else None."""
    digests = {w.outcome.source_sha256 for w in workers if w.outcome.source_sha256}
    foreign = sorted(d for d in digests if not d.startswith(job.code_sha))  # code_sha: the first 16 digits
    if foreign:
        return (f"a worker of this job imported other code than the job's (SHA-256 {foreign[0][:16]}..., "
                f"the job's {job.code_sha}...): no verdict is given about code that was not run")
    return None


def _sandbox_level(outcome) -> str | None:
    """The confinement the worker applied, from its load-stage event (sent before the submission was
    imported; the parent accepts each stage once, so a later event cannot restate it)."""
    level = next((e.get("sandbox") for e in outcome.events
                  if e.get("event") == protocol.STAGE and e.get("stage") == protocol.LOAD), None)
    return str(level)[:80] if level else None


def _configs_checked(outcome) -> list[str] | None:
    configs = (outcome.report or {}).get("configs")
    return [str(c)[:300] for c in configs[:128]] if isinstance(configs, list) else None


NATIVE_FAULTS = ("SIGSEGV", "SIGBUS", "SIGILL", "SIGFPE", "SIGABRT")  # not SIGKILL: the parent's own or the OOM killer's
MAX_RETRY_DETAIL = 1500  # characters of the first crash kept in info.retried_after_crash


def native_crash(result: JobResult) -> str | None:
    """The crash detail when ``result``'s worker died of a native fault during call or exe, else None."""
    if result.info.get("worker_signal") not in NATIVE_FAULTS:
        return None
    crashed = [stage for stage in (result.call, result.exe) if stage.status == CRASHED]
    return crashed[0].detail[:MAX_RETRY_DETAIL] if crashed else None


@dataclass
class Admission:
    """A job admitted to run: its task and drawn cases, and the worker slots it holds."""

    task: Any
    cases: list
    slots: ProcessSlots
    taken: int
    timing: dict[str, float]

    def release(self, keep: int = 0) -> None:
        """Give back all but ``keep`` of the slots still held (idempotent)."""
        if self.taken > keep:
            self.slots.give_back(self.taken - keep)
            self.taken = keep


def versions() -> dict[str, str]:
    import triton
    info = {"kernelbenchx": harness.__version__, "python": platform.python_version(), "torch": torch.__version__,
            "triton": triton.__version__}
    if torch.cuda.is_available():
        info["cuda"] = str(torch.version.cuda)
        info["gpu"] = torch.cuda.get_device_name(0)
    return info


class Evaluator:
    """Evaluates jobs under a :class:`RunConfig`: a batch with :meth:`run`, or one job at a time with
    :meth:`evaluate` between :meth:`open` and :meth:`close` (see run/pool.py)."""

    def __init__(self, config: RunConfig) -> None:
        config.seed = resolve_seed(config.seed, recorded_seed(config.out_dir) if config.resume else None)
        self.config = config
        self.mode = config.resolved_mode()
        if self.mode == GPU and not torch.cuda.is_available():
            raise RuntimeError("mode 'gpu' asked for, but no CUDA GPU is visible")
        self.references = ReferenceCache(kept_seed=config.seed)
        self.results: dict[str, JobResult] = {}  # by job key, after run()
        self._scratch = Path(tempfile.mkdtemp(prefix="kbx-jobs-"))
        # resolved here, before any worker's environment names its job dir as home and temp dir
        self._private = private_dirs()
        self.perf_enabled = config.perf and (self.mode == GPU or os.environ.get(ENV_PERF_ON_CPU) == "1")
        self._gpu_locks: dict[str | None, threading.Lock] = {}  # one timed job per GPU at a time
        self._quiet: dict[str | None, QuietGpu] = {}  # the jobs of each GPU, held while another is timed
        self._perf_memory: dict[str | None, PerfMemory] = {}    # GPU mode: perf memory per GPU
        self.roofline: dict | None = None
        self.golden = None
        self._zygote: Zygote | None = None
        self._open = False
        self._stopping = False  # set by close(): background work ends
        self._process_slots = {slot: ProcessSlots(self.slots().count(slot)) for slot in set(self.slots())}
        self.shard_target_s = config.shard_target_s
        self._expected_seconds: dict[str, float] = {}  # per task, in one worker (golden results' job_seconds)
        self.left_behind: list[str] = []  # job directories (or the scratch root) that could not be removed
        self.teardowns = Teardowns()  # what follows jobs' results (run/teardown.py)

    def open(self, zygote: bool = True) -> None:
        """Get ready to evaluate: the perf budget, the roofline and golden results, and (``zygote``)
        the process workers are forked from. Idempotent."""
        if self._open:
            return
        self._scratch.mkdir(exist_ok=True)
        self._stopping = False
        self._prepare_perf()
        if self.mode == GPU:
            from harness.perf import golden
            found = self.golden or golden.GoldenResults.find(self.config.golden_dir)
            self._expected_seconds = golden.expected_job_seconds(found.path if found else self.config.golden_dir)
        if zygote:
            self._zygote = self._start_zygote()
        self._open = True

    def close(self) -> None:
        """Stop the zygote and remove the jobs' scratch directory (even if stopping the zygote
        failed; what stays is in ``left_behind``)."""
        self._stopping = True
        try:
            self.teardowns.finish()  # every job's processes reaped, its folders removed
            if self._zygote:
                self._zygote.close()
                for slot, quiet in self._quiet.items():
                    quiet.leave(self._zygote.spares_of(self._visible_devices(slot)))
                self._zygote = None
        finally:
            self._remove(self._scratch)
            self._open = False

    def _remove(self, directory: Path) -> None:
        """Remove ``directory`` (a job's, or the scratch root with the zygote's home); one that stays
        is added to ``left_behind``, which the summary reports. Never raises: a job's directory is
        the submission's to shape, and its cleanup must neither replace the job's verdict nor end
        the run or the evaluator's close."""
        if not remove_tree(directory):  # (it answers, never raises)
            self.left_behind.append(str(directory))

    def __enter__(self) -> "Evaluator":
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _prepare_perf(self) -> None:
        if not self.perf_enabled:
            return
        slots = self.slots()
        for slot in set(slots):
            self._gpu_locks.setdefault(slot, threading.Lock())
            self._quiet.setdefault(slot, QuietGpu())
        if self.mode == GPU:
            for slot in set(slots):
                free, _ = torch.cuda.mem_get_info(int(slot))
                self._perf_memory[slot] = PerfMemory(budget_for(free, slots.count(slot)))
            from harness.perf import golden, roofline
            self.golden = golden.GoldenResults.find(self.config.golden_dir)
            self.roofline = (roofline.measure_and_cache("cuda:0") if self.config.remeasure_roofline
                             else roofline.load_or_measure("cuda:0", self.golden.path if self.golden else None))

    def perf_note(self) -> str:
        """How perf was run, for the summary."""
        if self.mode == INTERPRETER and not self.perf_enabled:
            return "skipped (no GPU)"
        if not self.perf_enabled:
            return "not requested"
        if self.mode == INTERPRETER:
            return "protocol test on CPU: host-clock times, not kernel performance"
        return "timed on GPU"

    def _start_zygote(self) -> Zygote | None:
        """The process workers are forked from (saves each job the imports); None if it cannot
        start, or if ``KERNELBENCHX_NO_ZYGOTE=1``: then each worker is a new interpreter, and a
        process a submission detaches is no longer killed at once (see harness/lifetime.py)."""
        # Nothing the zygote imports initialises CUDA (shown on the H200), so a forked worker
        # initialises it for its own GPU as a new process would.
        if os.environ.get(ENV_NO_ZYGOTE) == "1":
            return None
        home = self._scratch / "zygote"
        home.mkdir(exist_ok=True)
        interpret = self.mode == INTERPRETER
        env = worker_env(home, interpret=interpret, visible_device=None)
        try:
            zygote = Zygote(env, home)
        except (OSError, RuntimeError):
            return None
        for slot, quiet in self._quiet.items():  # its spares are stopped with their GPU's jobs
            quiet.join(zygote.spares_of(self._visible_devices(slot)))
        warm = self._worker_warm()
        for slot in set(self.slots()) if warm else ():  # spares per GPU now: the first job starts in them too
            zygote.prewarm(protocol.WORKER_MODULE, warm,
                           worker_env(home / f"spare-{slot}", interpret=interpret, visible_device=physical_gpu(slot)),
                           spares=self.config.spares)
        return zygote

    def slots(self) -> list[str | None]:
        """One entry per concurrent worker: the GPU index it owns, or None for interpreter workers."""
        if self.mode == GPU:
            gpus = self.config.gpus if self.config.gpus is not None else list(range(torch.cuda.device_count()))
            # call/exe do not time anything, so several workers may share a GPU (each compiles on the
            # CPU most of the time, so one per core); a timed stage takes the GPU's timing lock.
            per_gpu = self.config.workers or max(1, min(MAX_WORKERS_PER_GPU, (os.cpu_count() or 1) // max(len(gpus), 1)))
            return [str(g) for g in gpus for _ in range(per_gpu)]
        n = self.config.workers or min(os.cpu_count() or 1, 4)
        return [None] * max(1, n)

    def run(self, jobs: list[Job], on_result: Callable[[JobResult], None] | None = None) -> dict:
        """Evaluate every job not already in the journal; returns the summary dict."""
        started = time.monotonic()
        opened = not self._open
        if opened:
            self.open(zygote=False)  # started below, only if a job is left to do
        try:
            header = {"seed": self.config.seed, "mode": self.mode, "versions": versions(),
                      "started": time.strftime("%Y-%m-%dT%H:%M:%S"), "perf": self.perf_note(),
                      "compile_baseline": self.config.compile_baseline and self.perf_enabled,
                      "roofline": self.roofline, "golden": str(self.golden.path) if self.golden else None,
                      "workers": len(self.slots()), "fail_fast": self.config.fail_fast,
                      "limits": asdict(self.config.limits)}
            journal = Journal(self.config.out_dir, header, self.config.resume)
            pending: "queue.Queue[Job]" = queue.Queue()
            # Longest first (where this GPU's per-task times are known), so the run does not end
            # waiting for one long job started last.
            todo = [j for j in sorted(jobs, key=lambda j: -self._expected_seconds.get(j.task_id or "", 0.0))
                    if j.key not in journal.done]
            for job in todo:
                pending.put(job)

            admitting = threading.Lock()  # jobs take their worker slots in queue order

            def worker_loop(slot: str | None) -> None:
                while True:
                    with admitting:
                        try:
                            job = pending.get_nowait()
                        except queue.Empty:
                            return
                        try:
                            admission = self.admit(job, slot)
                        except Exception:  # noqa: BLE001 - evaluate_recorded meets it again and records it
                            admission = None
                    result = self.evaluate_recorded(job, slot, admission=admission)
                    journal.append(result)
                    if on_result:
                        on_result(result)

            if opened and not pending.empty():
                self._zygote = self._start_zygote()
            self._prefetch_references(todo)
            threads = [threading.Thread(target=worker_loop, args=(slot,), daemon=True) for slot in self.slots()]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        finally:
            if opened:
                self.close()
        results = journal.results_for(jobs)
        self.results = {r.key: r for r in results}
        extra = {"journal_error": journal.write_error} if journal.write_error else {}
        if self.left_behind:
            extra["left_behind"] = self.left_behind[:20]
        if self.teardowns.errors:
            extra["teardown_errors"] = self.teardowns.errors[:20]
        return write_reports(self.config.out_dir, results,
                             header | {"wall_s": round(time.monotonic() - started, 1)} | extra)

    def _prefetch_references(self, jobs: list[Job]) -> None:
        """Compute the expected outputs of the jobs' tasks in the order the jobs will run, in a
        background thread, so a job rarely waits for its task's reference. Only where every slot
        uses the same device (references are kept per device)."""
        devices = {self._reference_device(slot) for slot in self.slots()}
        if len(devices) != 1:
            return
        device = devices.pop()
        slot = self.slots()[0]

        def prefetch() -> None:
            for job in jobs:
                if self._stopping:
                    return
                if job.seed is not None:  # its own inputs: nothing another job could share
                    continue
                try:
                    with self._parent_gpu_work(slot):
                        self.references.get(get_task(job.task_id), self.config.seed, device)
                except Exception:  # noqa: BLE001 - the job itself reports it when it runs
                    continue

        threading.Thread(target=prefetch, daemon=True, name="kbx-reference-prefetch").start()

    def _parent_gpu_work(self, slot: str | None) -> Any:
        """A block of this process's own work on ``slot``'s device for a job (drawing cases,
        expected outputs, judging): held back while another job of that GPU is timed, as that
        job's other processes are (run/quiet.py); nothing to wait for without perf."""
        quiet = self._quiet.get(slot)
        return quiet.parent_work() if quiet else nullcontext()

    def _reference_device(self, slot: str | None) -> str:
        return "cpu" if self.mode == INTERPRETER else f"cuda:{slot}"

    def evaluate_recorded(self, job: Job, slot: str | None, limits: StageLimits | None = None,
                          admission: "Admission | None" = None) -> JobResult:
        """:meth:`evaluate`, with a failure of the harness itself recorded as the job's
        ``harness_error`` instead of raised (the run goes on)."""
        try:
            return self.evaluate(job, slot, limits, admission)
        except BaseException as exc:  # noqa: BLE001 - record, keep the run going
            if admission is not None:
                admission.release()
            return self._result(job, StageResult(HARNESS_ERROR, f"{type(exc).__name__}: {exc}"),
                                StageResult(SKIPPED, "harness error"))

    def admit(self, job: Job, slot: str | None) -> "Admission | None":
        """Take worker slots for ``job`` (waiting for one; more if free and its expected time calls
        for them): draws its cases to know how many there are. ``None`` for a job that needs no
        worker (it failed to parse or route). A batch admits jobs one at a time, in queue order, so
        the longest job, first in the queue, gets the slots it wants before the others start."""
        if job.error:
            return None
        task = get_task(job.task_id)
        device = self._reference_device(slot)
        clock = time.monotonic()
        with self._parent_gpu_work(slot):
            cases = task.correctness_cases(self.seed_of(job), device)  # custom checks see the reference device
        drawn = time.monotonic() - clock
        wanted = self._shares_wanted(task, len(cases)) if self._may_share() else 1
        slots = self._process_slots[slot]
        clock = time.monotonic()
        taken = slots.take(wanted - 1)
        return Admission(task, cases, slots, taken, {"cases_s": drawn, "slot_wait_s": time.monotonic() - clock})

    def _result(self, job: Job, call: StageResult, exe: StageResult, seconds: float = 0.0,
                info: dict | None = None, perf: StageResult | None = None,
                perf_metrics: dict | None = None, cases: list[dict] | None = None) -> JobResult:
        category = job.task_id.split("/")[0] if job.task_id else None
        if perf is None:
            perf = StageResult(SKIPPED, "core cases did not pass" if not core_passed(call, exe, cases or [])
                               else "no GPU" if self.mode == INTERPRETER and not self.perf_enabled
                               else "perf not requested")
        return JobResult(key=job.key, task_id=job.task_id, category=category, sample_id=job.sample_id,
                         source=job.source, code_sha=job.code_sha, call=call, exe=exe, perf=perf,
                         mode=self.mode, seconds=round(seconds, 3),
                         info={**(info or {}), **({"seed": job.seed} if job.seed is not None else {})},
                         perf_metrics=perf_metrics or {}, quality=code_quality(job.code) if job.code else {},
                         cases=list(cases or []))

    def evaluate(self, job: Job, slot: str | None, limits: StageLimits | None = None,
                 admission: "Admission | None" = None) -> JobResult:
        """Evaluate one job in fresh worker processes (on ``slot``, one of :meth:`slots`), under
        ``limits`` (default: the run's): one process, or several sharing its cases when process
        slots are free (run/shards.py); ``admission`` is its slots if :meth:`admit` took them already.

        A job whose perf stage ran out of GPU memory while other jobs held theirs is evaluated once
        more, holding the GPU's whole perf budget (the estimate of what a job holds was too low, or
        another job went over its own: not this submission's doing); that second verdict is final
        and says it was measured alone (``info.perf_retried_alone``).

        A job whose worker died of a native fault (SIGSEGV, SIGBUS, ...) during call or exe is
        evaluated once more in fresh processes: such a crash can be the harness's own tools' (the
        CUDA profiler that records a call's kernels segfaulted once in a suite on the H200, on a
        bundled solution that passed six runs after). The second verdict is final, whatever it is,
        and the first crash stays on record (``info.retried_after_crash``); a submission that
        crashes every time is crashed (having cost twice its time). On a GPU only: in the
        interpreter no tool of the harness's runs in the worker that could crash it."""
        limits = limits or self.config.limits
        if job.error:
            return self._result(job, StageResult(ERROR, job.error), StageResult(SKIPPED, "call did not pass"))
        result, shared_oom = self._evaluate_once(job, slot, limits, admission, alone=False)
        crash = native_crash(result) if self.mode == GPU else None  # the interpreter runs no profiler
        if crash:
            result, shared_oom = self._evaluate_once(job, slot, limits, None, alone=False)
            result.info["retried_after_crash"] = crash
        if not shared_oom:
            return result
        retried, _ = self._evaluate_once(job, slot, limits, None, alone=True)
        retried.info["perf_retried_alone"] = shared_oom
        return retried

    def _evaluate_once(self, job: Job, slot: str | None, limits: StageLimits, admission: "Admission | None",
                       alone: bool) -> tuple[JobResult, str | None]:
        """One evaluation of ``job``, and the failure detail if its perf stage ran out of GPU memory
        while other jobs held perf memory; ``alone``: its perf stage waits until it can hold the
        GPU's whole perf budget."""
        admission = admission or self.admit(job, slot)
        task, cases, slots = admission.task, admission.cases, admission.slots
        device, seed = self._reference_device(slot), self.seed_of(job)
        timing: dict[str, float] = dict(admission.timing)
        shares = split_cases(len(cases), admission.taken) if admission.taken > 1 else [None]
        if self.config.fail_fast:
            with self._parent_gpu_work(slot):  # the traits read the cases' values (on the GPU, in a GPU run)
                shares = cheapest_first(cases, shares, task.module)
        job_dirs: list[Path] = []
        job_clock, quiet = JobClock(), self._quiet.get(slot)
        if quiet:
            quiet.join(job_clock)
        teardown: list[Callable[[], Any]] = []  # what follows the processes' end (run/teardown.py)
        reap_later = False  # whether that comes after the result
        try:
            job_dirs += [Path(tempfile.mkdtemp(prefix="job-", dir=self._scratch)) for _ in shares]
            job_dir = job_dirs[0]
            started: list[WorkerProcess] = []
            try:
                for i, (directory, share) in enumerate(zip(job_dirs, shares)):
                    started.append(self._spawn_worker(job, task, directory, slot, share, job_clock, main=i == 0))
            except BaseException:
                for process in started:
                    process.close()
                raise
            workers = JobWorkers(started)
            worker = workers.main
            memory = self._perf_memory.get(slot)
            footprint = perf_footprint(task) if memory else 0
            reservation = Reservation(None)
            baseline = None
            # The baseline draws its inputs and compiles while the candidate is in call/exe, if the
            # GPU has room for this job's perf memory now and no job due for perf waits for it;
            # otherwise once the candidate has passed.
            shared_oom = None  # perf ran out of GPU memory while other jobs held theirs
            lent = 0  # bytes of its slot's allowance lent to the perf budget while in perf (gpu_memory.py)
            if self.perf_enabled and not alone and (memory is None or memory.try_reserve(footprint, ahead_of_need=True)):
                reservation = Reservation(memory, footprint)
                baseline = self._start_baseline(job_dir, task, seed, slot, job_clock)
            try:
                # The expected outputs are needed only to judge: computed (or found in the cache)
                # while the workers start and import, not before they are spawned.
                clock = time.monotonic()
                with self._parent_gpu_work(slot):
                    expected = self.references.get(task, seed, device)
                timing["reference_s"] = time.monotonic() - clock

                # (asked for while judging, inside _parent_gpu_work)
                inputs = PassInputs(cases, expected, lambda config: task.correctness_cases(seed, device, config),
                                    lambda config: self.references.get(task, seed, device, config),
                                    [s for s in shares if s is not None])
                if self.config.fail_fast:
                    def failing(event: dict, path: Path, kernel_names: object) -> Any:
                        with self._parent_gpu_work(slot):
                            return fails_numerically(task, inputs, event, path, kernel_names)
                    workers.stop_at_first_wrong(failing)
                workers.follow(limits)
                timing["share_wait_s"] = workers.share_wait_s
                admission.release(keep=1)  # the other shares' processes are done
                ran = workers.all_ran()
                if not (self.perf_enabled and ran):
                    worker.close()  # done (or dead): its exit code and stderr go into the verdict
                clock = time.monotonic()
                with self._parent_gpu_work(slot):
                    call, exe, verdicts = judge_worker(task, workers.outcome(), inputs)
                foreign = _foreign_code(job, workers.workers)
                if foreign:
                    call, exe, verdicts = StageResult(HARNESS_ERROR, foreign), StageResult(SKIPPED, "harness error"), []
                timing["judge_s"] = time.monotonic() - clock
                perf = metrics = None
                # perf facts for info: the perf-size results the baseline judged (MB, saved by the
                # candidate, read back), when the job held its GPU's timing lock (epoch seconds), and
                # how long it waited for other jobs' queued GPU work to end first
                perf_info: dict[str, Any] = {}
                # perf is timed for a job whose core cases pass (fast_p_core counts those)
                if self.perf_enabled and ran and core_passed(call, exe, verdicts):
                    clock = time.monotonic()
                    if baseline is None:
                        if memory is not None and alone:  # waits until no other job holds perf memory
                            reservation = Reservation(memory, memory.reserve_all())
                        elif memory is not None and memory.reserve(footprint):  # waits for other jobs' perf to end
                            reservation = Reservation(memory, footprint)
                        baseline = self._start_baseline(job_dir, task, seed, slot, job_clock)
                    timing["perf_memory_wait_s"] = time.monotonic() - clock
                    if memory is not None and not alone:  # its slot's call/exe allowance, until the slot is free
                        memory.lend(LENT_IN_PERF)
                        lent = LENT_IN_PERF
                    cap = candidate_cap(reservation.nbytes, footprint) if memory is not None else None
                    # alone: it ran out of memory beside others once, so it keeps the whole budget
                    judging = None if alone else \
                        lambda: reservation.shrink_to(perf_footprint(task, JUDGING_FACTOR) + reservation.extra)
                    # a baseline whose reference holds more than its half of the estimate makes the
                    # job hold that too, where the budget has room (else a shared out-of-memory is
                    # retried alone, as before)
                    covering = (lambda peak: reservation.cover_baseline(peak, footprint)) \
                        if memory is not None and not alone else None
                    perf, raw = run_perf(worker, baseline, job_dir, self._gpu_locks[slot], limits, quiet, judging,
                                         candidate_memory=cap, baseline_memory=covering)
                    # every process reported and perf is judged: the verdict needs nothing of
                    # their ends (a GPU context's teardown), which come after the result
                    reap_later = True
                    timing["perf_s"] = time.monotonic() - clock
                    timing["perf_lock_wait_s"] = raw.get("lock_wait_s", 0.0)
                    perf_info = {f"perf_{key}": raw[key] for key in ("judged_mb", "judged_sealed", "timed_window", "settle", "peak_mb")
                                 if key in raw}
                    if memory is not None:  # what it was estimated to hold (both processes), beside their peaks
                        perf_info["perf_footprint_mb"] = footprint >> 20
                    if reservation.extra:  # and held beyond that for its baseline
                        perf_info["perf_baseline_overshoot_mb"] = reservation.extra >> 20
                    timing.update({f"perf_{name}_s": s for name, s in raw.get("phases_s", {}).items()
                                   if name != "lock_wait"})
                    if cap is not None:
                        perf_info["perf_candidate_memory_cap_mb"] = cap >> 20
                    if not perf.ok and not alone and memory is not None and out_of_gpu_memory(perf.detail) \
                            and memory.held > reservation.nbytes:
                        shared_oom = perf.detail[:300]
                    elif not perf.ok and cap is not None and perf.status != HARNESS_ERROR and out_of_gpu_memory(perf.detail):
                        perf = StageResult(perf.status, f"{perf.detail}\n(in perf this job's candidate may hold "
                                                        f"{cap / 2**30:.1f} GiB of GPU memory: its share of the GPU's "
                                                        "perf budget)")
                    if perf.ok:
                        metrics = job_metrics(raw, self.roofline, self.golden.cases(task) if self.golden else None,
                                              self.config.perf_samples)
                        implausible = implausible_timing(metrics)
                        if implausible:
                            perf = StageResult(INTEGRITY, implausible)
            finally:
                if baseline:
                    baseline.close(reap=not reap_later)
                outcome = workers.close(reap=not reap_later)
                # the GPU memory is the processes' until they are gone
                teardown += ([baseline.reap] if baseline else []) + [workers.reap, reservation.release]
                if lent:  # taken back before the slot is (a worker the slot takes next finds its allowance)
                    teardown.append(partial(memory.reclaim, lent))
            timing.update({f"{stage}_s": s for stage, s in worker.outcome.stage_durations().items()})
            # a GPU worker's exit tears its CUDA context down: part of the job's seconds after its report
            if not reap_later:  # (else not known yet: the worker is reaped after the result)
                timing["worker_close_s"] = worker.outcome.close_s
            timing["held_s"] = job_clock.held_s  # stopped while other jobs were timed (not counted by its deadlines)
            info = {"sandbox": _sandbox_level(outcome), "containment": worker.containment,
                    "worker_start": worker.started_as,  # spare (prewarmed), fork or interpreter
                    "configs": _configs_checked(outcome), "source_task": task.id, "processes": len(shares),
                    # how each of its processes started (a share forked cold keeps the others waiting)
                    "process_starts": dict(Counter(w.started_as for w in workers.workers)),
                    "timing": {key: round(value, 3) for key, value in timing.items()}}
            info.update(perf_info)
            compiled = merged_compile_times([w.outcome.report for w in workers.workers])
            if compiled is not None:  # (as the workers reported: part of call_s and exe_s, never a verdict)
                info["triton_compile"] = compiled
            if outcome.report is None and outcome.signal_name():  # died without reporting (a retry may follow)
                info["worker_signal"] = outcome.signal_name()
            if baseline is not None:  # forked by the fork server, or a new interpreter
                info["baseline_containment"] = baseline.containment
            return self._result(job, call, exe, outcome.seconds, info, perf, metrics, verdicts), shared_oom
        finally:
            teardown.append(admission.release)
            if quiet:
                teardown.append(lambda: quiet.leave(job_clock))
            if not self.config.keep_job_dirs:  # what stays is said in the summary: a run leaves nothing unsaid
                teardown += [lambda d=d: self._remove(d) for job_dir in job_dirs for d in (job_dir, baseline_dir(job_dir))]
            (self.teardowns.later if reap_later else self.teardowns.run)(teardown)

    def _spawn_worker(self, job: Job, task, job_dir: Path, slot: str | None, share: list[int] | None,
                      clock: JobClock, main: bool) -> WorkerProcess:
        """A worker process for ``job`` in ``job_dir``, calling the cases in ``share`` (all if None);
        the ``main`` one waits for perf commands after its report."""
        (job_dir / protocol.SUBMISSION_FILE).write_text(job.code, encoding="utf-8")
        env = worker_env(job_dir, interpret=self.mode == INTERPRETER, visible_device=physical_gpu(slot))
        spec = {"job_dir": str(job_dir), "task_id": task.id,   # no seed: it is sent after the import
                "device": self._worker_device(),
                "interpret": self.mode == INTERPRETER,
                "memory_limit": self.config.memory_limit if self.mode == INTERPRETER else None,
                "protected": self._protected(),  # other jobs', this run's and its inputs' files
                "private": self._private,  # the user's and other runs' folders (Landlock only)
                "perf": self.perf_enabled and main,
                # what the run's GPU memory budget gives a call/exe worker (gpu_memory_cap.py)
                "gpu_memory_cap": CALL_EXE_ALLOWANCE if self.mode == GPU else None}
        if share is not None:
            spec["cases"] = share
        if spec["perf"]:
            spec["file_limit"] = PERF_FILE_LIMIT
        disk_cap = self.config.job_disk_bytes or spec.get("file_limit", WORKER_FILE_LIMIT) + SLACK_BYTES
        return WorkerProcess(protocol.WORKER_MODULE, job_dir, spec, env, commands=True, zygote=self._zygote, clock=clock,
                             after_import={"cmd": protocol.CMD_INPUTS, "seed": self.seed_of(job)},
                             warm=self._worker_warm(), disk_cap=disk_cap)

    def _protected(self) -> list[str]:
        """What a worker must not open, even through library code (the guard) or natively
        (Landlock): other jobs' directories (its own is allowed), the run's output folder (its
        journal names the seed) and the prediction sources (the other submissions' code)."""
        paths = [self._scratch, self.config.out_dir, *self.config.hidden_paths]
        return [str(Path(p).resolve()) for p in paths]

    def _may_share(self) -> bool:
        return bool(self.config.shards and self.config.shards > 1) or (
            self.mode == GPU and self.config.shards is None)

    def _shares_wanted(self, task, n_cases: int) -> int:
        """Processes this job would like: ``RunConfig.shards`` if set, else by its expected
        seconds in one worker (measured per task, see golden results) and the evaluator's target."""
        if self.config.shards:
            return shares_wanted(float("inf"), 1.0, n_cases, limit=self.config.shards)
        expected = self._expected_seconds.get(task.id, n_cases * DEFAULT_SECONDS_PER_CASE)
        return shares_wanted(expected, self.shard_target_s, n_cases)

    def _start_baseline(self, job_dir: Path, task, seed: int, slot: str | None, clock: JobClock) -> WorkerProcess:
        return start_baseline(job_dir, self._baseline_spec(task, seed), baseline_env(slot), clock, self._zygote)

    def seed_of(self, job: Job) -> int:
        """The seed of ``job``'s inputs: its own, or the run's."""
        return job.seed if job.seed is not None else self.config.seed

    def _baseline_spec(self, task, seed: int) -> dict:
        return {"task_id": task.id, "seed": seed, "compile": self.config.compile_baseline,
                "device": self._worker_device()}

    def _visible_devices(self, slot: str | None) -> str | None:
        """The ``CUDA_VISIBLE_DEVICES`` of this run's workers on ``slot`` (which the spares are kept by)."""
        return visible_devices(interpret=self.mode == INTERPRETER, visible_device=physical_gpu(slot))

    def _worker_warm(self) -> dict | None:
        """What a spare worker prepares before its job (``harness.sandbox.worker.prewarm``); None
        with ``KERNELBENCHX_NO_SPARES=1`` (each job forked, to measure what spares save)."""
        if os.environ.get(ENV_NO_SPARES) == "1":
            return None
        return {"device": self._worker_device(), "interpret": self.mode == INTERPRETER}

    def _worker_device(self) -> str:
        """The device as a worker or baseline process sees it (each is shown only its job's GPU)."""
        return "cpu" if self.mode == INTERPRETER else "cuda:0"
