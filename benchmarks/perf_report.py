"""Markdown tables from one or two ``kernelbenchx eval`` runs with perf (``metrics.json``).

Usage: python benchmarks/perf_report.py RUN_DIR [SECOND_RUN_DIR]

Per task: geometric-mean speedup vs eager and vs torch.compile, % of the measured roofline; per
case: candidate ms, GB/s, TFLOP/s, % roofline, speedups. With two runs of the same suite, the
repeatability figure: the median over tasks of |speedup_2 / speedup_1 - 1|.
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path


def load(run: Path) -> dict[str, dict]:
    return {m["task_id"]: m for m in json.loads((run / "metrics.json").read_text()) if m.get("task_id")}


def fmt(x, spec: str = ".3g", suffix: str = "") -> str:
    return "-" if x is None else f"{x:{spec}}{suffix}"


def task_table(metrics: dict[str, dict]) -> list[str]:
    lines = ["| task | verdict | perf | speedup vs eager | vs compile | % roofline |", "|---|---|---|---|---|---|"]
    for task_id, m in sorted(metrics.items()):
        p = m.get("perf_metrics") or {}
        lines.append(f"| {task_id} | {m['verdict']} | {m['perf']['status']} | {fmt(p.get('speedup_vs_eager'), '.2f', 'x')} "
                     f"| {fmt(p.get('speedup_vs_compile'), '.2f', 'x')} | {fmt(p.get('roofline_pct'), '.1f', '%')} |")
    return lines


def case_table(metrics: dict[str, dict]) -> list[str]:
    lines = ["| task | case | ms (IQR) | eager ms | compile ms | GB/s | TFLOP/s | % roofline | vs eager | vs compile |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for task_id, m in sorted(metrics.items()):
        for c in (m.get("perf_metrics") or {}).get("cases", []):
            cand, eager, comp = c["candidate"], c.get("eager") or {}, c.get("compile") or {}
            lines.append(
                f"| {task_id} | {c['describe']} | {fmt(cand['median_ms'], '.4g')} ({fmt(cand['iqr_ms'], '.2g')}) "
                f"| {fmt(eager.get('median_ms'), '.4g')} | {fmt(comp.get('median_ms'), '.4g')} | {fmt(c.get('gbs'), '.0f')} "
                f"| {fmt(c.get('tflops'), '.3g')} | {fmt(c.get('roofline_pct'), '.1f')} "
                f"| {fmt(c.get('speedup_vs_eager'), '.2f', 'x')} | {fmt(c.get('speedup_vs_compile'), '.2f', 'x')} |")
    return lines


def repeatability(first: dict[str, dict], second: dict[str, dict]) -> tuple[float | None, list[str]]:
    diffs, lines = [], ["| task | speedup pass 1 | pass 2 | difference |", "|---|---|---|---|"]
    for task_id in sorted(set(first) & set(second)):
        a = (first[task_id].get("perf_metrics") or {}).get("speedup_vs_eager")
        b = (second[task_id].get("perf_metrics") or {}).get("speedup_vs_eager")
        if a and b:
            diffs.append(abs(b / a - 1))
            lines.append(f"| {task_id} | {a:.3f} | {b:.3f} | {100 * (b / a - 1):+.2f}% |")
    return (statistics.median(diffs) if diffs else None), lines


def main(argv: list[str]) -> int:
    runs = [Path(a) for a in argv]
    first = load(runs[0])
    summary = json.loads((runs[0] / "summary.json").read_text())
    keys = ("jobs", "exe_rate", "perf_rate", "geomean_speedup_vs_eager", "geomean_speedup_vs_compile",
            "geomean_roofline_pct", "fast_0", "fast_1", "fast_1.5", "fast_2", "slower_than_eager", "wall_s")
    print("## Summary (first run)\n")
    print("\n".join(f"- {k}: {summary.get(k)}" for k in keys))
    print("\n## Per task\n")
    print("\n".join(task_table(first)))
    print("\n## Per case\n")
    print("\n".join(case_table(first)))
    if len(runs) > 1:
        second = load(runs[1])
        figure, lines = repeatability(first, second)
        wall = json.loads((runs[1] / "summary.json").read_text()).get("wall_s")
        print(f"\n## Repeatability (second run, wall {wall} s)\n")
        print(f"median |speedup_2 / speedup_1 - 1| over {len(lines) - 2} tasks: "
              + ("-" if figure is None else f"{100 * figure:.2f}%") + "\n")
        print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
