"""What a report shows, computed from finished runs (``metrics.json`` and ``summary.json`` of an
``eval`` output directory): per-category and per-task rows, the fast_p curve, the roofline points,
and the transitions of each task between two runs. Pure data; ``html.py`` and ``plots.py`` draw it.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.perf.metrics import geomean

# Two runs' speedups of a task differ beyond noise when they moved by more than this share, or by
# twice the larger relative spread (IQR / median) of the task's timed cases in either run.
NOISE_FLOOR = 0.02
FAST_P = tuple(round(0.1 * i, 1) for i in range(0, 41))  # speedup thresholds of the fast_p curve


@dataclass
class Run:
    """One finished ``eval`` run."""

    path: Path
    summary: dict[str, Any]
    jobs: list[dict[str, Any]] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.path.name or str(self.path)


class NotARun(ValueError):
    """The folder holds no finished run."""


def load_run(path: str | Path) -> Run:
    """The run in ``path`` (an ``eval --out`` folder), or :class:`NotARun` saying what is missing."""
    path = Path(path)
    missing = [f for f in ("metrics.json", "summary.json") if not (path / f).is_file()]
    if missing:
        raise NotARun(f"{path} holds no finished run ({' and '.join(missing)} missing): point at the --out "
                      "folder of a `kernelbenchx eval` that has ended")
    try:
        return Run(path, json.loads((path / "summary.json").read_text()), json.loads((path / "metrics.json").read_text()))
    except ValueError as exc:
        raise NotARun(f"{path}: unreadable results ({exc})") from exc


def _perf(job: dict) -> dict:
    return job.get("perf_metrics") or {}


def job_key(job: dict) -> str:
    return f"{job.get('task_id') or job.get('key')}#{job.get('sample_id', 0)}"


def first_failure(job: dict) -> str:
    """The first failing case and why, or the failing stage's message."""
    case = next((c for c in job.get("cases") or [] if c.get("status") != "ok"), None)
    if case:
        return f"{case['label']} ({case['tier']}): {case['status']} - {case.get('reason', '')}"[:400]
    for stage in ("call", "exe", "perf"):
        s = job.get(stage) or {}
        if s.get("status") not in (None, "ok", "skipped"):
            return f"{stage}: {s['status']} - {s.get('detail', '')}"[:400]
    return ""


def case_counts(job: dict) -> tuple[int, int]:
    """(cases passed, cases run) over every tier; an integrity failure earns nothing (as in summary.json)."""
    if "integrity" in ((job.get("call") or {}).get("status"), (job.get("exe") or {}).get("status")):
        return 0, sum((job.get("cases_total") or {}).values())
    return sum((job.get("cases_passed") or {}).values()), sum((job.get("cases_total") or {}).values())


def _case_fraction(job: dict) -> float:
    passed, total = case_counts(job)
    return passed / total if total else 0.0


def _share(jobs: list[dict], key: str) -> float | None:
    return round(sum(bool(j.get(key)) for j in jobs) / len(jobs), 4) if jobs else None


def _geomean_of(jobs: list[dict], key: str) -> float | None:
    value = geomean(_perf(j).get(key) for j in jobs)
    return None if value is None else round(value, 4)


def category_rows(run: Run) -> list[dict[str, Any]]:
    """Per category (and ``all``): jobs, rates and perf geomeans."""
    by_cat: dict[str, list[dict]] = {}
    for job in run.jobs:
        by_cat.setdefault(job.get("category") or "(invalid)", []).append(job)
    rows = []
    for category, jobs in sorted(by_cat.items()) + [("all", run.jobs)]:
        rows.append({"category": category, "jobs": len(jobs), "call_rate": _share(jobs, "call_ok"),
                     "exe_rate": _share(jobs, "exe_ok"), "exe_core_rate": _share(jobs, "exe_core_ok"),
                     "case_pass_rate": round(sum(map(_case_fraction, jobs)) / len(jobs), 4) if jobs else None,
                     "perf_rate": _share(jobs, "perf_ok"),
                     "speedup_vs_eager": _geomean_of(jobs, "speedup_vs_eager"),
                     "speedup_vs_compile": _geomean_of(jobs, "speedup_vs_compile"),
                     "roofline_pct": _geomean_of(jobs, "roofline_pct")})
    return rows


def task_rows(run: Run) -> list[dict[str, Any]]:
    """Per job: its verdict, first failure, and perf figures."""
    rows = []
    for job in sorted(run.jobs, key=job_key):
        p = _perf(job)
        rows.append({"job": job_key(job), "task_id": job.get("task_id") or "(invalid)",
                     "category": job.get("category") or "(invalid)", "verdict": job.get("verdict"),
                     "exe_core": bool(job.get("exe_core_ok")),
                     "cases": "{}/{}".format(*case_counts(job)),
                     "speedup_vs_eager": p.get("speedup_vs_eager"), "speedup_vs_compile": p.get("speedup_vs_compile"),
                     "roofline_pct": p.get("roofline_pct"), "failure": first_failure(job) if job.get("verdict") != "ok" else ""})
    return rows


def fast_p_curve(run: Run) -> list[tuple[float, float]]:
    """(p, share of all jobs that are correct and more than p times faster than eager)."""
    n = len(run.jobs) or 1
    speedups = [_perf(j).get("speedup_vs_eager") for j in run.jobs if j.get("exe_ok")]
    speedups = [s for s in speedups if s]
    return [(p, round(sum(s > p for s in speedups) / n, 4)) for p in FAST_P]


def roofline_points(run: Run) -> list[dict[str, Any]]:
    """Every timed case: arithmetic intensity (FLOP/byte) and achieved FLOP/s and bytes/s."""
    points = []
    for job in run.jobs:
        for case in _perf(job).get("cases", []):
            ms, flops, nbytes = case.get("runtime_ms"), case.get("flops") or 0.0, case.get("bytes") or 0.0
            if ms and nbytes:
                points.append({"task_id": job.get("task_id"), "intensity": flops / nbytes,
                               "flops_per_s": flops / (ms * 1e-3), "bytes_per_s": nbytes / (ms * 1e-3)})
    return points


def _spread(job: dict) -> float:
    spreads = [c["candidate"]["iqr_ms"] / c["candidate"]["median_ms"] for c in _perf(job).get("cases", [])
               if (c.get("candidate") or {}).get("median_ms")]
    return max(spreads, default=0.0)


def transitions(before: Run, after: Run) -> list[dict[str, Any]]:
    """Per job in both runs: ``fixed`` (now correct), ``broken`` (no longer correct), ``faster`` /
    ``slower`` (speedup vs eager moved beyond the noise bound), ``same``, ``still failing``; and jobs
    only in one run (``new``, ``gone``)."""
    a = {job_key(j): j for j in before.jobs}
    b = {job_key(j): j for j in after.jobs}
    rows = []
    for key in sorted(set(a) | set(b)):
        x, y = a.get(key), b.get(key)
        row = {"job": key, "before": (x or {}).get("verdict"), "after": (y or {}).get("verdict"),
               "speedup_before": _perf(x or {}).get("speedup_vs_eager"), "speedup_after": _perf(y or {}).get("speedup_vs_eager")}
        if x is None or y is None:
            row["change"] = "new" if x is None else "gone"
        elif bool(x.get("exe_ok")) != bool(y.get("exe_ok")):
            row["change"] = "fixed" if y.get("exe_ok") else "broken"
        elif not y.get("exe_ok"):
            row["change"] = "still failing"
        else:
            s0, s1 = row["speedup_before"], row["speedup_after"]
            bound = max(NOISE_FLOOR, 2 * max(_spread(x), _spread(y)))
            moved = (s1 / s0 - 1) if (s0 and s1) else 0.0
            row["noise_bound"] = round(bound, 4)
            row["change"] = "faster" if moved > bound else "slower" if moved < -bound else "same"
        rows.append(row)
    return rows


def overview(run: Run) -> dict[str, Any]:
    """The headline figures of a run, from its summary."""
    keys = ("jobs", "mode", "seed", "call_rate", "exe_rate", "exe_core_rate", "case_pass_rate", "perf", "perf_rate",
            "geomean_speedup_vs_eager", "geomean_speedup_vs_compile", "geomean_roofline_pct",
            "fast_1", "fast_1.5", "fast_2", "wall_s")
    out = {k: run.summary.get(k) for k in keys}
    versions = run.summary.get("versions") or {}
    out["versions"] = ", ".join(f"{k} {v}" for k, v in versions.items()) or "versions not recorded"
    return out


def fmt(value: Any, spec: str = ".3g") -> str:
    """A table cell: numbers formatted, None as '-'."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:{spec}}"
    return str(value)
