"""The perf memory budget of a GPU (harness/run/gpu_memory.py) and the perf input sizes it rests on."""

import subprocess
import sys
import threading
import time

import pytest

from conftest import ROOT, relu_changed_after_exe
from harness.run.gpu_memory import (CALL_EXE_ALLOWANCE, FOOTPRINT_FACTOR, JUDGING_FACTOR, MIN_FOOTPRINT,
                                    UNKNOWN_INPUT_BYTES, PerfMemory, Reservation, baseline_overshoot, budget_for,
                                    candidate_cap, out_of_gpu_memory, perf_footprint)
from harness.task import all_tasks, get_task
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


def test_holding_the_whole_budget_waits_for_every_holder_and_goes_before_later_requests():
    memory = PerfMemory(100)
    assert memory.try_reserve(30)
    got = []
    alone = threading.Thread(target=lambda: got.append(memory.reserve_all()))
    alone.start()
    time.sleep(0.2)
    assert not got and not memory.try_reserve(10)  # a later small request waits behind it
    memory.release(30)
    alone.join(5)
    assert got == [100] and memory.held == 100
    assert not memory.try_reserve(1)
    memory.release(100)
    assert memory.try_reserve(10)


def test_a_reservation_ahead_of_need_gives_way_to_a_job_waiting_for_memory():
    memory = PerfMemory(100)
    assert memory.try_reserve(70)
    granted = []
    due = threading.Thread(target=lambda: granted.append(memory.reserve(50, timeout=10)))
    due.start()
    for _ in range(500):                        # until it waits (a loaded machine starts threads late)
        if memory._waiting:
            break
        time.sleep(0.01)
    assert not memory.try_reserve(20, ahead_of_need=True)  # fits, but a job due for perf waits
    assert memory.try_reserve(20)                           # one due itself is not held back
    memory.release(90)
    due.join(5)
    assert granted == [True] and memory.held == 50
    assert memory.try_reserve(20, ahead_of_need=True)       # nobody waits any more


def test_a_reservation_shrinks_in_steps_and_wakes_waiters():
    memory = PerfMemory(100)
    assert memory.try_reserve(90)
    reservation = Reservation(memory, 90)
    granted = []
    waiter = threading.Thread(target=lambda: granted.append(memory.reserve(40, timeout=10)))
    waiter.start()
    reservation.shrink_to(60)                   # judging needs less than timing
    reservation.shrink_to(80)                   # never grows back
    waiter.join(5)
    assert granted == [True] and reservation.nbytes == 60 and memory.held == 100
    reservation.release()
    assert reservation.nbytes == 0 and memory.held == 40
    Reservation(None, 50).release()             # no budget (CPU stand-in): nothing to give back
    assert memory.held == 40


def test_a_reservation_grows_only_where_the_budget_has_room_now():
    """A baseline whose reference held more than its half of the estimate: the job holds the
    difference too if it fits now, and never waits for it (two jobs waiting for more while each
    holds some could wait on each other forever)."""
    memory = PerfMemory(100)
    reservation = Reservation(memory, 40)
    assert memory.try_reserve(40)
    assert reservation.grow_to(60) and reservation.nbytes == 60 and memory.held == 60
    assert memory.try_reserve(30) and memory.held == 90
    assert not reservation.grow_to(80) and reservation.nbytes == 60 and memory.held == 90  # no room: unchanged
    assert reservation.grow_to(50) and reservation.nbytes == 60  # never shrinks
    assert Reservation(None).grow_to(10)  # no budget: nothing to hold
    # what the baseline holds beyond its half of the footprint, from its allocator's peak
    assert baseline_overshoot(30 << 30, 3 << 30) == (30 << 30) - (3 << 30) // 2
    assert baseline_overshoot(1 << 30, 3 << 30) == 0
    # a job's reservation covers it where the budget has room, and says how much it holds beyond
    memory = PerfMemory(100)
    assert memory.try_reserve(30)
    covered = Reservation(memory, 30)
    covered.cover_baseline(peak=40, footprint=30)   # 25 beyond the baseline's half (15)
    assert covered.nbytes == 55 and covered.extra == 25 and memory.held == 55
    covered.cover_baseline(peak=100, footprint=30)  # 85 more: no room, nothing changes
    assert covered.nbytes == 55 and covered.extra == 25


@pytest.mark.gpu
def test_a_baseline_over_its_estimate_makes_its_job_hold_more(tmp_path):
    """Natively: eager attention materialises its score matrices, about 10x the job's estimate on
    an H100 (benchmarks/results/2026-12-06-h100-timed-breakdown/); the job then holds the difference
    (where the budget had room) and its verdict is unchanged."""
    from harness.api import Evaluator
    code = (ROOT / "solutions" / "Fusion" / "attention.py").read_text()
    with Evaluator(perf=True, workers=1, timeout=300) as ev:
        [record] = ev.evaluate([("Fusion/attention.py", code)])
    assert record["verdict"] == "ok" and record["perf"]["status"] == "ok", record["perf"]
    info = record["info"]
    assert info["perf_peak_mb"]["baseline"] > info["perf_footprint_mb"] // 2, info
    # (from the peak once the baseline prepared: its later peak may be higher still)
    assert 0 < info["perf_baseline_overshoot_mb"] <= info["perf_peak_mb"]["baseline"] - info["perf_footprint_mb"] // 2 + 1


def test_only_out_of_memory_failures_are_retried_alone():
    assert out_of_gpu_memory("warm-up at perf sizes: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate")
    assert out_of_gpu_memory("baseline process failed (prepare): ... CUDA out of memory")
    assert not out_of_gpu_memory("timing case 0: ValueError: shapes differ")


def test_budget_leaves_room_for_call_exe_workers():
    assert budget_for(100 << 30, 4) < budget_for(100 << 30, 1) < 100 << 30
    assert budget_for(1 << 20, 8) == MIN_FOOTPRINT


def test_a_candidate_may_hold_its_jobs_footprint_and_alone_all_but_its_baselines_share():
    footprint = 10 << 30
    assert candidate_cap(footprint, footprint) == footprint           # twice its own estimate
    assert candidate_cap(70 << 30, footprint) == 60 << 30             # alone: a footprint left to the baseline
    assert candidate_cap(MIN_FOOTPRINT, MIN_FOOTPRINT) == CALL_EXE_ALLOWANCE  # never below call/exe's


def test_the_cap_is_set_on_a_gpu_only():
    from harness.gpu_memory_cap import cap_gpu_memory
    assert cap_gpu_memory("cpu", 1 << 30) is None
    assert cap_gpu_memory("cuda:0", None) is None


@pytest.mark.gpu
def test_the_cap_limits_what_the_caching_allocator_may_hold():
    """In a process of its own (the fraction stays set): an allocation over the cap is the
    process's own out-of-memory error, one under it succeeds, and a raised cap takes it."""
    code = """
import torch
from harness.gpu_memory_cap import cap_gpu_memory
torch.zeros(1, device="cuda")
fraction = cap_gpu_memory("cuda:0", 1 << 30)
assert abs(torch.cuda.get_per_process_memory_fraction(0) - fraction) < 1e-9, fraction
ok = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
try:
    torch.empty(2 << 30, dtype=torch.uint8, device="cuda")
    raise SystemExit("an allocation over the cap succeeded")
except torch.OutOfMemoryError:
    pass
cap_gpu_memory("cuda:0", 4 << 30)
more = torch.empty(2 << 30, dtype=torch.uint8, device="cuda")
print("capped")
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert proc.returncode == 0 and "capped" in proc.stdout, proc.stderr[-2000:]


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
    for index in range(len(server.cases)):  # the kept results a judge holds: check call and a timed one
        server._cmd_check({"case": index, "side": "eager", "timed_rep": 1})
    server._timing_over()
    held = torch.cuda.memory_allocated() - before
    assert 0 < held <= perf_footprint(task, JUDGING_FACTOR) / 2, (task.id, held, perf_footprint(task, JUDGING_FACTOR))


# A ReLU that runs out of memory in every call after its exe cases (its perf stage, in the CPU
# stand-in of the perf protocol), as a job does when other jobs' perf processes fill the GPU -- or as
# a submission does that raises the error itself to be measured alone: it gets one more evaluation,
# never more, and the same verdict.
@pytest.mark.parametrize("others_hold_memory", [True, False])
def test_perf_out_of_memory_beside_other_jobs_is_measured_again_alone(monkeypatch, others_hold_memory):
    from harness.api import Evaluator
    from harness.config import ENV_PERF_ON_CPU
    monkeypatch.setenv(ENV_PERF_ON_CPU, "1")
    code = relu_changed_after_exe(before='raise torch.OutOfMemoryError("CUDA out of memory. Tried to allocate 2.00 GiB")')
    with Evaluator(perf=True, workers=1, timeout=120) as ev:
        memory = ev._runner._perf_memory[None] = PerfMemory(1 << 40)
        alone = []
        monkeypatch.setattr(memory, "reserve_all", lambda real=memory.reserve_all: alone.append(1) or real())
        if others_hold_memory:
            assert memory.try_reserve(1 << 30)  # another job's perf

            def release_when_a_job_waits_for_all() -> None:  # that job ends while the retry waits
                while not memory._waiting_for_all:
                    time.sleep(0.05)
                memory.release(1 << 30)
            threading.Thread(target=release_when_a_job_waits_for_all, daemon=True).start()
        record = ev.submit("Activation/relu.py", code).result(timeout=300)
    assert record["exe"]["status"] == "ok", record["exe"]
    assert record["perf"]["status"] == "error" and "CUDA out of memory" in record["perf"]["detail"], record["perf"]
    # the verdict names the share its candidate was capped at (alone: all of the budget but a
    # footprint left to its baseline)
    footprint = perf_footprint(get_task("Activation/relu.py"))
    cap = candidate_cap((1 << 40) if others_hold_memory else footprint, footprint)
    assert record["info"]["perf_candidate_memory_cap_mb"] == cap >> 20, record["info"]
    assert f"may hold {cap / 2**30:.1f} GiB of GPU memory" in record["perf"]["detail"], record["perf"]
    if others_hold_memory:
        assert "CUDA out of memory" in record["info"]["perf_retried_alone"]  # measured again, failed again
        assert len(alone) == 1  # once, however often it runs out
    else:
        assert "perf_retried_alone" not in record["info"] and not alone  # alone on the GPU already: its own verdict
    assert memory.held == 0  # every reservation released


def test_a_lent_allowance_is_taken_back_only_once_the_reservations_fit_without_it():
    """A job in perf lends its slot's call/exe allowance to the budget; taking it back waits until
    what was reserved from it is released, so the call/exe worker the slot takes next finds it free."""
    memory = PerfMemory(100)
    assert memory.try_reserve(80)
    memory.lend(30)
    assert memory.budget == 130 and memory.try_reserve(40)  # 120: fits only with the loan
    reclaimed = threading.Event()
    taker = threading.Thread(target=lambda: (memory.reclaim(30), reclaimed.set()))
    taker.start()
    assert not reclaimed.wait(0.3) and memory.budget == 130  # 120 held: 90 more would not fit 100
    memory.release(10)                                       # 110: still over
    assert not reclaimed.wait(0.3)
    memory.release(20)                                       # 90: fits without the loan
    assert reclaimed.wait(5) and memory.budget == 100 and memory.held == 90
    taker.join(5)


def test_a_job_in_perf_lends_its_slots_allowance_and_takes_it_back_before_the_slot(monkeypatch):
    """The runner's side (CPU stand-in of perf, with a budget set by hand): the loan is made once
    the job holds its reservation, and taken back after the reservation is released and before its
    slot is given back."""
    from harness.api import Evaluator
    from harness.config import ENV_PERF_ON_CPU
    from harness.run.gpu_memory import LENT_IN_PERF
    from harness.run.shards import ProcessSlots
    monkeypatch.setenv(ENV_PERF_ON_CPU, "1")
    events = []
    code = (ROOT / "solutions" / "Activation" / "relu.py").read_text()
    with Evaluator(perf=True, workers=1, timeout=120) as ev:
        memory = ev._runner._perf_memory[None] = PerfMemory(1 << 40)
        for name in ("lend", "reclaim", "release"):
            monkeypatch.setattr(memory, name, lambda n, real=getattr(memory, name), name=name:
                                (events.append((name, n, memory.held)), real(n))[1])
        monkeypatch.setattr(ProcessSlots, "give_back", lambda self, n, real=ProcessSlots.give_back:
                            (events.append(("slot", n, memory.held)), real(self, n))[1])
        record = ev.submit("Activation/relu.py", code).result(timeout=300)
        ev.close()
    assert record["perf"]["status"] == "ok", record["perf"]
    names = [e[0] for e in events]
    assert names.count("lend") == 1 and names.count("reclaim") == 1, events
    lend, reclaim = names.index("lend"), names.index("reclaim")
    assert events[lend][1] == events[reclaim][1] == LENT_IN_PERF and events[lend][2] > 0  # lent while holding
    assert lend < reclaim < len(names) - 1 - names[::-1].index("slot"), events  # the last slot back comes after
    assert max(i for i, n in enumerate(names) if n == "release") < reclaim, events  # its reservation first
    assert memory.budget == 1 << 40 and memory.held == 0
