"""The Markdown perf report of one or two ``kernelbenchx eval`` runs (their ``metrics.json``).

Per task: geometric-mean speedup vs eager and vs torch.compile, % of the measured roofline; per
case: candidate ms, GB/s, TFLOP/s, % roofline, speedups. With two runs of the same suite, the
repeatability figure: the median over tasks of |speedup_2 / speedup_1 - 1|.
"""

from __future__ import annotations

import json
import statistics
from collections import Counter
from pathlib import Path

from harness.report.runs import category_rows, fmt, load_run, transitions

SUMMARY_KEYS = ("jobs", "exe_rate", "perf_rate", "geomean_speedup_vs_eager", "geomean_speedup_vs_compile",
                "geomean_roofline_pct", "fast_0", "fast_1", "fast_1.5", "fast_2", "slower_than_eager", "wall_s")


def _load(run: Path) -> dict[str, dict]:
    """A run's records by job key (task, sample and code): several samples of a task each have a row."""
    return {m.get("key") or _label(m): m for m in json.loads((run / "metrics.json").read_text()) if m.get("task_id")}


def _label(m: dict) -> str:
    return f"{m['task_id']}#{m.get('sample_id', 0)}"


def _fmt(x, spec: str = ".3g", suffix: str = "") -> str:
    return "-" if x is None else f"{x:{spec}}{suffix}"


def task_table(metrics: dict[str, dict]) -> list[str]:
    lines = ["| task | verdict | perf | speedup vs eager | vs compile | % roofline |", "|---|---|---|---|---|---|"]
    for m in sorted(metrics.values(), key=_label):
        p = m.get("perf_metrics") or {}
        lines.append(f"| {_label(m)} | {m['verdict']} | {m['perf']['status']} | {_fmt(p.get('speedup_vs_eager'), '.2f', 'x')} "
                     f"| {_fmt(p.get('speedup_vs_compile'), '.2f', 'x')} | {_fmt(p.get('roofline_pct'), '.1f', '%')} |")
    return lines


def case_table(metrics: dict[str, dict]) -> list[str]:
    lines = ["| task | case | ms (IQR) | eager ms | compile ms | GB/s | TFLOP/s | % roofline | vs eager | vs compile |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for m in sorted(metrics.values(), key=_label):
        for c in (m.get("perf_metrics") or {}).get("cases", []):
            cand, eager, comp = c["candidate"], c.get("eager") or {}, c.get("compile") or {}
            lines.append(
                f"| {_label(m)} | {c['describe']} | {_fmt(cand['median_ms'], '.4g')} ({_fmt(cand['iqr_ms'], '.2g')}) "
                f"| {_fmt(eager.get('median_ms'), '.4g')} | {_fmt(comp.get('median_ms'), '.4g')} | {_fmt(c.get('gbs'), '.0f')} "
                f"| {_fmt(c.get('tflops'), '.3g')} | {_fmt(c.get('roofline_pct'), '.1f')} "
                f"| {_fmt(c.get('speedup_vs_eager'), '.2f', 'x')} | {_fmt(c.get('speedup_vs_compile'), '.2f', 'x')} |")
    return lines


def repeatability(first: dict[str, dict], second: dict[str, dict]) -> tuple[float | None, list[str]]:
    diffs, lines = [], ["| task | speedup pass 1 | pass 2 | difference |", "|---|---|---|---|"]
    for key in sorted(set(first) & set(second), key=lambda k: _label(first[k])):
        a = (first[key].get("perf_metrics") or {}).get("speedup_vs_eager")
        b = (second[key].get("perf_metrics") or {}).get("speedup_vs_eager")
        if a and b:
            diffs.append(abs(b / a - 1))
            lines.append(f"| {_label(first[key])} | {a:.3f} | {b:.3f} | {100 * (b / a - 1):+.2f}% |")
    return (statistics.median(diffs) if diffs else None), lines


def _category_table(paths: list[Path]) -> list[str]:
    cols = ("category", "jobs", "call_rate", "exe_rate", "exe_core_rate", "perf_rate", "speedup_vs_eager",
            "speedup_vs_compile", "roofline_pct")
    lines = []
    for path in paths:
        lines += [f"### {path.name}", "", "| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
        lines += ["| " + " | ".join(fmt(row[c]) for c in cols) + " |" for row in category_rows(load_run(path))] + [""]
    return lines


def _failure_table(paths: list[Path]) -> list[str]:
    summaries = [json.loads((p / "summary.json").read_text()).get("failure_causes", {}) for p in paths]
    causes = sorted({c for s in summaries for c in s})
    lines = ["| first failure | " + " | ".join(p.name for p in paths) + " |", "|---|" + "---|" * len(paths)]
    return lines + [f"| {c} | " + " | ".join(str(s.get(c, 0)) for s in summaries) + " |" for c in causes]


def _transition_table(before: Path, after: Path) -> list[str]:
    rows = transitions(load_run(before), load_run(after))
    counts = ", ".join(f"{change}: {n}" for change, n in sorted(Counter(r["change"] for r in rows).items()))
    lines = [f"## {before.name} -> {after.name}", "", counts, "", "| job | change | before | after | speedup before | after |",
             "|---|---|---|---|---|---|"]
    return lines + [f"| {r['job']} | {r['change']} | {fmt(r['before'])} | {fmt(r['after'])} | {fmt(r['speedup_before'])} "
                    f"| {fmt(r['speedup_after'])} |" for r in rows if r["change"] not in ("same", "still failing")] + [""]


def markdown_report(runs: list[Path]) -> str:
    """The report of ``runs[0]`` (summary, per category, failures, per task, per case); with more runs,
    their summaries side by side, what changed per job from the first to each, and, for a second run
    of the same suite, how far each task's speedup moved between the two."""
    first = _load(runs[0])
    summaries = [json.loads((r / "summary.json").read_text()) for r in runs]
    lines = ["## Summary", "", "| figure | " + " | ".join(r.name for r in runs) + " |", "|---|" + "---|" * len(runs)]
    lines += [f"| {k} | " + " | ".join(str(s.get(k)) for s in summaries) + " |" for k in SUMMARY_KEYS]
    lines += ["", "## Per category", ""] + _category_table(runs)
    lines += ["## Not strictly correct, by what failed first", ""] + _failure_table(runs) + [""]
    for later in runs[1:]:
        lines += _transition_table(runs[0], later)
    lines += ["", "## Per task", ""] + task_table(first)
    lines += ["", "## Per case", ""] + case_table(first)
    if len(runs) > 1:
        figure, table = repeatability(first, _load(runs[1]))
        wall = json.loads((runs[1] / "summary.json").read_text()).get("wall_s")
        lines += ["", f"## Repeatability (second run, wall {wall} s)", "",
                  f"median |speedup_2 / speedup_1 - 1| over {len(table) - 2} tasks: "
                  + ("-" if figure is None else f"{100 * figure:.2f}%"), ""] + table
    return "\n".join(lines) + "\n"
