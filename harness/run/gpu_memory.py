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
"""

from __future__ import annotations

import threading
import time

from harness.perf.server import INPUT_SETS
from harness.task import Task

# Copies of one input set a perf process holds (the rotating sets, the check set, the call buffers),
# plus room for outputs, kept results and eager temporaries, in each of the two processes.
FOOTPRINT_FACTOR = 2 * (INPUT_SETS + 1 + 1 + 3)
UNKNOWN_INPUT_BYTES = 2 << 30      # a task whose perf inputs cannot be sized without data
MIN_FOOTPRINT = 1 << 30            # CUDA contexts, the caching allocator's blocks, compiled code
CALL_EXE_ALLOWANCE = 2 << 30       # per call/exe worker sharing the GPU (small cases, a CUDA context)
BUDGET_SHARE = 0.9                 # of the memory free when the run starts


def perf_footprint(task: Task) -> int:
    """Bytes of GPU memory a job of ``task`` is assumed to hold during perf (both processes)."""
    per_set = task.perf_input_bytes
    return max(MIN_FOOTPRINT, FOOTPRINT_FACTOR * (UNKNOWN_INPUT_BYTES if per_set is None else per_set))


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
        self._changed = threading.Condition()

    @property
    def held(self) -> int:
        return self._held

    def _fits(self, nbytes: int) -> bool:
        if self._waiting_for_all:
            return False
        return self._held == 0 or self._held + nbytes <= self.budget

    def try_reserve(self, nbytes: int) -> bool:
        """Reserve ``nbytes`` if they fit now; never waits."""
        with self._changed:
            if not self._fits(nbytes):
                return False
            self._held += nbytes
            return True

    def reserve(self, nbytes: int, timeout: float | None = None) -> bool:
        """Reserve ``nbytes``, waiting until they fit (at most ``timeout`` seconds); False on timeout."""
        end = None if timeout is None else time.monotonic() + timeout
        with self._changed:
            while not self._fits(nbytes):
                left = None if end is None else end - time.monotonic()
                if left is not None and left <= 0:
                    return False
                self._changed.wait(left)
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


def out_of_gpu_memory(detail: str) -> bool:
    """Whether a perf stage's failure detail says a process ran out of GPU memory."""
    return "OutOfMemoryError" in detail or "CUDA out of memory" in detail
