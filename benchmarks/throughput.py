"""Throughput of the harness (issue 14): where a suite run's time goes, and how fast a warm evaluator
answers one small submission, alone and under 16 concurrent HTTP clients.

    python benchmarks/throughput.py --out runs/throughput [--parts call_exe,with_perf,warm,serve]
                                    [--repeats 20] [--suite-timeout 540] [--resume] [--warm-shards N]

Parts (each writes its numbers into OUT/throughput.json, and a table to stdout):
- ``call_exe``, ``with_perf`` (``suite`` = both): ``kernelbenchx eval solutions`` with ``--no-perf``
  and with perf (perf only on a GPU): wall time, jobs, and the summed per-stage breakdown
  (summary.json's ``time_breakdown_s``); a run stopped at ``--suite-timeout`` reports the jobs its
  journal holds, marked ``cut``. With perf, each job's speedup against the committed golden results
  of the same solution (``speedup_vs_golden_triton``: golden median / today's median) says how
  far today's timings are from the golden run's;
- ``warm``: a warm ``harness.api.Evaluator``; ``--repeats`` sequential submissions of the bundled
  ReLU, call+exe and (on a GPU) with perf: latency p50 / p95 / max, and the median of each part of
  a job's ``info.timing``, of ``worker_life_s`` (its main worker's start to its reaping, or its kill
  where the reaping follows the result (a job with perf), the wait
  for its other processes, ``share_wait_s``, included) and of ``outside_worker_s`` (the rest of the
  latency: the evaluator's own work), and how many processes each submission ran in
  (``--warm-shards`` fixes that number);
- ``serve``: ``kernelbenchx serve``'s server in this process, 16 clients posting the same ReLU
  ``--repeats`` times each: latency p50 / p95 / max, requests per second, failed requests.
Runs on the CPU too (interpreter), where the numbers describe the interpreter, not a GPU.
"""

from __future__ import annotations

import argparse
import faulthandler
import json
import math
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RELU = (ROOT / "solutions" / "Activation" / "relu.py").read_text()
TASK = "Activation/relu.py"


def _percentiles(seconds: list[float]) -> dict[str, float]:
    ordered = sorted(seconds)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))]  # noqa: E731
    return {"n": len(ordered), "p50_s": round(statistics.median(ordered), 3), "p95_s": round(pick(0.95), 3),
            "max_s": round(ordered[-1], 3)}


# with perf, every timed repetition is kept (--perf-samples): a case whose repetitions fall in two
# modes, or drift, shows it in the run's journal
SUITES = {"call_exe": ["--no-perf"], "with_perf": ["--perf-samples"]}


def suite(name: str, out: Path, gpu: bool, timeout: float, resume: bool = False) -> dict:
    """One ``kernelbenchx eval solutions`` run: its wall time, verdicts and per-stage time.
    ``resume``: continue the run whose journal OUT holds (a run cut at a device call's limit, its
    journal carried to the next call); the wall time is then this part's."""
    if name == "with_perf" and not gpu:
        return {"skipped": "no GPU"}
    run_dir = out / f"suite_{name}"
    started = time.monotonic()
    try:
        command = [sys.executable, "-m", "harness.cli", "eval", str(ROOT / "solutions"), "--out", str(run_dir), "-q",
                   *SUITES[name], *(["--resume"] if resume else [])]
        proc = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
        exit_code, stderr = proc.returncode, proc.stderr
    except subprocess.TimeoutExpired as stopped:  # the CLI's journal keeps the jobs it finished
        exit_code, stderr = None, stopped.stderr if isinstance(stopped.stderr, str) else ""
    wall = time.monotonic() - started
    from harness.report.summary import time_breakdown, triton_compile_totals
    from harness.verdicts import JobResult
    jobs = _journal(run_dir)
    results = [JobResult.from_json(j) for j in jobs]
    result = {"wall_s": round(wall, 1), "resumed": resume, "exit": exit_code, "cut": exit_code is None,
              "jobs": len(jobs),
              "verdicts": dict(sorted(Counter(j["verdict"] for j in jobs).items())),
              "time_breakdown_s": time_breakdown(results), "triton_compile": triton_compile_totals(results),
              "stderr_tail": stderr[-500:] if exit_code else ""}
    if name == "with_perf":
        result["timing_lock"] = timing_lock_use(jobs)
        result["against_golden"] = against_golden(jobs)
    return result


def timing_lock_use(jobs: list[dict]) -> dict:
    """How busy the GPU's timing lock was: the seconds the jobs held it (their timed windows, wall
    clock), the span from the first window's start to the last one's end, and the share of that
    span held; and of the held seconds, those spent waiting for the parent's own GPU work rather
    than timing. The lock is the one thing perf jobs do one at a time on a GPU: an idle lock is
    where a suite with perf loses time (waits for perf memory, warm-ups, judging)."""
    windows = sorted(w for w in ((j.get("info") or {}).get("perf_timed_window") for j in jobs)
                     if isinstance(w, list) and len(w) == 2)
    if not windows:
        return {}
    held = sum(end - start for start, end in windows)
    span = windows[-1][1] - windows[0][0]
    parent_wait = sum(((j.get("info") or {}).get("timing") or {}).get("perf_timed_parent_wait_s", 0.0) for j in jobs)
    return {"held_s": round(held, 1), "span_s": round(span, 1), "held_share": round(held / span, 3) if span else None,
            "parent_wait_s": round(parent_wait, 1)}


def _journal(run_dir: Path) -> list[dict]:
    """The finished jobs of a run (its journal is written as each job ends, so a cut run has one)."""
    path = run_dir / "journal.jsonl"
    if not path.exists():
        return []
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [r for r in rows if "verdict" in r and "task_id" in r]


def against_golden(jobs: list[dict], golden=None) -> dict:
    """Today's per-job timings of the bundled solutions against the committed golden results of the
    same solutions: the share within 2% and the median |change| (the repeatability across runs).
    ``golden`` (a ``GoldenResults``): compare with those instead of the ones the run compared with
    (golden results measured again since). Each job outside 2% gets a likely cause (``_cause``)."""
    ratios = {j["task_id"]: _golden_ratio(j, golden, "triton") for j in jobs}
    compared = {task: r for task, r in ratios.items() if r}
    changes = sorted(abs(r - 1.0) for r in compared.values())
    outside = {task: r for task, r in sorted(compared.items()) if abs(r - 1.0) > 0.02}
    by_task = {j["task_id"]: j for j in jobs}
    return {"compared": len(compared), "perf_ok": sum(j.get("perf_ok", False) for j in jobs),
            "within_2pct": sum(c <= 0.02 for c in changes),
            "median_abs_change": round(statistics.median(changes), 4) if changes else None,
            "outside_2pct": outside,
            "outside_2pct_causes": {task: _cause(by_task[task], golden, r) for task, r in outside.items()},
            "no_golden": sorted(task for task, r in ratios.items() if not r),
            "settle": _settle_waits(jobs)}


def _settle_waits(jobs: list[dict]) -> dict:
    """How long the jobs waited for other jobs' queued GPU work before their timing (runs since
    2026-12-03 record it): how many waited over a millisecond, the total, and those that found
    no quiet GPU within the limit."""
    waits = {j["task_id"]: (j.get("info") or {}).get("perf_settle") for j in jobs}
    recorded = {task: w for task, w in waits.items() if isinstance(w, dict)}
    return {"recorded": len(recorded),
            "waited": sum((w.get("waited_s") or 0.0) > 0.001 for w in recorded.values()),
            "total_wait_s": round(sum(w.get("waited_s") or 0.0 for w in recorded.values()), 3),
            "not_quiet": sorted(task for task, w in recorded.items() if w.get("quiet") is False)}


def _golden_ratio(job: dict, golden, side: str) -> float | None:
    """Golden median / this run's median of ``side`` (``triton``: the candidate, ``eager``: its
    eager baseline), geometric mean over the job's cases (as the run's own ``speedup_vs_golden_*``);
    the golden times the run itself compared with, or those of ``golden``; None without a golden time
    for every case."""
    cases = (job.get("perf_metrics") or {}).get("cases") or []
    if golden is not None:
        from harness.task import get_task
        measured = golden.cases(get_task(job["task_id"]))
        stored = [measured.get(c["label"], {}) for c in cases]
    else:
        stored = [c.get("golden") or {} for c in cases]
    today = [c.get("runtime_ms") if side == "triton" else (c.get(side) or {}).get("median_ms") for c in cases]
    ratios = [g.get(side, 0.0) / t for g, t in zip(stored, today) if t]
    if not cases or len(ratios) != len(cases) or not all(ratios):
        return None
    return round(statistics.geometric_mean(ratios), 4)


def _cause(job: dict, golden, triton_ratio: float) -> dict:
    """Why a job's Triton time is off its golden one by more than 2%, as far as the numbers say: some
    of the candidate's repetitions were timed with host time in them (``host-bound``: the spin could
    not hide the call's issue time, so its times have two modes; runs since 2026-12-03 count them),
    the candidate's repetitions fall into two modes (``two modes``, from a run with
    ``--perf-samples``: ``case_modes`` says how), the candidate's own spread is wide (``noisy``),
    the eager baseline moved the same way (``golden run disturbed``: the GPU was not the same
    then), or none of these (``triton side only``)."""
    eager = _golden_ratio(job, golden, "eager")
    cases = (job.get("perf_metrics") or {}).get("cases") or []
    spread = max(((c.get("candidate") or {}).get("iqr_ms", 0.0) / c["runtime_ms"] for c in cases if c.get("runtime_ms")),
                 default=0.0)
    host_bound = sum((c.get("candidate") or {}).get("host_bound_reps", 0) for c in cases)
    modes = {c["label"]: m for c in cases if (m := case_modes(c))}
    if host_bound:
        cause = "host-bound"
    elif modes:
        cause = "two modes"
    elif spread > 0.05:
        cause = "noisy"
    elif eager and abs(eager - 1.0) > 0.02 and (eager - 1.0) * (triton_ratio - 1.0) > 0:
        cause = "golden run disturbed"
    else:
        cause = "triton side only"
    found = {"triton": triton_ratio, "eager": eager, "candidate_spread": round(spread, 4), "cause": cause,
             "host_bound_reps": host_bound}
    if modes:
        found["modes"] = modes
    if golden is not None:  # golden results from before the quiet GPU (2026-12-03T09:14Z) were timed beside other jobs
        from harness.task import get_task
        try:
            found["golden_date"] = json.loads(golden.file(get_task(job["task_id"])).read_text())["measured"]["date"]
        except (OSError, ValueError, KeyError):
            pass
    return found


def two_modes(samples: list[float], min_gap: float = 0.05, min_share: float = 0.1) -> dict | None:
    """The two modes of a case's repetition times, or None: sorted, the times split where one is
    more than ``min_gap`` (relative) above the one before, each side holding at least ``min_share``
    of them (the largest such step). Within one mode, neighbouring sorted times of tens of
    repetitions differ by far less than 5%."""
    ordered = sorted(samples)
    n = len(ordered)
    least = max(1, math.ceil(min_share * n))
    if n < 10 or ordered[0] <= 0:
        return None
    gap, at = max((ordered[i] / ordered[i - 1] - 1.0, i) for i in range(least, n - least + 1))
    if gap <= min_gap:
        return None
    return {"fast_ms": statistics.median(ordered[:at]), "slow_ms": statistics.median(ordered[at:]),
            "slow_share": round((n - at) / n, 3), "threshold_ms": (ordered[at - 1] + ordered[at]) / 2}


def case_modes(case: dict) -> dict | None:
    """For a perf case with ``samples_ms`` (``--perf-samples``) whose candidate times have
    ``two_modes``: the modes, how often consecutive repetitions change mode (``switches``: one
    means a lasting change of state partway, many a mix), where a single switch happened and
    whether it came right after a kept repetition (``after_kept``: a kept result is cloned on the
    GPU then), and how well the slow ones follow the two alternating input sets
    (``input_set_match``: 1.0 when every slow one is on the same set)."""
    samples = (case.get("candidate") or {}).get("samples_ms")
    modes = two_modes(samples) if samples else None
    if modes is None:
        return None
    slow = [ms > modes["threshold_ms"] for ms in samples]
    changes = [i for i in range(1, len(slow)) if slow[i] != slow[i - 1]]
    modes["switches"] = len(changes)
    if len(changes) == 1:
        modes["switch_at"] = changes[0]
        modes["after_kept"] = changes[0] - 1 in (case.get("kept_reps") or [])
    odd = sum(s == (i % 2 == 1) for i, s in enumerate(slow)) / len(slow)
    modes["input_set_match"] = round(max(odd, 1.0 - odd), 3)
    return {k: round(v, 5) if isinstance(v, float) else v for k, v in modes.items()}


def warm(repeats: int, gpu: bool, on_part=lambda results: None, shards: int | None = None) -> dict:
    """Latency of a warm evaluator, call+exe and (on a GPU) with perf; ``on_part`` sees the results so
    far; ``shards``: the processes a submission is spread over (None: the evaluator's choice)."""
    from harness.api import Evaluator
    results = {}
    for name, perf in (("call_exe", False), ("with_perf", True)):
        if perf and not gpu:
            results[name] = {"skipped": "no GPU"}
            continue
        started = time.monotonic()
        with Evaluator(perf=perf, shards=shards) as ev:
            opened = time.monotonic() - started
            t = time.monotonic()
            ev.submit(TASK, RELU).result()  # the first job warms the reference cache and compile caches
            first = time.monotonic() - t
            _progress(f"warm {name}: opened in {opened:.2f} s, first job {first:.2f} s")
            latencies, verdicts, timings, starts, processes = [], [], [], [], []
            for i in range(repeats):
                t = time.monotonic()
                record = ev.submit(TASK, RELU).result()
                latencies.append(time.monotonic() - t)
                verdicts.append(record["verdict"])
                # the worker's life (start to its end) and the rest of the latency: the evaluator's own part
                timings.append({**(record["info"].get("timing") or {}), "worker_life_s": record["seconds"],
                                "outside_worker_s": latencies[-1] - record["seconds"]})
                starts.append(record["info"].get("worker_start"))
                processes.append(record["info"].get("processes"))
                _progress(f"warm {name}: {i + 1}/{repeats} {latencies[-1]:.2f} s {verdicts[-1]}")
        # the median of each part of a job (worker stages, perf phases): where one submission's time goes
        parts = {key: round(statistics.median(t.get(key, 0.0) for t in timings), 3)
                 for key in sorted({key for t in timings for key in t})}
        results[name] = {"open_s": round(opened, 2), "first_s": round(first, 2), **_percentiles(latencies),
                         "verdicts": sorted(set(verdicts)), "median_parts_s": parts,
                         "worker_starts": dict(Counter(str(s) for s in starts)),  # spare: prewarmed by the fork server
                         "processes": dict(Counter(str(p) for p in processes))}  # a submission's worker processes
        on_part(results)
    return results


def _progress(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def serve(repeats: int, clients: int, gpu: bool) -> dict:
    from harness.api import Evaluator
    from harness.serve import EvaluationServer, shutdown
    evaluator = Evaluator(perf=gpu, max_pending=4 * clients)
    server = EvaluationServer(("127.0.0.1", 0), evaluator, max_timeout=300)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    body = json.dumps({"task_id": TASK, "code": RELU}).encode()
    latencies: list[float] = []
    failures: list[str] = []
    lock = threading.Lock()

    def client() -> None:
        for _ in range(repeats):
            t = time.monotonic()
            request = urllib.request.Request(server.url + "/evaluate", data=body,
                                             headers={"Content-Type": "application/json"})
            try:
                with urllib.request.urlopen(request, timeout=900) as answer:
                    verdict = json.loads(answer.read())["verdict"]
                    ok = verdict == "ok"
            except (urllib.error.URLError, OSError, ValueError) as exc:
                ok, verdict = False, f"{type(exc).__name__}: {exc}"
            with lock:
                latencies.append(time.monotonic() - t)
                if not ok:
                    failures.append(str(verdict)[:200])
                _progress(f"serve: {len(latencies)} answered, last {latencies[-1]:.2f} s {verdict if ok else 'FAILED'}")

    started = time.monotonic()
    threads = [threading.Thread(target=client) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.monotonic() - started
    shutdown(server)
    return {"clients": clients, "requests": len(latencies), "wall_s": round(wall, 1),
            "requests_per_s": round(len(latencies) / wall, 2), **_percentiles(latencies),
            "failed": len(failures), "failures": sorted(set(failures))[:5]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", help="the folder for the runs and throughput.json (not with --against-golden)")
    parser.add_argument("--parts", default="call_exe,with_perf,warm,serve")
    parser.add_argument("--suite-timeout", type=float, default=540.0,
                        help="seconds a suite run may take; a longer one is stopped and reported as cut")
    parser.add_argument("--resume", action="store_true",
                        help="continue the suite runs whose journals are under --out (cut by an earlier call)")
    parser.add_argument("--against-golden", metavar="JOURNAL", default=None,
                        help="only compare a finished run's journal with the golden results committed now")
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--warm-shards", type=int, default=None,
                        help="worker processes per submission in the warm part (default: the evaluator's choice)")
    parser.add_argument("--stack-dump-s", type=float, default=None,
                        help="print every thread's stack after this many seconds (where a run that hangs waits)")
    args = parser.parse_args(argv)
    if args.against_golden:
        from harness.perf.golden import GoldenResults
        jobs = [json.loads(line) for line in Path(args.against_golden).read_text().splitlines() if line.strip()]
        jobs = [j for j in jobs if j.get("kind") != "header"]
        print(json.dumps(against_golden(jobs, GoldenResults.find(ROOT / "golden_results" / "h200")), indent=2))
        return 0
    if not args.out:
        parser.error("--out is required (only --against-golden goes without it)")
    if args.stack_dump_s:
        faulthandler.dump_traceback_later(args.stack_dump_s, repeat=True)
    import torch
    gpu = torch.cuda.is_available()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    report: dict = {"gpu": torch.cuda.get_device_name(0) if gpu else None, "date": time.strftime("%Y-%m-%dT%H:%M:%S")}
    parts = args.parts.replace("suite", "call_exe,with_perf").split(",")
    for name in SUITES:
        if name in parts:
            report.setdefault("suite", {})[name] = suite(name, out, gpu, args.suite_timeout, args.resume)
            (out / "throughput.json").write_text(json.dumps(report, indent=2))  # kept if a later part is cut
    if "warm" in parts:
        def keep(results: dict) -> None:  # written as each mode ends, so a cut run keeps what it measured
            report["warm"] = results
            (out / "throughput.json").write_text(json.dumps(report, indent=2))
        report["warm"] = warm(args.repeats, gpu, keep, shards=args.warm_shards)
        keep(report["warm"])
    if "serve" in parts:
        report["serve"] = serve(max(1, args.repeats // 4), args.clients, gpu)
    (out / "throughput.json").write_text(json.dumps(report, indent=2))
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
