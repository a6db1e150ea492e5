"""GPU memory for perf, shared by the jobs of one GPU.

Call/exe use small inputs, but a perf stage holds several sets of perf-sized inputs in two
processes (the candidate's worker and its baseline) for as long as it waits for and holds the GPU.
Several jobs doing that at once on one GPU ran it out of memory on the H200 (eight workers:
out-of-memory in a candidate's warm-up and in a baseline's prepare, verdicts the submissions did not
earn). So a job reserves an estimate of its perf memory before its baseline draws inputs, and a job
that finds too little left waits until another one releases its share. The estimate can still be
short (a task's eager temporaries, a custom check's float64 work): a job whose perf stage runs out
of GPU memory while other jobs hold theirs is evaluated again holding the whole budget
(``PerfMemory.reserve_all``, run/runner.py), so such a failure never becomes a verdict.

The budget binds the submissions too: each worker's process is capped at what the budget gives it
(``CALL_EXE_ALLOWANCE`` in call/exe, ``candidate_cap`` in perf: gpu_memory_cap.py), so a
submission that takes all the memory it finds runs out itself, its own verdict, instead of running
its judge or other jobs out.

An estimate that the baseline's reference overshoots (its temporaries at perf size: an eager
attention's score matrices held 10x the estimate on an H100) is corrected once the baseline has
prepared: the job then holds the difference too, if the budget has room at that moment
(``Reservation.cover_baseline``).

A job in perf lends its worker slot's call/exe allowance to the budget: its worker is the candidate
now, whose memory the job's reservation covers (all but its CUDA context), so the allowance would
otherwise be set aside twice. The loan is taken back before the slot can take another job, waiting
until the reservations fit the budget without it (``PerfMemory.lend``, ``reclaim``). What this
gives up: a candidate that holds all its cap, more than its half of the estimate, was partly
backed by its slot's allowance, and now runs the GPU short that much sooner (as above: a shared
out-of-memory, retried alone; the 10% of free memory left out of the budget is the margin for
call/exe workers).

Two rules keep the budget busy with work that needs it (on the H200, judging and reservations
taken ahead of need held more than half of it): a job shrinks its reservation once its timing is
over (the processes drop their input sets; judging holds only the check sets and kept results), and
a job reserves ahead of need (its baseline prepares while the candidate is still in call/exe) only
when no job that needs memory now is waiting for it.
"""

from __future__ import annotations

import threading
import time

from harness.perf.server import INPUT_SETS
from harness.task import Task

# Copies of one input set a perf process holds (the rotating sets, the check set, the call buffers),
# plus room for outputs, kept results and eager temporaries, in each of the two processes.
FOOTPRINT_FACTOR = 2 * (INPUT_SETS + 1 + 1 + 3)
# Once timing is over: in each process the check sets, the outputs of the two kept calls (check
# call, timed repetition) per case and the arguments the reference changes (the others are kept as
# digests: harness/kept.py) or a custom check's copy of the judged inputs; the baseline also a
# candidate's result moved to the GPU to be compared.
JUDGING_FACTOR = 2 * (1 + 2 + 1) + 2
UNKNOWN_INPUT_BYTES = 2 << 30      # a task whose perf inputs cannot be sized without data
MIN_FOOTPRINT = 1 << 30            # CUDA contexts, the caching allocator's blocks, compiled code
CALL_EXE_ALLOWANCE = 2 << 30       # per call/exe worker sharing the GPU (small cases, a CUDA context)
CUDA_CONTEXT = 768 << 20           # of that, what a CUDA context holds outside the caching allocator
# lent to the perf budget while the slot's job is in perf: the allowance less the candidate's context
LENT_IN_PERF = CALL_EXE_ALLOWANCE - CUDA_CONTEXT
BUDGET_SHARE = 0.9                 # of the memory free when the run starts


def perf_footprint(task: Task, factor: int = FOOTPRINT_FACTOR) -> int:
    """Bytes of GPU memory a job of ``task`` is assumed to hold during perf (both processes);
    ``factor``: copies of one perf input set (``JUDGING_FACTOR``: once timing is over)."""
    per_set = task.perf_input_bytes
    return max(MIN_FOOTPRINT, factor * (UNKNOWN_INPUT_BYTES if per_set is None else per_set))


def candidate_cap(reserved: int, footprint: int) -> int:
    """The GPU memory a job's candidate process may hold during perf (its caching allocator's cap,
    gpu_memory_cap.py), from the bytes the job ``reserved`` and its ``footprint`` (both
    processes' estimate). The whole footprint, twice the candidate's own estimate (a kernel's
    temporaries are unknown here), or, where the job holds more (alone, after a shared
    out-of-memory), all of it but a footprint left to the baseline, more than its estimate. A
    candidate over its own estimate can so still run the GPU short beside other jobs: that is a
    shared out-of-memory, retried alone (run/runner.py). Never below the call/exe allowance."""
    return max(CALL_EXE_ALLOWANCE, footprint, reserved - footprint)


def budget_for(free_bytes: int, call_exe_workers: int) -> int:
    """The perf budget of a GPU with ``free_bytes`` free, beside ``call_exe_workers`` workers."""
    return max(MIN_FOOTPRINT, int(free_bytes * BUDGET_SHARE) - call_exe_workers * CALL_EXE_ALLOWANCE)


class PerfMemory:
    """A byte budget that jobs reserve from and release to. A request larger than the whole budget
    is granted when nothing else is held (such a job runs alone rather than never)."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self._held = 0
        self._waiting_for_all = 0  # jobs waiting to hold the whole budget: others wait behind them
        self._waiting = 0          # jobs waiting in reserve(): they need memory now
        self._changed = threading.Condition()

    @property
    def held(self) -> int:
        return self._held

    def _fits(self, nbytes: int) -> bool:
        if self._waiting_for_all:
            return False
        return self._held == 0 or self._held + nbytes <= self.budget

    def try_reserve(self, nbytes: int, ahead_of_need: bool = False) -> bool:
        """Reserve ``nbytes`` if they fit now; never waits. ``ahead_of_need``: only if no job is
        waiting for memory it needs now (a reservation taken early must not delay one that is due)."""
        with self._changed:
            if not self._fits(nbytes) or (ahead_of_need and self._waiting):
                return False
            self._held += nbytes
            return True

    def reserve(self, nbytes: int, timeout: float | None = None) -> bool:
        """Reserve ``nbytes``, waiting until they fit (at most ``timeout`` seconds); False on timeout."""
        end = None if timeout is None else time.monotonic() + timeout
        with self._changed:
            self._waiting += 1
            try:
                while not self._fits(nbytes):
                    left = None if end is None else end - time.monotonic()
                    if left is not None and left <= 0:
                        return False
                    self._changed.wait(left)
            finally:
                self._waiting -= 1
            self._held += nbytes
            return True

    def reserve_all(self) -> int:
        """Wait until nothing is held, then hold the whole budget (returned, to be released). New
        reservations wait behind this one, so it is not starved by smaller ones."""
        with self._changed:
            self._waiting_for_all += 1
            try:
                while self._held:
                    self._changed.wait()
            finally:
                self._waiting_for_all -= 1
            self._held = self.budget
            return self.budget

    def release(self, nbytes: int) -> None:
        with self._changed:
            self._held = max(0, self._held - nbytes)
            self._changed.notify_all()

    def lend(self, nbytes: int) -> None:
        """Add ``nbytes`` to the budget (a call/exe allowance that a job in perf does not use), until
        :meth:`reclaim` takes them back."""
        with self._changed:
            self.budget += nbytes
            self._changed.notify_all()

    def reclaim(self, nbytes: int) -> None:
        """Take back ``nbytes`` lent, waiting until what is held fits the budget without them (the
        reservations granted from the loan are released), so a call/exe worker that the slot then
        takes finds its allowance free."""
        with self._changed:
            while self._held + nbytes > self.budget:
                self._changed.wait()
            self.budget -= nbytes


class Reservation:
    """The bytes one job holds of a GPU's :class:`PerfMemory` (none where there is no budget: the
    CPU stand-in of perf), released in steps as its perf stage needs less."""

    def __init__(self, memory: PerfMemory | None, nbytes: int = 0) -> None:
        self.memory, self.nbytes = memory, nbytes if memory is not None else 0
        self.extra = 0  # bytes held beyond the job's estimate for its baseline (cover_baseline)

    def cover_baseline(self, peak: int, footprint: int) -> None:
        """Hold, besides the job's ``footprint``, what its baseline's allocator holds beyond its half
        of it (``peak`` bytes once prepared: ``baseline_overshoot``), where the budget has room now."""
        extra = baseline_overshoot(peak, footprint)
        if extra and self.grow_to(self.nbytes + extra):
            self.extra += extra

    def grow_to(self, nbytes: int) -> bool:
        """Hold ``nbytes`` from now on if the budget has room for the difference now; never waits
        (a job waiting for more while holding some could wait on another doing the same)."""
        if self.memory is None or nbytes <= self.nbytes:
            return True
        if not self.memory.try_reserve(nbytes - self.nbytes):
            return False
        self.nbytes = nbytes
        return True

    def shrink_to(self, nbytes: int) -> None:
        """Hold at most ``nbytes`` from now on."""
        if self.memory is not None and nbytes < self.nbytes:
            self.memory.release(self.nbytes - nbytes)
            self.nbytes = nbytes

    def release(self) -> None:
        self.shrink_to(0)


def baseline_overshoot(baseline_peak: int, footprint: int) -> int:
    """Bytes the baseline process holds beyond its half of the job's estimated ``footprint``, from
    its allocator's peak once it has prepared (its reference's temporaries at perf size: an eager
    attention materialises its score matrices, 10x the estimate on an H100). The allocator keeps
    what it reached, so the job holds that much more for the rest of its perf stage."""
    return max(0, baseline_peak - footprint // 2)


def out_of_gpu_memory(detail: str) -> bool:
    """Whether a perf stage's failure detail says a process ran out of GPU memory."""
    return "OutOfMemoryError" in detail or "CUDA out of memory" in detail
