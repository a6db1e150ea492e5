"""Expected outputs, computed in the trusted parent and kept only in its memory.

One entry per (task, seed, device): the reference called on a layout-preserving copy of every
correctness case, captured exactly as a submission's call is (see invoke.py).
"""

from __future__ import annotations

import threading

import torch

from harness.invoke import CallRecord, call_case, clone_case
from harness.precision import pin_precision
from harness.task import Task


class ReferenceCache:
    """Thread-safe memo of reference results. Each entry is computed once, under its own lock: a job
    waits only for its own task's reference, never for another task's (some take seconds, e.g. a
    special function whose CUDA kernel PyTorch compiles at its first call)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._entry_locks: dict[tuple[str, int, str], threading.Lock] = {}
        self._cache: dict[tuple[str, int, str], list[CallRecord]] = {}

    def get(self, task: Task, seed: int, device: str) -> list[CallRecord]:
        key = (task.id, seed, device)
        with self._lock:
            entry_lock = self._entry_locks.setdefault(key, threading.Lock())
        with entry_lock:
            if key not in self._cache:
                self._cache[key] = compute_reference(task, seed, device)
            return self._cache[key]


def compute_reference(task: Task, seed: int, device: str) -> list[CallRecord]:
    """Run the task's reference on each correctness case."""
    pin_precision(torch)
    records = []
    for case in task.correctness_cases(seed, device):
        record = call_case(task.reference, clone_case(case))
        records.append(CallRecord.from_payload(record.to_payload()))
    if device.startswith("cuda"):
        torch.cuda.synchronize(device)
    return records
