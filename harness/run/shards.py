"""A job split across several worker processes: each calls a contiguous share of the task's cases.

Triton compiles inside the process that launches a kernel, and a job's compiles run one after
another there; on a machine with idle cores, a long job (many specialisations, say a convolution
with a different kernel shape per case) finishes sooner when its cases are shared out. Every
process is a complete, isolated worker of the same submission (its own confinement, monitors, seed
handshake and time limits, no files or caches shared with the others); the parent merges what
they reported into one outcome and judges it exactly as it judges a single worker's. The first
process (the main one) also serves perf if the job gets that far.

How many processes a job gets is decided by :func:`shares_wanted` (from its expected cost) and
bounded by the free process slots (:class:`ProcessSlots`): a batch run shards only the jobs that
start while cores are idle, a warm evaluator with one request in flight uses the idle cores for it.
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

from harness import protocol
from harness.config import StageLimits
from harness.run.process import WorkerOutcome, WorkerProcess
from harness.taskdef import Case, tensor_leaves
from harness.tiers import case_traits
from harness.verdicts import ERROR, HARNESS_ERROR, INTEGRITY

MAX_SHARES = 8
MIN_CASES_PER_SHARE = 2   # fewer would repeat a process's set-up for too little work
MAX_KERNEL_NAMES = 64


def shares_wanted(expected_s: float, target_s: float, n_cases: int, limit: int = MAX_SHARES) -> int:
    """Processes for a job expected to take ``expected_s`` seconds in one worker, aiming at about
    ``target_s`` seconds per process, at most ``limit``, each with at least two cases."""
    if n_cases < 2 * MIN_CASES_PER_SHARE or target_s <= 0:
        return 1
    by_time = math.ceil(expected_s / target_s) if math.isfinite(expected_s) else limit
    return max(1, min(limit, n_cases // MIN_CASES_PER_SHARE, by_time))


def split_cases(n_cases: int, shares: int) -> list[list[int]]:
    """Case indices per process: contiguous runs (a task lists cases of one dtype or layout
    together, so neighbours tend to share compiled kernels), sizes differing by at most one."""
    shares = max(1, min(shares, n_cases)) if n_cases else 1
    bounds = [round(i * n_cases / shares) for i in range(shares + 1)]
    return [list(range(bounds[i], bounds[i + 1])) for i in range(shares)]


def cheapest_first(cases: list[Case], shares: list[list[int] | None], module: Any = None) -> list[list[int]]:
    """Each share's case indices reordered for fail-fast (``None``: all cases): core cases before
    edge ones (a job stopped by an edge case then still has its core verdict), and within each tier
    the cases with fewer input elements first. A wrong submission is usually wrong on a small case
    too, and there it is found without first paying for the large ones (in Triton's interpreter a
    case's cost grows with its elements). The order a call is made in changes no verdict: each is
    judged by its case index, and the calls are put back in the task's order before judging."""
    def key(index: int) -> tuple[bool, int, int]:
        case = cases[index]
        elements = sum(t.numel() for t in tensor_leaves(list(case.args) + list(case.kwargs.values())))
        return bool(case_traits(case, module)), elements, index
    return [sorted(range(len(cases)) if share is None else share, key=key) for share in shares]


# Severity of how a process ended, for the job's verdict: a broken protocol or an integrity
# failure in any process decides the job (no partial credit then), then a timeout, a crash, a
# failure of the harness, an error the worker reported; "ran" is the only success.
def _severity(outcome: WorkerOutcome) -> int:
    status = (outcome.report or {}).get("status")
    if outcome.protocol_error:
        return 6
    if status == INTEGRITY:
        return 5
    if outcome.timed_out:
        return 4
    if outcome.report is None:
        return 3
    if status == HARNESS_ERROR:
        return 2
    if status != protocol.RAN:
        return 1 if status == ERROR else 5  # an unknown status is the worker's fault
    return 0


def merge_outcomes(outcomes: list[WorkerOutcome]) -> WorkerOutcome:
    """One outcome for a job whose cases ran in several processes (``outcomes[0]`` the main one):
    every call each process finished, in process order, and the ending of the process that ended
    worst (the main one's when all ran); its report's call count and kernel names cover them all."""
    if len(outcomes) == 1:
        return _in_case_order(outcomes[0])
    main = outcomes[0]
    worst = max(outcomes, key=_severity)  # the first of equals: max keeps the earliest
    # in the order one worker calls them (config by config, cases in order), whatever the shares
    calls = sorted(((call, path) for o in outcomes for call, path in zip(o.calls, o.call_files)),
                   key=lambda pair: _call_order(pair[0]))
    merged = replace(main, stage=worst.stage, report=worst.report, timed_out=worst.timed_out,
                     returncode=worst.returncode, stderr_tail=worst.stderr_tail,
                     protocol_error=worst.protocol_error, stopped_early=any(o.stopped_early for o in outcomes),
                     seconds=max(o.seconds for o in outcomes),
                     calls=[call for call, _ in calls], call_files=[path for _, path in calls])
    if _severity(worst) == 0:
        merged.report, merged.protocol_error = _merged_report(outcomes)
    return merged


def _in_case_order(outcome: WorkerOutcome) -> WorkerOutcome:
    """One process's outcome with its calls in the order :func:`merge_outcomes` gives (fail-fast
    may have called the cases cheapest first)."""
    order = sorted(range(len(outcome.calls)), key=lambda i: _call_order(outcome.calls[i]))
    if order == list(range(len(outcome.calls))) or len(outcome.call_files) != len(outcome.calls):
        return outcome
    return replace(outcome, calls=[outcome.calls[i] for i in order], call_files=[outcome.call_files[i] for i in order])


def _call_order(event: dict) -> tuple:
    """(config, case) of a call event; malformed facts (which the judge rejects) sort last."""
    facts = event.get("facts")
    if isinstance(facts, list) and len(facts) > 1 and type(facts[0]) is int and type(facts[1]) is int:
        return (0, facts[1], facts[0])
    return (1, 0, 0)


def _merged_report(outcomes: list[WorkerOutcome]) -> tuple[dict | None, str | None]:
    """The main process's ``ran`` report covering every process's calls, or why the processes'
    reports do not fit together."""
    reports = [o.report or {} for o in outcomes]
    if any(r.get("calls") != len(o.calls) for r, o in zip(reports, outcomes)):
        return reports[0], "a worker process reported a call count other than its calls"
    names: list[str] = []
    for report in reports:
        kernels = report.get("triton_kernels")
        for name in kernels if isinstance(kernels, list) else []:
            if isinstance(name, str) and name not in names:
                names.append(name)
    return {**reports[0], "calls": sum(len(o.calls) for o in outcomes), "configs": _merged_configs(reports),
            "triton_kernels": names[:MAX_KERNEL_NAMES]}, None


def _merged_configs(reports: list[dict]) -> list[str]:
    """Each config pass's pins over all the processes (an autotuner a process built while a call
    ran is pinned in that process alone, which may then run more passes than the others): pass
    ``i`` names every pin some process made in its pass ``i``. The judge checks that the calls
    form whole passes (judge._passes_not_whole)."""
    lists = [r.get("configs") if isinstance(r.get("configs"), list) else [] for r in reports]
    merged = []
    for i in range(max(map(len, lists), default=0)):
        pins: list[str] = []
        for configs in lists:
            for pin in str(configs[i]).split("; ") if i < len(configs) else ():
                if pin and pin not in pins:
                    pins.append(pin)
        merged.append("; ".join(pins))
    return merged


class ProcessSlots:
    """Worker processes allowed at once on one device (one per core by default): every job takes
    one for its main process (waiting if none is free) and may take more for its other shares,
    only if they are free at once (never waiting: the job then runs in fewer processes)."""

    def __init__(self, capacity: int) -> None:
        self.capacity = max(1, capacity)
        self._free = self.capacity
        self._changed = threading.Condition()

    def take(self, extra_wanted: int = 0) -> int:
        """Wait for one slot, then take up to ``extra_wanted`` more if free; returns how many were taken."""
        with self._changed:
            self._changed.wait_for(lambda: self._free > 0)
            taken = 1 + min(max(extra_wanted, 0), self._free - 1)
            self._free -= taken
            return taken

    def give_back(self, count: int) -> None:
        with self._changed:
            self._free = min(self.capacity, self._free + count)
            self._changed.notify_all()

    @property
    def free(self) -> int:
        with self._changed:
            return self._free


class JobWorkers:
    """The worker processes of one job, started together: the main one (``main``, which serves
    perf) and the others, each on its own share of the cases."""

    def __init__(self, workers: list[WorkerProcess]) -> None:
        self.workers = workers
        self.main = workers[0]
        # seconds from the main process's report until every other share had reported too: part
        # of the job's seconds that no stage of the main process shows
        self.share_wait_s = 0.0

    def follow(self, limits: StageLimits) -> None:
        """Follow every process to its report (each under its own deadlines); the others are
        followed in threads of their own and closed once they report."""
        def follow_other(worker: WorkerProcess) -> None:
            try:
                worker.follow_to_report(limits)
            finally:
                worker.close()

        threads = [threading.Thread(target=follow_other, args=(w,), daemon=True, name="kbx-share")
                   for w in self.workers[1:]]
        for thread in threads:
            thread.start()
        try:
            self.main.follow_to_report(limits)
        finally:
            reported = time.monotonic()
            for thread in threads:
                thread.join()
            self.share_wait_s = time.monotonic() - reported

    def stop_at_first_wrong(self, wrong: Callable[[dict, Path, object], bool]) -> None:
        """Fail-fast: every process stops being followed (and is then killed) as soon as any of
        them reports a call that ``wrong`` judges wrong (``wrong(event, file, kernel names the
        process announced)``)."""
        halt = threading.Event()
        for worker in self.workers:
            worker.halt, worker.stop_when = halt, wrong

    def all_ran(self) -> bool:
        return all((w.outcome.report or {}).get("status") == protocol.RAN for w in self.workers)

    def outcome(self) -> WorkerOutcome:
        return merge_outcomes([w.outcome for w in self.workers])

    def close(self, reap: bool = True) -> WorkerOutcome:
        """Close every process (the main one last; ``reap=False``: killed, not waited for);
        returns the merged outcome."""
        for worker in self.workers[1:] + [self.main]:
            worker.close(reap)
        return self.outcome()

    def reap(self) -> None:
        """Wait for every process :meth:`close` killed."""
        for worker in self.workers:
            worker.reap()
