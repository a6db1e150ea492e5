"""GPU timing primitives, shared by the candidate's worker and the trusted baseline process.

One repetition: load the next input set into the call's buffers and flush the L2 cache (both
untimed), queue a short spin kernel (so host-side launch overhead is hidden), record a start event
(which side streams seen before must wait for), call, record an end event on the current stream and
on every other stream the call launched Triton kernels on (so work moved to a side stream is timed
with it), then synchronize the whole device before the next repetition. A repetition whose call took
the host longer to issue than the spin lasts (a descheduled thread, a slow wrapper) may have left the
GPU waiting inside the timed interval: it is measured again with a longer spin, on inputs of its
own (a wrapper that made its first attempt slow on purpose must not answer the next from what that
attempt computed: perf_remeasure_replays_its_answer.py). Times are the median over many
repetitions, with the interquartile range as the spread.
"""

from __future__ import annotations

import gc
import math
import statistics
import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

import torch

# Sizing of repetitions per timing round: a round is short (each side's rounds are interleaved, so
# drift between sides averages out), and rounds are added until the median is precise enough
# (``precise_enough``), between MIN_ROUNDS and MAX_ROUNDS. On the H200, kernels of 0.1 ms and more
# reach the target in the minimum; only microsecond kernels, whose per-repetition jitter is a few
# percent, take more rounds, and those rounds are cheap.
ROUND_TARGET_S = 0.010
MIN_REPS_PER_ROUND = 5
MAX_REPS_PER_ROUND = 30
MIN_ROUNDS = 3
MAX_ROUNDS = 7
# A call at least this slow is timed once per round, MAX_ROUNDS times (too few samples for the
# precision test, so every round runs): such calls are host-bound library baselines (batched
# eigensolvers take a second or more per call on the H200), whose spread between repetitions is a
# small fraction of their length, and five repetitions a round made one perf case take minutes.
SLOW_CALL_MS = 100.0
# Relative half-width of the 95% confidence interval of a side's median that ends the rounds: a
# speedup (the ratio of two medians) then moves by well under 1% between runs.
MEDIAN_PRECISION = 0.005
# A spin kernel queued before each start event (~0.1 ms at 2 GHz): the GPU reaches the event only
# after the host has queued the timed call, so host-side launch overhead, and the CPU contention of
# jobs compiling beside the timed one, stay out of the measurement on both sides. A call that takes
# longer to issue is measured again with a spin twice its issue time (``EventTimer.time``).
SPIN_CYCLES = 200_000
MAX_SPIN_CYCLES = 160 * SPIN_CYCLES  # ~16 ms: a wrapper slower than that to launch is timed as it is
REMEASURE_ATTEMPTS = 3
# Before a job is timed, the GPU must have finished what the jobs now stopped had queued (a process
# stopped by run/quiet.py cannot stop its kernels already queued: a float64 SVD of a judge, a
# baseline's perf-size reference, a warm-up call). A probe kernel that takes longer than
# SETTLE_BUSY_US from launch to completion waited for another context's work (a one-element kernel
# and a synchronize take tens of microseconds on an idle GPU; other contexts' kernels hold it for
# time slices of a millisecond or more); timing starts after SETTLE_STREAK quick probes in a row, or
# after SETTLE_MAX_S (the job's record says how long it waited and whether it found the GPU quiet).
SETTLE_BUSY_US = 200.0
SETTLE_STREAK = 5
SETTLE_MAX_S = 10.0


# What the timer calls between a timed call and its result, bound when this module is imported
# (before any submission): a clock or collector switch looked up at each use could be one the
# submission swapped in for the last repetition and put back before any check
# (tests/adversarial/perf_clock_rebound_per_rep.py, perf_rebind_undone_by_timer_gc_enable.py).
_PERF_COUNTER = time.perf_counter
_GC_ISENABLED, _GC_DISABLE, _GC_ENABLE = gc.isenabled, gc.disable, gc.enable


@dataclass
class TimingStats:
    """Summary of a list of per-repetition times in milliseconds."""

    median_ms: float
    q1_ms: float
    q3_ms: float
    reps: int

    @property
    def iqr_ms(self) -> float:
        return self.q3_ms - self.q1_ms

    @classmethod
    def of(cls, samples_ms: list[float]) -> "TimingStats":
        if not samples_ms:
            raise ValueError("no timing samples")
        if len(samples_ms) == 1:
            return cls(samples_ms[0], samples_ms[0], samples_ms[0], 1)
        q1, _, q3 = statistics.quantiles(samples_ms, n=4, method="inclusive")
        return cls(statistics.median(samples_ms), q1, q3, len(samples_ms))

    def to_json(self) -> dict[str, float]:
        return {"median_ms": self.median_ms, "q1_ms": self.q1_ms, "q3_ms": self.q3_ms,
                "iqr_ms": self.iqr_ms, "reps": self.reps}


def reps_per_round(estimate_ms: float) -> int:
    """Repetitions per interleaved round for a call of about ``estimate_ms``."""
    if estimate_ms <= 0:
        return MAX_REPS_PER_ROUND
    if estimate_ms >= SLOW_CALL_MS:
        return 1
    return int(min(MAX_REPS_PER_ROUND, max(MIN_REPS_PER_ROUND, ROUND_TARGET_S * 1e3 / estimate_ms)))


def median_halfwidth(samples_ms: list[float]) -> float:
    """Relative half-width of a distribution-free 95% confidence interval of the median of
    ``samples_ms`` (order statistics n/2 -+ 0.98 sqrt(n)); ``inf`` for too few samples."""
    n = len(samples_ms)
    if n < 8:
        return math.inf
    ordered = sorted(samples_ms)
    spread = 0.98 * math.sqrt(n)
    low, high = max(0, math.floor(n / 2 - spread)), min(n - 1, math.ceil(n / 2 + spread))
    median = statistics.median(ordered)
    return (ordered[high] - ordered[low]) / (2 * median) if median > 0 else math.inf


def precise_enough(samples: dict[str, list[float]], rounds: int) -> bool:
    """Whether ``rounds`` interleaved rounds with these samples per side are enough."""
    if rounds < MIN_ROUNDS:
        return False
    return rounds >= MAX_ROUNDS or all(median_halfwidth(ms) <= MEDIAN_PRECISION for ms in samples.values() if ms)


class L2Flush:
    """A buffer twice the size of the L2 cache; zeroing it evicts whatever the last call left there."""

    def __init__(self, device: torch.device) -> None:
        l2 = getattr(torch.cuda.get_device_properties(device), "L2_cache_size", 0) or (64 << 20)
        self._buffer = torch.empty(max(2 * l2, 128 << 20), dtype=torch.uint8, device=device)

    def __call__(self) -> None:
        self._buffer.zero_()


class EventTimer:
    """Times calls with CUDA events. The CUDA functions it uses are bound when it is created (before
    a submission is imported), so later rebinding of ``torch.cuda`` names does not reach it.

    On a CPU device (used only by the harness's own tests of the perf protocol) it falls back to the
    host clock; such numbers say nothing about kernel speed."""

    def __init__(self, device: torch.device, side_streams: Callable[[], Iterable[Any]] = lambda: ()) -> None:
        self.device = device
        self.on_gpu = device.type == "cuda"
        self._side_streams = side_streams
        if self.on_gpu:
            self._event = torch.cuda.Event
            self._sync = torch.cuda.synchronize
            self._current_stream = torch.cuda.current_stream
            self._flush: Callable[[], None] = L2Flush(device)
            self._sleep = getattr(torch.cuda, "_sleep", None)
        else:
            self._flush = lambda: None
            self._sleep = None
        self._spin_cycles = SPIN_CYCLES  # the next repetition's spin
        self._known_streams: list = []  # side streams the timed calls have used so far
        # repetitions timed while the host was still issuing the call when the spin ended (after
        # every re-measure): their times include host time (a launch-bound call, or one that waits
        # on the GPU inside); see take_host_bound
        self._host_bound = 0

    def sync(self) -> None:
        """Wait for all work on the device, on every stream."""
        if self.on_gpu:
            self._sync(self.device)

    def time(self, fn: Callable[[], Any], prepare: Callable[[int, int], None], reps: int, first: int = 0,
             after: Callable[[int, Any, int], None] = lambda rep, result, attempt: None) -> list[float]:
        """Milliseconds of ``fn()`` for repetitions ``first .. first+reps-1``; ``prepare(i, attempt)``
        runs untimed before attempt ``attempt`` of repetition ``i`` (loads its inputs: 0 first, then
        one for each time it is measured again, see :data:`REMEASURE_ATTEMPTS`), ``after(i, result,
        attempt)`` untimed after the attempt whose time is kept (with the device idle). Python's
        cyclic garbage collector is paused meanwhile (as ``timeit`` does): a full collection in a
        process that imported torch, Triton and the tasks took 0.11 s on a 2-core CI-class CPU, and
        one that lands inside a host-bound repetition (a call of thousands of launches) makes that
        repetition an outlier."""
        with gc_paused():
            if not self.on_gpu:
                return self._time_on_host(fn, prepare, reps, first, after)
            return self._time_on_gpu(fn, prepare, reps, first, after)

    def _time_on_gpu(self, fn: Callable[[], Any], prepare: Callable[[int, int], None], reps: int, first: int,
                     after: Callable[[int, Any, int], None]) -> list[float]:
        times = []
        self.sync()
        current = self._current_stream(self.device)
        self._note_streams(current)  # streams of the warm-up calls
        for i in range(first, first + reps):
            cycles = self._spin_cycles
            for attempt in range(REMEASURE_ATTEMPTS):
                # an earlier attempt's result let go before the next call: whoever holds it (the
                # candidate's server) frees it when it chooses (see PerfServer._cmd_time)
                result = None
                ms, issue_ms, spin_ms, result = self._one_repetition(fn, prepare, i, attempt, current, cycles)
                if self._sleep is None or issue_ms <= spin_ms or cycles >= MAX_SPIN_CYCLES:
                    break
                cycles = self._cycles_lasting(2.0 * issue_ms, cycles, spin_ms)
            self._host_bound += self._sleep is not None and issue_ms > spin_ms
            after(i, result, attempt)
            del result
            times.append(ms)
            # The next repetition's spin lasts twice this one's issue time: a wrapper that is always slow
            # to issue is measured again once, not every time; a one-off delay lengthens no later spin.
            self._spin_cycles = max(SPIN_CYCLES, self._cycles_lasting(2.0 * issue_ms, cycles, spin_ms))
        return times

    def _one_repetition(self, fn: Callable[[], Any], prepare: Callable[[int, int], None], i: int, attempt: int,
                        current: Any, spin_cycles: int) -> tuple[float, float, float, Any]:
        """GPU milliseconds of one call (attempt ``attempt`` of repetition ``i``), the host
        milliseconds it took to issue it, the GPU milliseconds of the spin before it, and what the
        call returned."""
        prepare(i, attempt)
        self._flush()
        # every event recorded on the stream named here (``record()`` alone asks torch.cuda's
        # current_stream, a module attribute, at each call)
        spun = self._event(enable_timing=True)
        spun.record(current)
        if self._sleep is not None:
            self._sleep(spin_cycles)
        start = self._event(enable_timing=True)
        start.record(current)
        for stream in self._known_streams:
            stream.wait_event(start)  # side-stream work may not start before the clock does
        issued = _PERF_COUNTER()
        result = fn()
        issue_ms = (_PERF_COUNTER() - issued) * 1e3
        ends = [self._event(enable_timing=True)]
        ends[0].record(current)
        for stream in self._note_streams(current):
            end = self._event(enable_timing=True)
            end.record(stream)
            ends.append(end)
        self.sync()
        return max(start.elapsed_time(end) for end in ends), issue_ms, spun.elapsed_time(start), result

    def take_host_bound(self) -> int:
        """Repetitions timed since the last call whose time includes host time: the host was still
        issuing the call when the spin before it ended, after every re-measure (0 on the CPU, where
        every time is the host's). A case with some such repetitions and some without has two modes,
        and its median can move from run to run."""
        count, self._host_bound = self._host_bound, 0
        return count

    @staticmethod
    def _cycles_lasting(target_ms: float, cycles: int, spin_ms: float) -> int:
        """Spin cycles that last ``target_ms`` at the rate ``cycles`` ran in ``spin_ms`` (bounded)."""
        return int(min(MAX_SPIN_CYCLES, cycles * target_ms / spin_ms)) if spin_ms > 0 else cycles

    def _note_streams(self, current: Any) -> list:
        """The side streams of the last call(s), remembered for the next repetitions."""
        streams = [s for s in self._side_streams() if s != current]
        self._known_streams.extend(s for s in streams if s not in self._known_streams)
        return streams

    @staticmethod
    def _time_on_host(fn: Callable[[], Any], prepare: Callable[[int, int], None], reps: int, first: int,
                      after: Callable[[int, Any, int], None]) -> list[float]:
        times = []
        for i in range(first, first + reps):
            prepare(i, 0)
            start = _PERF_COUNTER()
            result = fn()
            times.append((_PERF_COUNTER() - start) * 1e3)
            after(i, result, 0)
            del result  # (as on the GPU: whoever holds it frees it)
        return times


@contextmanager
def gc_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off for the block, back to what it was after."""
    was_enabled = _GC_ISENABLED()
    _GC_DISABLE()
    try:
        yield
    finally:
        if was_enabled:
            _GC_ENABLE()


def settle(probe_us: Callable[[], float], max_s: float = SETTLE_MAX_S, busy_us: float = SETTLE_BUSY_US,
           streak: int = SETTLE_STREAK, pause: Callable[[float], None] = time.sleep,
           clock: Callable[[], float] = time.monotonic) -> dict[str, Any]:
    """Probe until ``streak`` probes in a row take under ``busy_us`` (``probe_us``: one probe's
    microseconds), or ``max_s`` passed. Returns ``quiet`` (whether the streak came), ``waited_s``,
    ``probes`` and ``slowest_us``."""
    start = clock()
    quick = probes = 0
    slowest = 0.0
    while True:
        us = probe_us()
        probes += 1
        slowest = max(slowest, us)
        quick = quick + 1 if us < busy_us else 0
        if quick >= streak or clock() - start >= max_s:
            break
        if quick == 0:
            pause(0.001)  # another context's kernel is running: give it the GPU
    return {"quiet": quick >= streak, "waited_s": round(clock() - start, 4), "probes": probes,
            "slowest_us": round(slowest, 1)}


def gpu_probe(device: torch.device) -> Callable[[], float]:
    """A probe for :func:`settle`: microseconds from launching a one-element kernel to its end."""
    cell = torch.zeros(1, device=device)
    torch.cuda.synchronize(device)

    def probe() -> float:
        start = time.perf_counter()
        cell.add_(1)
        torch.cuda.synchronize(device)
        return (time.perf_counter() - start) * 1e6
    return probe


def estimate_ms(timer: EventTimer, fn: Callable[[], Any], prepare: Callable[[int, int], None], calls: int = 3) -> float:
    """Median of a few timed calls (after the caller's warm-up), used to size the rounds."""
    return statistics.median(timer.time(fn, prepare, calls))
