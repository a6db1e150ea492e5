"""The perf memory budget of a GPU (harness/run/gpu_memory.py) and the perf input sizes it rests on."""

import threading
import time

import pytest

from harness.run.gpu_memory import (FOOTPRINT_FACTOR, MIN_FOOTPRINT, UNKNOWN_INPUT_BYTES, PerfMemory,
                                    budget_for, perf_footprint)
from harness.task import all_tasks
from harness.taskdef import tensor_leaves


def test_reservations_fit_the_budget_and_waiters_wake_on_release():
    memory = PerfMemory(100)
    assert memory.try_reserve(60)
    assert not memory.try_reserve(50)          # 110 > 100
    assert memory.try_reserve(40) and memory.held == 100
    granted = []
    waiter = threading.Thread(target=lambda: granted.append(memory.reserve(30, timeout=10)))
    waiter.start()
    time.sleep(0.2)
    assert not granted                          # still waiting: nothing was released
    memory.release(40)
    waiter.join(5)
    assert granted == [True] and memory.held == 90
    assert memory.reserve(50, timeout=0.1) is False  # times out instead of waiting forever


def test_a_job_larger_than_the_budget_runs_alone():
    memory = PerfMemory(100)
    assert memory.try_reserve(500)               # nothing held: granted
    assert not memory.try_reserve(1)
    memory.release(500)
    assert memory.try_reserve(1) and not memory.try_reserve(500)


def test_budget_leaves_room_for_call_exe_workers():
    assert budget_for(100 << 30, 4) < budget_for(100 << 30, 1) < 100 << 30
    assert budget_for(1 << 20, 8) == MIN_FOOTPRINT


def _smallest_sized_task():
    sized = [t for t in all_tasks().values() if t.perf_input_bytes]
    return min(sized, key=lambda t: t.perf_input_bytes)


def test_perf_input_bytes_drawn_on_meta_match_real_inputs():
    """The shapes-only draw sizes the same buffers as a real draw (checked where a real draw is cheap)."""
    task = _smallest_sized_task()
    real = sum(t.untyped_storage().nbytes() for case in task.perf_cases(0, "cpu")
               for t in tensor_leaves(list(case.args) + list(case.kwargs.values())))
    assert real > 0 and task.perf_input_bytes == real
    assert perf_footprint(task) == max(MIN_FOOTPRINT, FOOTPRINT_FACTOR * real)


def test_most_tasks_are_sized_and_an_unsized_one_gets_the_default(monkeypatch):
    tasks = list(all_tasks().values())
    sized = [t for t in tasks if t.perf_input_bytes is not None]
    assert len(sized) >= 0.9 * len(tasks)
    task = tasks[0]
    monkeypatch.setitem(task.__dict__, "perf_input_bytes", None)   # the cached_property's slot
    assert perf_footprint(task) == FOOTPRINT_FACTOR * UNKNOWN_INPUT_BYTES


@pytest.mark.gpu
def test_perf_footprint_covers_the_memory_a_perf_process_really_holds():
    """On a GPU: what a baseline's prepare allocates for the largest task stays under the estimate
    of one process (half the job's)."""
    import torch

    from harness.perf.server import PerfServer
    task = max((t for t in all_tasks().values() if t.perf_input_bytes), key=lambda t: t.perf_input_bytes)
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats()
    before = torch.cuda.memory_allocated()
    server = PerfServer(task, 0, "cuda:0", {"eager": task.reference}, lambda *a, **k: None, trusted=True)
    server._cmd_prepare({})
    held = torch.cuda.memory_allocated() - before
    assert 0 < held <= perf_footprint(task) / 2, (task.id, held, perf_footprint(task))
