"""Run reports: ``metrics.json`` (one record per job) and ``summary.json`` (aggregates).

Rates are over jobs (samples); ``call_rate``/``exe_rate`` keep upstream's names. Invalid inputs
(unroutable or unparsable lines) count as failed jobs and are also counted under ``invalid``.
``exe_rate`` is strict (every case of every tier passes); ``exe_core_rate`` counts jobs whose core
cases pass (the number comparable with the published benchmark); ``case_pass_rate`` is the mean
share of a job's cases that pass (partial credit); ``failure_causes`` counts the jobs that are not
strictly correct by what failed first (see :func:`failure_cause`).
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path
from typing import Any, Iterable

from harness import __version__
from harness.config import INTERPRETER
from harness.files import write_json_atomic
from harness.perf.metrics import run_metrics
from harness.report.quality import run_quality
from harness.verdicts import ERROR, INTEGRITY, OK, WRONG, JobResult

INVALID_CATEGORY = "(invalid)"


def _rates(results: list[JobResult]) -> dict[str, Any]:
    n = len(results)
    calls = sum(r.call.ok for r in results)
    exes = sum(r.correct for r in results)
    cores = sum(r.correct_core for r in results)
    verdicts: dict[str, int] = defaultdict(int)
    causes: dict[str, int] = defaultdict(int)
    for r in results:
        verdicts[r.verdict] += 1
        if not r.correct:
            causes[failure_cause(r)] += 1
    rate = lambda k: round(k / n, 4) if n else 0.0  # noqa: E731
    return {"jobs": n, "call_pass": calls, "exe_pass": exes, "exe_core_pass": cores,
            "call_rate": rate(calls), "exe_rate": rate(exes), "exe_core_rate": rate(cores),
            "case_pass_rate": round(sum(r.case_pass_fraction for r in results) / n, 4) if n else 0.0,
            "verdicts": dict(sorted(verdicts.items())), "failure_causes": dict(sorted(causes.items()))}


def failure_cause(result: JobResult) -> str:
    """Why a job is not strictly correct, as one taxonomy key: ``integrity:<kind>`` (e.g.
    ``integrity:torch_fallback``, ``integrity:guard``), ``timeout``, ``crashed``, ``error``, or, for
    a case that raised or was wrong, the trait of its inputs that made it an edge case
    (``non_contiguous``, ``empty_or_0d``, ``nan_inf``, ``inplace_out``, ``negative_dim``, ...) or
    ``wrong_values`` / ``error`` on a core case; ``perf:<status>`` when only the perf sizes failed
    (``perf:integrity:<kind>`` for an integrity verdict there)."""
    stage = next((s for s in (result.call, result.exe) if not s.ok), None)
    if stage is None:
        if result.perf.status == INTEGRITY:  # perf:integrity:faster_than_roofline, ...
            return f"perf:integrity:{_integrity_kind(result.perf.detail)}"
        return f"perf:{result.perf.status}"
    if stage.status == INTEGRITY:
        return f"integrity:{_integrity_kind(stage.detail)}"
    first = next((c for c in result.cases if c["status"] != OK), None)
    if stage.status in (WRONG, ERROR) and first is not None:
        if first["status"] == INTEGRITY:
            return f"integrity:{_integrity_kind(first['reason'])}"
        if first["traits"]:
            return first["traits"][0]
        return "wrong_values" if first["status"] == WRONG else ERROR
    return stage.status


_DOTTED_NAME = re.compile(r"\b\w+(?:\.\w+)+")


def _integrity_kind(detail: str) -> str:
    # dotted names (an exception's qualified name, a module path: harness.sandbox.guard) are not kinds
    text = _DOTTED_NAME.sub("", detail.strip())
    for kind in ("torch_fallback", "no_triton_launch", "gpu_trace", "faster_than_roofline", "timed_faster_than_checked",
                 "monkeypatch", "guard", "protocol", "sandbox", "tampering"):
        if kind in text:
            return kind
    return "other"


def _perf(results: list[JobResult]) -> dict[str, Any]:
    """Perf aggregates: ``fast_p`` and friends over strictly correct jobs, ``fast_p_core`` over
    core-correct ones (perf is timed for every job whose core cases pass)."""
    strict = run_metrics([(r.perf.ok and r.correct, r.perf_metrics) for r in results])
    core = run_metrics([(r.perf.ok and r.correct_core, r.perf_metrics) for r in results])
    return {**strict, **{f"{k}_core": v for k, v in core.items() if k.startswith("fast_")}}


def _quality(results: list[JobResult]) -> dict[str, Any]:
    return run_quality([r.quality for r in results])


def time_breakdown(results: Iterable[JobResult]) -> dict[str, float]:
    """Seconds per part of a job (reference, worker stages as the parent saw them, judging, perf),
    summed over the jobs: where a run's wall time goes (jobs run in parallel, so the sum exceeds it)."""
    totals: dict[str, float] = defaultdict(float)
    for r in results:
        for key, seconds in (r.info.get("timing") or {}).items():
            totals[key] += seconds
    return {key: round(value, 3) for key, value in sorted(totals.items())}


def triton_compile_totals(results: Iterable[JobResult]) -> dict[str, float]:
    """Triton's compiles during call and exe (``info.triton_compile``, native runs), summed over
    the jobs: seconds (a part of ``call_s`` and ``exe_s``), compiles, and the jobs that reported."""
    seconds, compiles, jobs = 0.0, 0, 0
    for r in results:
        data = r.info.get("triton_compile")
        if isinstance(data, dict):
            seconds += float(data.get("seconds") or 0.0)
            compiles += int(data.get("compiles") or 0)
            jobs += 1
    return {"seconds": round(seconds, 3), "compiles": compiles, "jobs": jobs}


def summarize(results: Iterable[JobResult], header: dict[str, Any]) -> dict[str, Any]:
    """Aggregate call/exe rates overall, per category, and per task."""
    results = list(results)
    by_category: dict[str, list[JobResult]] = defaultdict(list)
    by_task: dict[str, list[JobResult]] = defaultdict(list)
    for r in results:
        by_category[r.category or INVALID_CATEGORY].append(r)
        if r.task_id:
            by_task[r.task_id].append(r)
    summary = {
        **_rates(results),
        "tasks": len(by_task),
        "tasks_exe_pass": sum(any(r.correct for r in rs) for rs in by_task.values()),
        "invalid": len(by_category.get(INVALID_CATEGORY, [])),
        "kernelbenchx_version": __version__,
        "seed": header.get("seed"),
        "mode": header.get("mode"),
        "verdict_note": ("call/exe verdicts from Triton's CPU interpreter" if header.get("mode") == INTERPRETER
                         else "call/exe verdicts from native GPU runs"),
        "perf": header.get("perf") or ("skipped (no GPU)" if header.get("mode") == INTERPRETER else "not run"),
        **_perf(results),
        **_quality(results),
        "compile_baseline": header.get("compile_baseline", False),
        "fail_fast": header.get("fail_fast", False),
        "golden": header.get("golden"),
        "roofline": header.get("roofline"),
        "sandbox": sorted({str(r.info.get("sandbox")) for r in results if r.info.get("sandbox")}),
        "containment": sorted({str(r.info.get("containment")) for r in results if r.info.get("containment")}),
        "time_breakdown_s": time_breakdown(results),
        "triton_compile": triton_compile_totals(results),
        "versions": header.get("versions", {}),
        "started": header.get("started"),
        "wall_s": header.get("wall_s"),
        "workers": header.get("workers"),  # concurrent worker slots (local) or actors (ray)
        "per_category": {c: {**_rates(rs), **_perf(rs), **_quality(rs)} for c, rs in sorted(by_category.items())},
    }
    # a journal not all written; job folders not removed; steps after jobs' results that failed
    for key in ("journal_error", "left_behind", "teardown_errors"):
        if header.get(key):
            summary[key] = header[key]
    return summary


def write_reports(out_dir: Path, results: list[JobResult], header: dict[str, Any]) -> dict[str, Any]:
    """Write metrics.json and summary.json into ``out_dir``; return the summary."""
    ordered = sorted(results, key=lambda r: (r.task_id or "~", r.sample_id, r.source))
    write_json_atomic(out_dir / "metrics.json", [r.to_json() for r in ordered])
    summary = summarize(ordered, header)
    write_json_atomic(out_dir / "summary.json", summary)
    return summary
