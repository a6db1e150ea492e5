"""Run reports: ``metrics.json`` (one record per job) and ``summary.json`` (aggregates).

Rates are over jobs (samples); ``call_rate``/``exe_rate`` keep upstream's names. Invalid inputs
(unroutable or unparsable lines) count as failed jobs and are also counted under ``invalid``.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any, Iterable

from harness import __version__
from harness.config import INTERPRETER
from harness.files import write_json_atomic
from harness.perf.metrics import run_metrics
from harness.report.quality import run_quality
from harness.verdicts import JobResult

INVALID_CATEGORY = "(invalid)"


def _rates(results: list[JobResult]) -> dict[str, Any]:
    n = len(results)
    calls = sum(r.call.ok for r in results)
    exes = sum(r.correct for r in results)
    verdicts: dict[str, int] = defaultdict(int)
    for r in results:
        verdicts[r.verdict] += 1
    return {"jobs": n, "call_pass": calls, "exe_pass": exes,
            "call_rate": round(calls / n, 4) if n else 0.0, "exe_rate": round(exes / n, 4) if n else 0.0,
            "verdicts": dict(sorted(verdicts.items()))}


def _perf(results: list[JobResult]) -> dict[str, Any]:
    return run_metrics([(r.perf.ok, r.perf_metrics) for r in results])


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
        "golden": header.get("golden"),
        "roofline": header.get("roofline"),
        "sandbox": sorted({str(r.info.get("sandbox")) for r in results if r.info.get("sandbox")}),
        "containment": sorted({str(r.info.get("containment")) for r in results if r.info.get("containment")}),
        "time_breakdown_s": time_breakdown(results),
        "versions": header.get("versions", {}),
        "started": header.get("started"),
        "wall_s": header.get("wall_s"),
        "per_category": {c: {**_rates(rs), **_perf(rs), **_quality(rs)} for c, rs in sorted(by_category.items())},
    }
    return summary


def write_reports(out_dir: Path, results: list[JobResult], header: dict[str, Any]) -> dict[str, Any]:
    """Write metrics.json and summary.json into ``out_dir``; return the summary."""
    ordered = sorted(results, key=lambda r: (r.task_id or "~", r.sample_id, r.source))
    write_json_atomic(out_dir / "metrics.json", [r.to_json() for r in ordered])
    summary = summarize(ordered, header)
    write_json_atomic(out_dir / "summary.json", summary)
    return summary
