"""What follows a job's result: its processes reaped, its GPU memory, worker slots and folders given
back, in order, now or in a thread of their own.

A GPU worker's exit tears its CUDA context down, which took 0.4 s after a job with perf on an H100
(``worker_close_s``, benchmarks/results/2026-12-05-h100-timing-barrier), and the baseline's as much
again: time a reward loop waited for a verdict that no longer depended on it. A job whose
processes all reported and whose perf was judged kills them and hands the rest to :class:`Teardowns`,
which runs it after the result is out; the slots and memory stay taken until the processes are
gone, so no other job starts in their place sooner, and the evaluator's close waits for every
teardown (no process of a run outlives it).
"""

from __future__ import annotations

import threading
from typing import Any, Callable

Step = Callable[[], Any]


class Teardowns:
    """The teardowns of an evaluator's jobs: each a list of steps, run in order, every step even
    when one before it failed (a slot left taken would stall every later job); failures are kept
    in :attr:`errors`."""

    def __init__(self) -> None:
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()
        self.errors: list[str] = []

    def run(self, steps: list[Step]) -> None:
        """Run ``steps`` now."""
        for step in steps:
            try:
                step()
            except Exception as exc:  # noqa: BLE001 - recorded; the steps after it still run
                with self._lock:
                    self.errors.append(f"{type(exc).__name__}: {str(exc)[:200]}")

    def later(self, steps: list[Step]) -> None:
        """Run ``steps`` in a thread of their own, from now."""
        thread = threading.Thread(target=self.run, args=(steps,), name="kbx-teardown", daemon=True)
        with self._lock:
            self._threads = [t for t in self._threads if t.is_alive()] + [thread]
        thread.start()

    def finish(self) -> None:
        """Wait for every teardown started so far."""
        with self._lock:
            threads, self._threads = self._threads, []
        for thread in threads:
            thread.join()
