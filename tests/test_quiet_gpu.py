"""Holding the other jobs of a GPU while one is timed (harness/run/quiet.py): their processes stop and
continue, their deadlines do not count the pause, and a real perf run holds them."""

from __future__ import annotations

import time

import pytest

from conftest import ROOT
from harness.run.quiet import JobClock, QuietGpu


class FakeProcess:
    def __init__(self) -> None:
        self.signals: list[str] = []

    def pause(self) -> None:
        self.signals.append("stop")

    def resume(self) -> None:
        self.signals.append("cont")


def test_every_other_job_is_held_while_one_is_timed_and_continues_after():
    quiet = QuietGpu()
    timed, other, late = JobClock(), JobClock(), JobClock()
    mine, theirs, later = FakeProcess(), FakeProcess(), FakeProcess()
    timed.add(mine)
    other.add(theirs)
    quiet.join(timed)
    quiet.join(other)
    with quiet.others_held(timed):
        assert theirs.signals == ["stop"] and mine.signals == []
        quiet.join(late)           # a job that starts meanwhile is held at once...
        late.add(later)            # ...and so is each process it starts
        assert later.signals == ["stop"]
    assert theirs.signals == ["stop", "cont"] and later.signals == ["stop", "cont"] and mine.signals == []


def test_a_process_that_ended_is_never_signalled_again():
    quiet, timed, other = QuietGpu(), JobClock(), JobClock()
    ended = FakeProcess()
    other.add(ended)
    other.discard(ended)  # its pid may belong to another process by now
    quiet.join(timed)
    quiet.join(other)
    with quiet.others_held(timed):
        pass
    assert ended.signals == []


def test_a_held_job_s_deadlines_do_not_count_the_hold():
    quiet, timed, other = QuietGpu(), JobClock(), JobClock()
    quiet.join(timed)
    quiet.join(other)
    start = timed.now()
    deadline = other.now() + 1.0
    with quiet.others_held(timed):
        time.sleep(1.2)  # longer than the time left to the deadline
        assert other.now() < deadline  # its clock stands still
    assert other.now() < deadline and other.held_s >= 1.2
    assert timed.now() - start >= 1.2 and timed.held_s == 0.0  # the timed job's clock runs on
    quiet.leave(other)


def test_a_perf_run_holds_the_other_jobs_while_one_is_timed(tmp_path, monkeypatch):
    """Two jobs through the perf protocol's CPU stand-in at once: while one is timed the other is
    held (``held_s``), and both verdicts stand."""
    from harness.api import Evaluator
    from harness.config import ENV_PERF_ON_CPU
    monkeypatch.setenv(ENV_PERF_ON_CPU, "1")
    relu = (ROOT / "solutions" / "Activation" / "relu.py").read_text()
    with Evaluator(perf=True, workers=2, timeout=120) as ev:
        records = ev.evaluate([("Activation/relu.py", relu)] * 3)
    assert [r["verdict"] for r in records] == ["ok"] * 3, [r["perf"] for r in records]
    assert sum(r["info"]["timing"]["held_s"] for r in records) > 0.05


def test_the_parents_own_gpu_work_waits_while_a_job_is_timed_and_a_timing_waits_for_it():
    """The parent is the one process the holds do not stop: its blocks of GPU work for other jobs
    (drawing cases, references, judging) do not start during a timing, and a timing starts only
    after the blocks under way (and those already waiting) are done."""
    import threading
    quiet, timed = QuietGpu(), JobClock()
    quiet.join(timed)
    events: list[str] = []

    def parent_block(name: str, seconds: float) -> None:
        with quiet.parent_work():
            events.append(f"{name} starts")
            time.sleep(seconds)
            events.append(f"{name} ends")

    busy = threading.Thread(target=parent_block, args=("judge", 0.3))
    busy.start()
    time.sleep(0.05)
    with quiet.others_held(timed) as waited:
        events.append("timing")
        assert waited >= 0.2  # the judging under way ended first
        late = threading.Thread(target=parent_block, args=("reference", 0.0))
        late.start()
        time.sleep(0.2)
        assert events == ["judge starts", "judge ends", "timing"]  # the new block waits
    late.join(timeout=5)
    busy.join(timeout=5)
    assert events == ["judge starts", "judge ends", "timing", "reference starts", "reference ends"]
    with quiet.others_held(timed) as waited:  # nothing under way: no wait
        assert waited < 0.05


def test_a_chain_of_parent_blocks_lets_a_timing_in_after_the_block_under_way():
    """The reference prefetch computes the next jobs' expected outputs block after block: a timing
    due meanwhile starts once the block under way ends, and the chain's next block waits for it
    (it waited for the whole chain, every other job stopped meanwhile: 1.1 s a timing on an H100)."""
    import threading
    quiet, timed = QuietGpu(), JobClock()
    quiet.join(timed)
    events: list[str] = []

    def chain() -> None:
        for i in range(8):
            with quiet.parent_work():
                events.append(f"block {i}")
                time.sleep(0.1)

    worker = threading.Thread(target=chain)
    worker.start()
    time.sleep(0.05)
    with quiet.others_held(timed) as waited:
        events.append("timing")
        assert waited < 0.35, waited  # one block (0.1 s) under way, not the chain's 0.8 s
        time.sleep(0.1)
        assert events[-1] == "timing"  # no block starts during the timing
    worker.join(timeout=5)
    assert events.index("timing") <= 2 and len(events) == 9, events


def test_a_timing_waits_for_the_parents_work_only_so_long(monkeypatch):
    """The adversary's use of the wait: a submission whose results take the parent long to judge
    delays another job's timing by at most PARENT_WORK_WAIT_S, never holds it off."""
    import threading

    import harness.run.quiet as quiet_module
    monkeypatch.setattr(quiet_module, "PARENT_WORK_WAIT_S", 0.2)
    quiet, timed = QuietGpu(), JobClock()
    release = threading.Event()

    def endless() -> None:
        with quiet.parent_work():
            release.wait(5)

    worker = threading.Thread(target=endless)
    worker.start()
    time.sleep(0.05)
    start = time.monotonic()
    with quiet.others_held(timed) as waited:
        assert 0.1 <= waited < 1.0 and time.monotonic() - start < 1.0
    release.set()
    worker.join(timeout=5)


def test_a_process_that_leaves_a_held_clock_alive_is_continued():
    """A spare worker that becomes a job's (run/zygote.py) leaves the spares' clock while it may be
    held: it is continued, and its job's clock holds it from then on."""
    quiet, timed, spares, job = QuietGpu(), JobClock(), JobClock(), JobClock()
    spare = FakeProcess()
    spares.add(spare)
    quiet.join(timed)
    quiet.join(spares)
    quiet.join(job)
    with quiet.others_held(timed):
        assert spare.signals == ["stop"]
        spares.discard(spare, resume=True)
        job.add(spare)
        assert spare.signals == ["stop", "cont", "stop"]
    assert spare.signals == ["stop", "cont", "stop", "cont"]
    spares.discard(FakeProcess(), resume=True)  # one it never had: nothing to do


class _Clock:
    """A fake monotonic clock: each probe takes ``step_s``."""

    def __init__(self, step_s: float) -> None:
        self.now, self.step_s = 0.0, step_s

    def __call__(self) -> float:
        return self.now


def _probes(latencies_us: list[float], clock: _Clock):
    remaining = list(latencies_us)

    def probe() -> float:
        clock.now += clock.step_s
        return remaining.pop(0)
    return probe


def test_timing_waits_for_the_queued_work_of_stopped_jobs_to_end():
    from harness.perf.timing import settle
    clock, pauses = _Clock(0.01), []
    found = settle(_probes([2000.0, 1500.0, 40.0, 600.0, 30.0, 30.0, 30.0], clock), busy_us=500.0, streak=3,
                   pause=pauses.append, clock=clock)
    assert found == {"quiet": True, "waited_s": 0.07, "probes": 7, "slowest_us": 2000.0}
    assert len(pauses) == 3  # after each slow probe, the GPU is left to the other context


def test_a_gpu_that_stays_busy_is_timed_after_the_longest_wait_and_says_so():
    from harness.perf.timing import settle
    clock = _Clock(1.0)
    found = settle(_probes([900.0] * 100, clock), max_s=5.0, busy_us=500.0, pause=lambda s: None, clock=clock)
    assert found["quiet"] is False and found["waited_s"] == 5.0 and found["probes"] == 5


def test_a_quiet_gpu_costs_a_streak_of_probes():
    from harness.perf.timing import SETTLE_STREAK, settle
    clock = _Clock(0.0001)
    found = settle(_probes([20.0] * SETTLE_STREAK + [9999.0], clock), pause=lambda s: None, clock=clock)
    assert found["quiet"] is True and found["probes"] == SETTLE_STREAK


@pytest.mark.gpu
def test_kernels_a_stopped_process_queued_keep_the_gpu_busy_and_the_probe_sees_them():
    """What the wait before timing rests on (natively): a process stopped with SIGSTOP still has its
    queued kernels run, and a probe kernel in another process waits for them."""
    import os
    import signal
    import subprocess
    import sys

    import torch

    from harness.perf.timing import gpu_probe, settle
    busy = ("import torch\n"
            "torch.zeros(1, device='cuda'); torch.cuda.synchronize()\n"
            "for _ in range(6):\n"
            "    torch.cuda._sleep(int(5e8))\n"  # about 0.25 s each at the H200's clocks
            "print('queued', flush=True)\n"
            "torch.cuda.synchronize()\n")
    proc = subprocess.Popen([sys.executable, "-c", busy], stdout=subprocess.PIPE, text=True)
    try:
        probe = gpu_probe(torch.device("cuda"))
        assert proc.stdout.readline().strip() == "queued"
        os.kill(proc.pid, signal.SIGSTOP)
        found = settle(probe)
        assert found["quiet"] and found["waited_s"] > 0.3, found
    finally:
        os.kill(proc.pid, signal.SIGCONT)
        proc.wait(timeout=60)
