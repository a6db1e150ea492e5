"""Expected outputs, computed in the trusted parent and kept only in its memory.

One entry per (task, seed, device, config pass): the reference called on a layout-preserving copy of every
correctness case, captured exactly as a submission's call is (see invoke.py).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Callable

import torch

from harness.invoke import CallRecord, call_case, clone_case
from harness.precision import pin_precision
from harness.task import Task
from harness.taskdef import Case


class ReferenceCache:
    """Thread-safe memo of reference results. Each entry is computed once, under its own lock: a job
    waits only for its own task's reference, never for another task's (some take seconds, e.g. a
    special function whose CUDA kernel PyTorch compiles at its first call). The first config pass's
    entries of the run's seed (``kept_seed``) are kept for the run; the others (later passes, which
    only submissions with several autotune configs need, and jobs drawn with seeds of their own: a
    warm evaluator's submissions) are kept for the ``RECENT`` used last, which bounds what a
    long-lived evaluator holds (a job holds its own records while it runs)."""

    RECENT = 8

    def __init__(self, kept_seed: int | None = None) -> None:
        self._kept_seed = kept_seed
        self._lock = threading.Lock()
        self._entry_locks: dict[tuple[str, int, str, int], threading.Lock] = {}
        self._cache: dict[tuple[str, int, str, int], list[CallRecord]] = {}
        self._recent: OrderedDict[tuple[str, int, str, int], list[CallRecord]] = OrderedDict()

    def get(self, task: Task, seed: int, device: str, config: int = 0) -> list[CallRecord]:
        """The expected outputs of ``task``'s correctness cases of config pass ``config``."""
        key = (task.id, seed, device, config)
        kept = not config and seed == self._kept_seed
        with self._lock:
            entry_lock = self._entry_locks.setdefault(key, threading.Lock())
        with entry_lock:
            with self._lock:
                found = self._cache.get(key)
                if found is None:
                    found = self._recent.get(key)
                    if found is not None:
                        self._recent.move_to_end(key)
            if found is not None:
                return found
            records = compute_reference(task, seed, device, config)
            with self._lock:
                if kept:
                    self._cache[key] = records
                else:
                    self._recent[key] = records
                    while len(self._recent) > self.RECENT:
                        gone, _ = self._recent.popitem(last=False)
                        self._entry_locks.pop(gone, None)
            return records


def compute_reference(task: Task, seed: int, device: str, config: int = 0) -> list[CallRecord]:
    """Run the task's reference on each correctness case (of config pass ``config``)."""
    pin_precision(torch)
    records = []
    for case in task.correctness_cases(seed, device, config):
        record = call_case(task.reference, clone_case(case))
        records.append(CallRecord.from_payload(record.to_payload()))
    if device.startswith("cuda"):
        torch.cuda.synchronize(device)
    return records


class PassInputs:
    """A job's correctness cases and their expected outputs, per config pass of exe (each pass draws
    values of its own: Task.correctness_cases) and per worker process of the job (``shares``: the
    case indices each process calls, run/shards.py). The first pass's come with the job; another's
    are drawn (``draw_cases(config)``) and computed (``expected_of(config)``) when its first call is
    judged, once. Each process's calls are judged on case objects of their own: a task's checks may
    keep state across the calls of one process (the random tasks' tests across calls: a fresh
    process restarts a counter-based seed, which is no repeat within a process), held in case
    attributes named ``*history``, which every config pass of a process shares (its counter runs on
    from one pass to the next: rand_repeats_across_config_passes (tests/test_adversarial.py))."""

    # Later passes held at once: each holds a pass's inputs and expected outputs (megabytes in the
    # largest tasks), and a submission of 128 autotune configs whose calls cost nothing had the
    # parent hold all of them, 1.7 GB for one job (a red-team submission); the one used longest ago
    # is let go (drawn and computed again if asked for again: the same values, at a cost of time).
    HELD_PASSES = 4

    def __init__(self, cases: list[Case], expected: list[CallRecord], draw_cases: Callable[[int], list[Case]],
                 expected_of: Callable[[int], list[CallRecord]], shares: list[list[int]] | None = None) -> None:
        self._cases = {(0, 0): cases}
        self._expected = {0: expected}
        self._held: list[int] = []  # later passes held now, the one used longest ago first
        self._draw_cases, self._expected_of = draw_cases, expected_of
        self._process_of = {i: k for k, share in enumerate(shares or []) for i in share}
        self._lock = threading.Lock()  # fail-fast's checks and the final judgement may ask at once
        self.count = len(cases)  # every pass has the same cases (labels, count), with its own values

    def process_of(self, case: int) -> int:
        """Which of the job's worker processes calls case index ``case`` (0 for a job of one)."""
        return self._process_of.get(case, 0)

    def of(self, config: int, case: int = 0) -> tuple[list[Case], list[CallRecord]]:
        """The cases and expected outputs of config pass ``config``, as the process that calls case
        index ``case`` is judged on."""
        key = (config, self.process_of(case))
        with self._lock:
            if config:
                if config in self._held:
                    self._held.remove(config)
                self._held.append(config)
                while len(self._held) > self.HELD_PASSES:
                    gone = self._held.pop(0)
                    self._expected.pop(gone, None)
                    for held in [k for k in self._cases if k[0] == gone]:
                        del self._cases[held]
            if config not in self._expected:
                self._expected[config] = self._expected_of(config)
            if key not in self._cases:
                self._cases[key] = self._draw_cases(config)
                first = self._cases.get((0, key[1]))
                if config and first is None:
                    first = self._cases[(0, key[1])] = self._draw_cases(0)
                for case, base in zip(self._cases[key], first or []):
                    for name, value in vars(base).items():
                        if name.endswith("history"):
                            setattr(case, name, value)
            cases, expected = self._cases[key], self._expected[config]
            if len(cases) != self.count or len(expected) != self.count:
                raise RuntimeError(f"config pass {config} drew {len(cases)} cases, the first {self.count}")
            return cases, expected
