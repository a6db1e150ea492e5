"""Reports: ``metrics.json`` (one record per job), ``summary.json`` (aggregates), a terminal table.

Rates are over jobs (samples); ``call_rate``/``exe_rate`` keep upstream's names. Invalid inputs
(unroutable or unparsable lines) count as failed jobs and are also counted under ``invalid``.
"""

from __future__ import annotations

import json
import os
from collections import defaultdict
from pathlib import Path
from typing import Any, Iterable

from harness.perf_metrics import FAST_P, run_metrics
from harness.quality import run_quality
from harness.verdicts import JobResult

INVALID_CATEGORY = "(invalid)"


def write_json_atomic(path: Path, data: Any) -> None:
    """Write JSON to a temp file and rename it over ``path`` (readers never see half a file)."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=False) + "\n", encoding="utf-8")
    os.replace(tmp, path)


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
        "seed": header.get("seed"),
        "mode": header.get("mode"),
        "verdict_note": ("call/exe verdicts from Triton's CPU interpreter" if header.get("mode") == "interpreter"
                         else "call/exe verdicts from native GPU runs"),
        "perf": header.get("perf") or ("skipped (no GPU)" if header.get("mode") == "interpreter" else "not run"),
        **_perf(results),
        **_quality(results),
        "compile_baseline": header.get("compile_baseline", False),
        "golden": header.get("golden"),
        "roofline": header.get("roofline"),
        "sandbox": sorted({str(r.info.get("sandbox")) for r in results if r.info.get("sandbox")}),
        "versions": header.get("versions", {}),
        "started": header.get("started"),
        "wall_s": header.get("wall_s"),
        "per_category": {c: {**_rates(rs), **_perf(rs), **_quality(rs)} for c, rs in sorted(by_category.items())},
    }
    return summary


def write(out_dir: Path, results: list[JobResult], header: dict[str, Any]) -> dict[str, Any]:
    """Write metrics.json and summary.json into ``out_dir``; return the summary."""
    ordered = sorted(results, key=lambda r: (r.task_id or "~", r.sample_id, r.source))
    write_json_atomic(out_dir / "metrics.json", [r.to_json() for r in ordered])
    summary = summarize(ordered, header)
    write_json_atomic(out_dir / "summary.json", summary)
    return summary


def format_table(summary: dict[str, Any], results: list[JobResult], max_failures: int = 25) -> str:
    """A short terminal report: per-category rates, then the first failures with their reasons."""
    timed = summary.get("perf_jobs", 0) > 0
    perf_head = f"{'timed':>7}{'speedup':>9}" + "".join(f"{'fast_' + format(p, 'g'):>9}" for p in FAST_P) if timed else ""

    def row(name: str, r: dict) -> str:
        line = f"{name:<16}{r['jobs']:>6}{r['call_rate']:>8.0%}{r['exe_rate']:>8.0%}"
        if timed:
            speedup = f"{r['geomean_speedup_vs_eager']:.2f}x" if r.get("geomean_speedup_vs_eager") else "-"
            line += f"{r['perf_jobs']:>7}{speedup:>9}" + "".join(f"{r['fast_' + format(p, 'g')]:>9.0%}" for p in FAST_P)
        return line
    lines = [f"{'category':<16}{'jobs':>6}{'call':>8}{'exe':>8}" + perf_head]
    for cat, r in summary["per_category"].items():
        lines.append(row(cat, r))
    lines.append(row("all", summary))
    lines.append(f"mode: {summary['mode']} ({summary['verdict_note']}); perf: {summary['perf']}; seed {summary['seed']}")
    if summary.get("quality_jobs"):
        lines.append(f"code quality (radon, {summary['quality_jobs']} job(s)): maintainability index "
                     f"{summary['mean_maintainability_index']:.1f} (mean), largest cyclomatic complexity "
                     f"{summary['mean_cyclomatic_max']:.1f} (mean), {summary['median_sloc']:g} lines of code (median)")
    failures = [r for r in results if r.verdict != "ok"]
    if failures:
        lines.append(f"\n{len(failures)} job(s) did not pass:")
        for r in failures[:max_failures]:
            stage = r.call if not r.call.ok else r.exe if not r.exe.ok else r.perf
            first = (stage.detail.strip().splitlines() or [""])[-1 if stage.status == "error" else 0]
            lines.append(f"  {r.task_id or r.source} #{r.sample_id}: {r.verdict}: {first[:160]}")
        if len(failures) > max_failures:
            lines.append(f"  ... and {len(failures) - max_failures} more (see metrics.json)")
    return "\n".join(lines)
