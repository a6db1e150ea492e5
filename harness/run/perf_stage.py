"""The perf stage, parent side: interleave the candidate with its baselines on one GPU.

For a job that passed exe, the parent starts the trusted baseline process (harness/perf/baseline.py),
lets it draw its inputs and compile ``torch.compile`` of the reference *before* taking the GPU (so
compilation overlaps other jobs' timing), then takes the GPU's timing lock: no other job is timed on
that GPU until this one is done, and every other job's processes there are stopped meanwhile
(run/quiet.py). Under the lock, for each perf case: both processes warm up, then
rounds alternate candidate / eager / compile, each side timing its own repetitions, until every
side's median is precise enough (perf/timing.py: between MIN_ROUNDS and MAX_ROUNDS); while
a baseline is timed, the candidate's process group is stopped (SIGSTOP), so it cannot load the GPU
meanwhile. Each side then calls once on a separate check set; after the GPU is released, the
candidate's check results are judged against the reference's by the baseline process.
"""

from __future__ import annotations

import math
import random
import secrets
import threading
import time
from contextlib import nullcontext
from pathlib import Path
from typing import Any, Callable

from harness import protocol
from harness.config import StageLimits
from harness.perf.timing import REMEASURE_ATTEMPTS, precise_enough, reps_per_round
from harness.protocol import CANDIDATE
from harness.run.judge import crash_text, library_kernels, names_in
from harness.run.process import WorkerProcess
from harness.run.quiet import JobClock, QuietGpu
from harness.run.zygote import Zygote
from harness.sealed_files import SealedFile
from harness.verdicts import CRASHED, ERROR, HARNESS_ERROR, INTEGRITY, OK, TIMEOUT, WRONG, StageResult

_KEPT_REP = random.SystemRandom()  # which timed call is judged: nothing the candidate can predict


class PerfFailure(Exception):
    """Ends the perf stage with ``result``."""

    def __init__(self, result: StageResult) -> None:
        super().__init__(result.detail)
        self.result = result


def _candidate_failed(proc: WorkerProcess, event: dict | None, what: str) -> PerfFailure:
    if event is None:
        if proc.outcome.protocol_error:
            return PerfFailure(StageResult(INTEGRITY, f"protocol: {proc.outcome.protocol_error} ({what})"))
        if proc.outcome.timed_out:
            return PerfFailure(StageResult(TIMEOUT, f"perf stage exceeded its time limit ({what})"))
        proc.close()
        return PerfFailure(StageResult(CRASHED, f"{proc.outcome.crash_reason()} ({what})\n{crash_text(proc.outcome.stderr_tail, 800)}".strip()))
    detail = str(event.get("detail", ""))[:4000]
    status = event.get("status") if event.get("status") in (ERROR, INTEGRITY) else ERROR  # never a pass
    return PerfFailure(StageResult(status, f"{what}: {detail}"))


# How long the baseline's step may run past the stage's deadline. The candidate may spend the
# stage's time to its last moment (its check call, say), and the baseline's next step (the
# reference's check call at perf size, a timing round) must not then fail for it, a harness error
# that is not held against the job (perf_deadline_spent_on_the_judge.py): the step finishes, and the
# candidate's next request finds the deadline passed, a timeout of the candidate's.
BASELINE_GRACE_S = 60.0


def _for_baseline(baseline: WorkerProcess, deadline: float) -> float:
    """The deadline of a request to the baseline: the stage's, or ``BASELINE_GRACE_S`` from now."""
    return max(deadline, baseline.clock.now() + BASELINE_GRACE_S)


def _baseline_failed(proc: WorkerProcess, event: dict | None, what: str) -> PerfFailure:
    if event is None:
        proc.close()
        why = "timed out" if proc.outcome.timed_out else proc.outcome.crash_reason()
        detail = f"{why}\n{proc.outcome.stderr_tail[-1500:]}"
    else:
        detail = str(event.get("detail", event))
    return PerfFailure(StageResult(HARNESS_ERROR, f"baseline process failed ({what}): {detail}"))


def baseline_dir(job_dir: Path) -> Path:
    """The baseline process's own directory beside the job's: the candidate can write to its job
    dir, and nothing a trusted process runs from may come from there."""
    return job_dir.with_name(job_dir.name + "-baseline")


def start_baseline(job_dir: Path, spec: dict, env: dict[str, str], clock: JobClock | None = None,
                   zygote: Zygote | None = None) -> WorkerProcess:
    """Start the trusted baseline process and let it draw its inputs and compile right away (while
    the candidate is still in call/exe); it is closed unused if the candidate fails exe. ``clock``:
    the job's (it is held with the job's other processes). Forked by ``zygote`` when given: the fork
    server has run no submission (it forks the workers before they import theirs), so its child is
    as trusted as a new interpreter, and saves the seconds of importing torch that a one-submission
    evaluator would otherwise wait for after exe."""
    home = baseline_dir(job_dir)
    home.mkdir(exist_ok=True)
    baseline = WorkerProcess(protocol.BASELINE_MODULE, home, spec, env, commands=True, name="baseline", clock=clock,
                             zygote=zygote)
    baseline.send({"cmd": protocol.CMD_PREPARE})
    return baseline


def run_perf(candidate: WorkerProcess, baseline: WorkerProcess, job_dir: Path, gpu_lock: threading.Lock,
             limits: StageLimits, quiet: QuietGpu | None = None,
             judging: Callable[[], None] | None = None,
             candidate_memory: int | None = None,
             baseline_memory: Callable[[int], None] | None = None) -> tuple[StageResult, dict[str, Any]]:
    """Time the candidate (a worker that passed exe and waits for perf commands) against its
    baselines, with every other job on the GPU held while it is timed (``quiet``); ``judging`` is
    called when timing is over and the results are about to be judged (the job needs less GPU
    memory from then on: run/gpu_memory.py); ``candidate_memory``: the GPU memory the candidate's
    process may hold from its warm-up on (its allocator's cap, gpu_memory_cap.py; None
    keeps the call/exe one); ``baseline_memory`` is called with the GPU memory (bytes) the baseline's
    allocator held at most once it has prepared (its reference at perf size). Returns the perf
    verdict and the raw measurements (see perf/metrics.py), with the seconds each phase took under
    ``phases_s`` and the wall-clock start and end of the part that held the GPU under
    ``timed_window``. Its deadlines are read on the job's clock (both processes share it)."""
    phases: dict[str, float] = {}
    clock = time.monotonic()

    def phase(name: str) -> None:
        nonlocal clock
        now = time.monotonic()
        phases[name] = round(now - clock, 3)
        clock = now

    try:
        deadline = candidate.clock.now() + limits.setup + limits.perf
        base = baseline.next_event(deadline)
        while base is not None and base.get("event") == protocol.STAGE:
            base = baseline.next_event(deadline)
        if base is None or base.get("event") != protocol.PREPARED:
            raise _baseline_failed(baseline, base, "prepare")
        peak = base.get("peak_mb")  # (the trusted process's word; None off a GPU)
        if baseline_memory and type(peak) is int and 0 <= peak <= MAX_REPORTED_MB:
            baseline_memory(peak << 20)
        phase("baseline_prepare")
        # The candidate's warm-up (its JIT compiles at perf sizes, a few calls to size the rounds)
        # runs before the GPU is taken: compiling is the CPU's work, and the few kernels it runs
        # are in no other job's timed median (each side's rounds are interleaved, medians of many).
        deadline = candidate.clock.now() + limits.perf
        # what the reference changes, and the key of the digests of what it does not (harness/kept.py)
        told = {"digest_key": base.get("digest_key", 0), "mutates": [c.get("mutates", []) for c in base["cases"]],
                "gpu_memory_cap": candidate_memory}
        prepared = candidate.request({"cmd": protocol.CMD_PREPARE, **told}, protocol.PREPARED, deadline)
        if prepared is None or prepared.get("event") != protocol.PREPARED:
            raise _candidate_failed(candidate, prepared, "warm-up at perf sizes")
        phase("candidate_prepare")
        with gpu_lock:
            phase("lock_wait")
            window = [time.time()]  # wall clock, comparable across the jobs of one host
            with quiet.others_held(candidate.clock) if quiet else nullcontext(0.0) as parent_wait_s:
                raw = _timed(candidate, baseline, base["cases"], prepared["cases"], deadline)
            window.append(time.time())
            phase("timed")  # of which the check calls (traced) took raw["check_calls_s"]
        raw["timed_window"] = [round(t, 3) for t in window]
        phases["timed_check_calls"] = raw["check_calls_s"]
        phases.update({f"timed_{part}": round(s, 3) for part, s in raw["spent_s"].items()})
        phases["timed_settle"] = float(raw["settle"]["waited_s"] or 0.0)  # waiting for other jobs' queued GPU work
        phases["timed_parent_wait"] = round(parent_wait_s, 3)  # for the parent's own GPU work for other jobs
        if judging:
            judging()
        costs = _judge_checks(candidate, baseline, len(raw["cases"]), job_dir, deadline)
        phase("judge_checks")  # of which saving, loading and comparing took the judge_checks_* phases
        phases.update({f"judge_checks_{part}": round(s, 3) for part, s in costs.items()
                       if part not in ("bytes", "sealed") and not part.endswith("_peak_mb")})
        raw["judged_mb"] = round(costs["bytes"] / 1e6, 3)  # kB: small CPU cases judge tens of kB
        raw["judged_sealed"] = int(costs["sealed"])  # of the 2 per case: the rest came with a SHA-256
        # the GPU memory each process's allocator held at most (MiB; the candidate's is its word)
        raw["peak_mb"] = {side: int(costs[f"{side}_peak_mb"]) for side in ("candidate", "baseline")
                          if f"{side}_peak_mb" in costs}
        raw["lock_wait_s"] = phases["lock_wait"]
        raw["phases_s"] = phases
        return StageResult(OK), raw
    except PerfFailure as failure:
        return failure.result, {"phases_s": phases}


def _timed(candidate: WorkerProcess, baseline: WorkerProcess, base_cases: list[dict], candidate_cases: list[dict],
           deadline: float) -> dict[str, Any]:
    """Under the GPU lock: a quiet GPU first (the stopped jobs' queued kernels done, see
    perf/timing.py ``settle``), then interleaved rounds and the check-set calls of every case."""
    settled = baseline.request({"cmd": protocol.CMD_SETTLE}, protocol.SETTLED, _for_baseline(baseline, deadline))
    if settled is None or settled.get("event") != protocol.SETTLED:
        raise _baseline_failed(baseline, settled, "waiting for a quiet GPU")
    cases = []
    checks_s = 0.0
    spent: dict[str, float] = {}  # per side: the requests' seconds, and the parts each process reports
    for index, (base, cand) in enumerate(zip(base_cases, candidate_cases)):
        estimates = {CANDIDATE: cand["estimate_ms"][CANDIDATE], **base["estimate_ms"]}
        samples: dict[str, list[float]] = {side: [] for side in estimates}
        host_bound = dict.fromkeys(estimates, 0)  # repetitions whose time includes host time (diagnostic)
        reps = {side: reps_per_round(ms) for side, ms in estimates.items()}
        rounds = kept = kept_attempt = 0
        kept_reps: list[int] = []  # every repetition kept in turn (a reservoir of one: each replaced the last)
        while not precise_enough(samples, rounds):
            order = list(estimates) if rounds % 2 == 0 else list(reversed(estimates))
            for side in order:
                first = rounds * reps[side]
                keep = replace_kept(first, reps[side]) if side == CANDIDATE else None
                kept = kept if keep is None else keep
                kept_reps += [] if keep is None else [keep]
                times, bound, attempt = _time_side(candidate, baseline, index, side, reps[side], first, deadline,
                                                   keep=keep, spent=spent)
                kept_attempt = kept_attempt if keep is None else attempt
                samples[side] += times
                host_bound[side] += bound
            rounds += 1
        clock = time.monotonic()
        check_busy_ms = _check_call(candidate, baseline, index, deadline, kept, kept_attempt)
        checks_s += time.monotonic() - clock
        cases.append({**base, "candidate_first_call_s": cand["first_call_s"][CANDIDATE], "samples_ms": samples,
                      "rounds": rounds, "host_bound_reps": host_bound, "kept_rep": kept, "kept_attempt": kept_attempt,
                      "kept_reps": kept_reps, "check_gpu_busy_ms": check_busy_ms})
    return {"cases": cases, "rounds": max((c["rounds"] for c in cases), default=0), "check_calls_s": round(checks_s, 3),
            "spent_s": spent,
            "settle": {k: settled.get(k) for k in ("quiet", "waited_s", "probes", "slowest_us")}}


def _is_sha256(value: Any) -> bool:
    return isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef" for c in value)


def replace_kept(first: int, reps: int, draw: random.Random = _KEPT_REP) -> int | None:
    """For timed calls ``first .. first+reps-1`` of the candidate: the one whose result replaces the
    one kept so far to be judged, or None. A reservoir of one: after any number of rounds, every
    timed call was equally likely to be kept, so a wrapper cannot be wrong only in the rounds that
    run when the first ones were noisy."""
    if draw.random() * (first + reps) < reps:
        return first + draw.randrange(reps)
    return None


def _time_side(candidate: WorkerProcess, baseline: WorkerProcess, case: int, side: str, reps: int,
               first: int, deadline: float, keep: int | None = None,
               spent: dict[str, float] | None = None) -> tuple[list[float], int, int]:
    """One side's timed repetitions: their milliseconds, how many of them include host time
    (``EventTimer.take_host_bound``; the candidate's count is its own process's word, kept as a
    diagnostic only), and which measurement of repetition ``keep`` was kept (0 but where it was
    measured again on inputs of its own: perf/timing.py; the baseline loads that attempt's inputs for
    its reference, so a wrong word only gets the result judged against other inputs). Adds to
    ``spent`` the request's seconds (``<side>_requests``: the round trip,
    for the baselines with stopping and continuing the candidate) and the parts the process
    reports of them (``<side>_<part>``, :data:`TIMING_PARTS`)."""
    command = {"cmd": protocol.CMD_TIME, "case": case, "side": side, "reps": reps, "first": first}
    spent = {} if spent is None else spent
    clock = time.monotonic()
    if side == CANDIDATE:
        command["keep"] = keep
        event = candidate.request(command, protocol.TIMES, deadline)
        _add_parts(spent, f"{side}_requests", time.monotonic() - clock)
        if event is None or event.get("event") != protocol.TIMES:
            raise _candidate_failed(candidate, event, f"timing case {case}")
        if not isinstance(event.get("ms"), list) or len(event["ms"]) != reps:
            # the reply to another command than this one (perf_commands_from_swapped_stdin.py)
            raise PerfFailure(StageResult(INTEGRITY, f"protocol: timing case {case} answered "
                                                     f"{len(event.get('ms') or ())} repetitions, not the {reps} asked for"))
        wrong = [x for x in event["ms"] if not (type(x) in (int, float) and 0.0 <= x < math.inf)]
        if wrong:  # no clock gives those: one the submission swapped in did (perf_clock_rebound_per_rep.py)
            shown = wrong[0]
            raise PerfFailure(StageResult(INTEGRITY, f"tampering: timing case {case} measured {str(shown)[:40]} ms "
                                                     "for a repetition (the clock was not the harness's)"))
        attempt = event.get("kept_attempt")
        if keep is not None and first <= keep < first + reps and not (
                type(attempt) is int and 0 <= attempt < REMEASURE_ATTEMPTS):
            raise PerfFailure(StageResult(INTEGRITY, f"protocol: timing case {case} kept repetition {keep} "
                                                     f"without saying which of its measurements ({str(attempt)[:40]})"))
        _add_reported(spent, event.get("spent"), TIMING_PARTS, f"{side}_")
        return [float(x) for x in event["ms"]], _count(event.get("host_bound")), attempt if keep is not None else 0
    candidate.pause()
    try:
        event = baseline.request(command, protocol.TIMES, _for_baseline(baseline, deadline))
    finally:
        candidate.resume()
    _add_parts(spent, f"{side}_requests", time.monotonic() - clock)
    if event is None or event.get("event") != protocol.TIMES:
        raise _baseline_failed(baseline, event, f"timing {side} on case {case}")
    _add_reported(spent, event.get("spent"), TIMING_PARTS, f"{side}_")
    return [float(x) for x in event["ms"]], _count(event.get("host_bound")), 0


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def _check_call(candidate: WorkerProcess, baseline: WorkerProcess, case: int, deadline: float,
                kept: int, kept_attempt: int = 0) -> float | None:
    """The check calls of one case (the candidate's traced on a GPU), the baseline's reference for
    the kept timed repetition on the inputs of its kept measurement (``kept_attempt``); returns the
    GPU time the candidate's check call kept the GPU busy (None without a trace)."""
    event = candidate.request({"cmd": protocol.CMD_CHECK, "case": case, "side": CANDIDATE}, protocol.CHECKED, deadline)
    if event is None or event.get("event") != protocol.CHECKED:
        raise _candidate_failed(candidate, event, f"check call of case {case}")
    if event.get("integrity"):
        raise PerfFailure(StageResult(INTEGRITY, str(event["integrity"])))
    busy = event.get("gpu_busy_ms")
    report = candidate.outcome.report or {}
    library = library_kernels(names_in(event.get("gpu_kernels")), names_in(report.get("triton_kernels")))
    if library:
        raise PerfFailure(StageResult(INTEGRITY, f"gpu_trace - at perf size, case {case}: the GPU ran PyTorch/library "
                                                 f"compute kernels during the check call ({'; '.join(k[:100] for k in library[:2])})"))
    event = baseline.request({"cmd": protocol.CMD_CHECK, "case": case, "side": protocol.EAGER, "timed_rep": kept,
                              "timed_attempt": kept_attempt},
                             protocol.CHECKED, _for_baseline(baseline, deadline))
    if event is None or event.get("event") != protocol.CHECKED:
        raise _baseline_failed(baseline, event, f"reference check call of case {case}")
    return busy if isinstance(busy, float) and busy >= 0.0 else None


# What a perf process reports of its seconds, for the job's timing only (no verdict rests on them).
# Of a save (perf/server.py _cmd_save): freeing the timed inputs and judged files, staging the
# result on the host, writing and sealing it.
SAVING_PARTS = ("freeing", "staging", "writing")
# Of a timing request (perf/server.py _cmd_time): the repetitions, keeping the judged one, the
# checks for rebound code, the rest.
TIMING_PARTS = ("repetitions", "keeping", "checking", "other")
# Bounds on what a process reports: larger numbers are none a clock or an allocator gives (a stage
# lasts minutes; no GPU holds 2**31 MiB), and summed they could overflow to infinity, which the
# journal would then write as JSON no strict parser reads.
MAX_REPORTED_S = 1e6
MAX_REPORTED_MB = 1 << 31


def _add_parts(costs: dict[str, float], name: str, seconds: float) -> None:
    costs[name] = costs.get(name, 0.0) + seconds


def _add_reported(costs: dict[str, float], reported: Any, parts: tuple[str, ...], prefix: str) -> None:
    """Add the ``parts`` a process reports (seconds) to ``costs``, as ``<prefix><part>``; what is not
    a number of seconds from 0 to MAX_REPORTED_S is ignored (the candidate's words: a diagnostic
    only)."""
    if not isinstance(reported, dict):
        return
    for part in parts:
        value = reported.get(part)
        if type(value) in (int, float) and 0 <= value <= MAX_REPORTED_S:
            _add_parts(costs, f"{prefix}{part}", float(value))


def _note_peak(costs: dict[str, float], name: str, reported: Any) -> None:
    """Keep the largest peak of GPU memory a process reported (MiB; an int from 0 to MAX_REPORTED_MB,
    else ignored)."""
    if type(reported) is int and 0 <= reported <= MAX_REPORTED_MB:
        costs[name] = max(costs.get(name, 0), reported)


def _judge_checks(candidate: WorkerProcess, baseline: WorkerProcess, cases: int, job_dir: Path,
                  deadline: float) -> dict[str, float]:
    """After the GPU is released: the candidate's results on the check set and of its kept timed
    repetition are judged by the baseline, pipelined (the candidate saves the next result while the
    baseline judges the last one). Each comes as a sealed file the signed ``saved`` event names
    (the baseline opens it through the candidate's pid, as the parent knows it; the candidate
    closes it with the next save once judged), or where the candidate could make none as a file
    with its SHA-256. Returns what that cost: the seconds the candidate took to save them
    (``saving``; of which, as the candidate reports them, ``saving_<part>`` for ``SAVING_PARTS``),
    the baseline to load and to compare them (``loading``, ``comparing``), the bytes saved, and how
    many came sealed (``sealed``)."""
    costs = dict.fromkeys(("saving", "loading", "comparing", "bytes", "sealed"), 0.0)
    judging: tuple[str, int | None] | None = None  # what the baseline is judging now, and its sealed file
    release: list[int] = []  # sealed files judged since the last save: the candidate may close them

    def verdict_of(what: str, sealed_fd: int | None) -> None:
        verdict = baseline.wait_for(protocol.VERDICT, _for_baseline(baseline, deadline))
        if verdict is None or verdict.get("event") != protocol.VERDICT:
            raise _baseline_failed(baseline, verdict, f"judging the {what}")
        if not verdict.get("ok"):
            raise PerfFailure(StageResult(verdict.get("status", WRONG), f"{what.split(' of case')[0]}: "
                                                                         f"{verdict.get('detail', '')}"))
        for key in ("loading", "comparing", "bytes"):
            costs[key] += float((verdict.get("costs") or {}).get(key, 0.0))
        _note_peak(costs, "baseline_peak_mb", verdict.get("peak_mb"))
        if sealed_fd is not None:
            release.append(sealed_fd)

    for case in range(cases):
        for which, what in ((protocol.CHECK_RESULT, "check call"), (protocol.TIMED_RESULT, "timed repetition")):
            path = job_dir / f"perf_{which}_{case}.pt"
            # drawn now, after the result was kept: no code of the submission's ran knowing where
            # its large results are judged (sampled_results.py)
            command = {"case": case, "path": str(path), "which": which, "sample_key": secrets.randbits(62)}
            clock = time.monotonic()
            event = candidate.request({"cmd": protocol.CMD_SAVE, **command, "release": release[:]}, protocol.SAVED,
                                      deadline)
            release.clear()
            costs["saving"] += time.monotonic() - clock
            if event is None or event.get("event") != protocol.SAVED:
                raise _candidate_failed(candidate, event, f"saving the {what} result of case {case}")
            _add_reported(costs, event.get("costs"), SAVING_PARTS, "saving_")
            _note_peak(costs, "candidate_peak_mb", event.get("peak_mb"))
            sealed = SealedFile.from_event(event.get("sealed"))
            if sealed is not None:
                named = {"sealed": {**sealed.to_event(), "pid": candidate.pid}}
                costs["sealed"] += 1
            elif _is_sha256(event.get("sha256")):
                named = {"sha256": event["sha256"]}
            else:
                raise PerfFailure(StageResult(INTEGRITY, f"protocol: the saved {what} result of case {case} "
                                                         "came without its sealed file or SHA-256"))
            if judging:
                verdict_of(*judging)
            if not baseline.send({"cmd": protocol.CMD_JUDGE, **command, **named}):
                raise _baseline_failed(baseline, None, f"judging the {what} of case {case}")
            judging = (f"{what} of case {case}", sealed.fd if sealed else None)
    if judging:
        verdict_of(*judging)
    return costs
