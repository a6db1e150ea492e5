"""The count of page-locked host memory a GPU job takes (harness/sandbox/pinned_host.py), with torch's
host-allocator statistics stood in for (CPU builds have none); natively, the corpus entries
pinned_host_offset_address, pinned_at_import_offset_address and cuda_host_register_numpy
(tests/test_adversarial.py, BLINDING)."""

from __future__ import annotations

import torch

from harness.sandbox import pinned_host
from harness.sandbox.pinned_host import PINNED_ALLOWANCE, PinnedHostWatch


def _stand_in_allocator(monkeypatch, stats: dict) -> None:
    monkeypatch.setattr(torch._C, "_cuda_hostMemoryStats", lambda: stats, raising=False)
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)


def test_a_job_is_judged_by_the_page_locked_memory_its_pool_grew_by_since_the_watch_began(monkeypatch):
    stats = {"allocated_bytes": {"current": 0, "allocated": 4096, "freed": 0}}
    _stand_in_allocator(monkeypatch, stats)
    watch = PinnedHostWatch()  # made before the import: what was taken before it does not count
    assert watch.problem("at import") is None
    stats["allocated_bytes"] = {"current": 0, "allocated": 4096 + PINNED_ALLOWANCE, "freed": PINNED_ALLOWANCE}
    assert watch.problem("during the call") is None  # torch's own scalars: within the allowance, freed or not
    stats["allocated_bytes"] = {"current": 0, "allocated": 4096 + (8 << 20), "freed": 8 << 20}
    problem = watch.problem("during the call")  # taken and given back within the call: still counted
    assert problem and problem.startswith("tampering:") and "page-locked host memory taken during the call" in problem


def test_without_cuda_or_without_the_statistic_nothing_is_counted_and_the_watch_says_so(monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert pinned_host.pool_growth_reader() is None
    assert not PinnedHostWatch().active
    _stand_in_allocator(monkeypatch, {"num_host_alloc": 3})  # a torch whose statistics do not say it
    assert not PinnedHostWatch().active  # (the worker's sandbox level then lacks "+pinned")
    _stand_in_allocator(monkeypatch, {"allocated_bytes": {"allocated": 0}})
    assert PinnedHostWatch().active
