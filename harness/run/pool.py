"""A warm pool of job slots for callers that submit one job at a time (reward loops, the server).

The :class:`~harness.run.runner.Evaluator` is opened once (its zygote, reference cache, perf budget
and roofline stay warm); one thread per worker slot takes jobs from a bounded queue and evaluates
each in a fresh worker process, exactly as a batch run does. A full queue refuses at once
(:class:`QueueFull`) instead of growing without bound: the caller decides whether to wait.
"""

from __future__ import annotations

import queue
import threading
from concurrent.futures import Future
from dataclasses import dataclass

from harness.config import StageLimits
from harness.run.runner import Evaluator
from harness.run.submissions import Job
from harness.verdicts import JobResult


class QueueFull(Exception):
    """Every slot is busy and the queue of waiting jobs is full."""


class PoolClosed(Exception):
    """The pool was closed before the job ran."""


@dataclass
class _Request:
    job: Job
    limits: StageLimits | None
    future: "Future[JobResult]"


_STOP = object()


class JobPool:
    """Evaluates submitted jobs on the evaluator's slots; results come back as futures."""

    def __init__(self, evaluator: Evaluator, max_pending: int = 256) -> None:
        """``max_pending``: jobs that may wait for a slot (beyond those running)."""
        self.evaluator = evaluator
        evaluator.open()
        self._pending: "queue.Queue[object]" = queue.Queue(maxsize=max(1, max_pending))
        self._closed = False
        self._running = 0
        self._lock = threading.Lock()
        self._threads = [threading.Thread(target=self._serve, args=(slot,), daemon=True, name=f"kbx-slot-{i}")
                         for i, slot in enumerate(evaluator.slots())]
        for thread in self._threads:
            thread.start()

    @property
    def slots(self) -> int:
        return len(self._threads)

    def load(self) -> dict[str, int]:
        """Jobs waiting and running now."""
        with self._lock:
            running = self._running
        with self._pending.mutex:  # what waits: neither close()'s stop markers nor requests cancelled meanwhile
            pending = sum(1 for r in self._pending.queue if isinstance(r, _Request) and not r.future.cancelled())
        return {"pending": pending, "running": running, "slots": self.slots}

    def submit(self, job: Job, limits: StageLimits | None = None) -> "Future[JobResult]":
        """Queue ``job``; raises :class:`QueueFull` when the queue is full, :class:`PoolClosed`
        after :meth:`close`."""
        request = _Request(job, limits, Future())
        with self._lock:  # against a close() between the check and the put
            if self._closed:
                raise PoolClosed("the evaluator is closed")
            try:
                self._pending.put_nowait(request)
            except queue.Full:
                self._drop_cancelled()
                try:
                    self._pending.put_nowait(request)
                except queue.Full:
                    raise QueueFull(f"{self._pending.maxsize} jobs are already waiting for "
                                    f"{self.slots} worker slot(s)") from None
        return request.future

    def _drop_cancelled(self) -> None:
        """Take the requests cancelled while they waited (their clients gone) out of the queue,
        where they would hold its room until a worker came to skip them."""
        with self._pending.mutex:
            kept = [r for r in self._pending.queue if not (isinstance(r, _Request) and r.future.cancelled())]
            self._pending.queue.clear()
            self._pending.queue.extend(kept)

    def _serve(self, slot: str | None) -> None:
        while True:
            request = self._pending.get()
            if request is _STOP:
                return
            assert isinstance(request, _Request)
            if not request.future.set_running_or_notify_cancel():
                continue  # cancelled while it waited
            with self._lock:
                self._running += 1
            try:
                request.future.set_result(self.evaluator.evaluate_recorded(request.job, slot, request.limits))
            except BaseException as exc:  # noqa: BLE001 - the waiting client gets it; the slot serves on
                request.future.set_exception(exc)
            finally:
                with self._lock:
                    self._running -= 1

    def close(self) -> None:
        """Refuse new jobs, fail the waiting ones (:class:`PoolClosed`), let the running ones
        finish, then stop the evaluator's processes."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        while True:
            try:
                request = self._pending.get_nowait()
            except queue.Empty:
                break
            if isinstance(request, _Request) and request.future.set_running_or_notify_cancel():
                request.future.set_exception(PoolClosed("the evaluator closed before this job ran"))
        for _ in self._threads:
            self._pending.put(_STOP)
        for thread in self._threads:
            thread.join()
        self.evaluator.close()
