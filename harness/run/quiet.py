"""A quiet GPU while one job is timed: every other job's processes on that GPU are stopped.

The timing lock (one timed job per GPU) keeps other jobs' *timing* out of a measurement, not their
other GPU work: their exe cases, Triton autotuning, a candidate's warm-up and a baseline's first calls
at perf sizes. On a GPU those time-slice with the timed kernels, and on the H200 they moved some
medians by 2-60% (benchmarks/results/2026-12-03-h200-perf-suite/). So while a job holds the timing
lock, the processes of every other job sharing the GPU are stopped (SIGSTOP to their process groups)
and continued afterwards; the CPUs are then free for the timed job's host side too.

The parent itself is not stopped, and on a GPU it works there for the jobs too (drawing their cases,
computing expected outputs, judging): such blocks (:meth:`QuietGpu.parent_work`) wait while a job is
timed, and a timing waits for those under way or already waiting to end; blocks asked for after the
timing was, wait for it. (Before, a timing waited until no block was under way or waiting at all,
and the parent's thread that computes the next jobs' expected outputs, block after block, kept
every other job stopped for 1.1 s a timing on average: 38 of the 108 s the timing lock was held in
a suite cut on an H100, benchmarks/results/2026-12-06-h100-timed-breakdown/.)

A stopped job must not lose time it never had: each job keeps a :class:`JobClock` that runs only
while the job is not held, and its processes' deadlines are read on that clock. The pause is the
parent's doing, so nothing a worker sends can extend a deadline this way.
"""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from typing import Iterator, Protocol


class Pausable(Protocol):
    def pause(self) -> None: ...
    def resume(self) -> None: ...


class JobClock:
    """Seconds of one job's life outside the pauses other jobs' timing imposed on it, and the
    processes that belong to it (paused and continued together)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._held_s = 0.0
        self._held_since: float | None = None
        self._processes: list[Pausable] = []

    def now(self) -> float:
        """A monotonic clock that stands still while the job is held."""
        with self._lock:
            held = self._held_s + (time.monotonic() - self._held_since if self._held_since is not None else 0.0)
        return time.monotonic() - held

    @property
    def held_s(self) -> float:
        """Seconds the job has been held so far (finished holds)."""
        return self._held_s

    def add(self, process: Pausable) -> None:
        """A new process of the job: stopped at once if the job is held now."""
        with self._lock:
            self._processes.append(process)
            if self._held_since is not None:
                process.pause()

    def discard(self, process: Pausable, resume: bool = False) -> None:
        """A process that ended (its pid may be reused: it is never signalled again), or, with
        ``resume``, one that leaves this clock alive: continued if the job is held now."""
        with self._lock:
            if process in self._processes:
                self._processes.remove(process)
                if resume and self._held_since is not None:
                    process.resume()

    def hold(self) -> None:
        with self._lock:
            if self._held_since is None:
                self._held_since = time.monotonic()
                for process in self._processes:
                    process.pause()

    def release(self) -> None:
        with self._lock:
            if self._held_since is not None:
                for process in self._processes:
                    process.resume()
                self._held_s += time.monotonic() - self._held_since
                self._held_since = None


# A timing waits at most this long for the parent's GPU work for other jobs (a reference whose CUDA
# kernel PyTorch compiles at its first call took 7 s on the H200); then it starts anyway.
PARENT_WORK_WAIT_S = 30.0


class QuietGpu:
    """The jobs sharing one GPU; :meth:`others_held` stops all but one of them, and keeps the
    run's own GPU work for the other jobs (:meth:`parent_work`) from starting meanwhile."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._jobs: set[JobClock] = set()
        self._timed: JobClock | None = None
        self._parent_busy = 0            # parent_work blocks running now
        self._asked = 0                  # parent_work blocks asked for so far: each one's turn
        self._waiting: set[int] = set()  # the turns of the blocks waiting now
        self._cutoff: int | None = None  # a timing is due: blocks asked for from this turn on wait for it

    def join(self, job: JobClock) -> None:
        with self._lock:
            self._jobs.add(job)
            if self._timed is not None and job is not self._timed:
                job.hold()

    def leave(self, job: JobClock) -> None:
        with self._lock:
            self._jobs.discard(job)
        job.release()

    @contextmanager
    def parent_work(self) -> Iterator[None]:
        """A block of the parent's own work on this GPU for some job (drawing its cases, computing
        its expected outputs, judging its results): it waits while another job is timed, since the
        parent is the one process the holds do not stop, and a timing waits for the blocks under
        way or waiting to end (at most PARENT_WORK_WAIT_S); a block asked for once a timing is due
        waits for it. Blocks must not nest."""
        with self._changed:
            turn = self._asked
            self._asked += 1
            self._waiting.add(turn)
            try:
                while self._timed is not None or (self._cutoff is not None and turn >= self._cutoff):
                    self._changed.wait()
            finally:
                self._waiting.discard(turn)
            self._parent_busy += 1
        try:
            yield
        finally:
            with self._changed:
                self._parent_busy -= 1
                self._changed.notify_all()

    @contextmanager
    def others_held(self, timed: JobClock) -> Iterator[float]:
        """Every job but ``timed`` held for the duration (the caller holds the GPU's timing lock),
        after the parent's work under way and waiting on this GPU is done; yields the seconds that
        wait took. Blocks asked for meanwhile wait for the timing: a parent thread that starts
        block after block (the reference prefetch) would otherwise keep it waiting, with every
        other job stopped, to the end of its chain or PARENT_WORK_WAIT_S."""
        clock = time.monotonic()
        deadline = clock + PARENT_WORK_WAIT_S
        with self._changed:
            cutoff = self._cutoff = self._asked  # (one timing at a time: the caller holds the lock)
            try:
                # the blocks waiting go first: they were asked for before this timing
                while (self._parent_busy or any(turn < cutoff for turn in self._waiting)) \
                        and time.monotonic() < deadline:
                    self._changed.wait(deadline - time.monotonic())
            except BaseException:
                self._cutoff = None
                self._changed.notify_all()
                raise
            self._timed = timed
            for job in self._jobs:
                if job is not timed:
                    job.hold()
        try:
            yield time.monotonic() - clock
        finally:
            with self._changed:
                self._timed = self._cutoff = None
                for job in self._jobs:
                    job.release()
                self._changed.notify_all()
