"""The terminal report printed at the end of a run: per-category rates, then the first failures."""

from __future__ import annotations

import re
from typing import Any

from harness.perf.metrics import FAST_P
from harness.verdicts import ERROR, OK, JobResult


# control characters, and lone surrogates (no terminal or file encoding can write them)
# C0 and C1 controls, lone surrogates, and the bidirectional controls (U+202A-U+202E, U+2066-U+2069,
# the marks U+200E/U+200F/U+061C), which reorder what the terminal shows after them
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")


def terminal_safe(text: str) -> str:
    """``text`` with control characters (ANSI escapes, carriage returns, newlines, bidirectional
    overrides) shown as escapes, so text from a submission cannot rewrite, hide or reorder what the
    terminal shows."""
    return _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


def format_table(summary: dict[str, Any], results: list[JobResult], max_failures: int = 25) -> str:
    """A short terminal report: per-category rates, then the first failures with their reasons."""
    timed = summary.get("perf_jobs", 0) > 0
    perf_head = f"{'timed':>7}{'speedup':>9}" + "".join(f"{'fast_' + format(p, 'g'):>9}" for p in FAST_P) if timed else ""

    def row(name: str, r: dict) -> str:
        line = (f"{name:<16}{r['jobs']:>6}{r['call_rate']:>8.0%}{r['exe_rate']:>8.0%}"
                f"{r['exe_core_rate']:>10.0%}{r['case_pass_rate']:>8.0%}")
        if timed:
            speedup = f"{r['geomean_speedup_vs_eager']:.2f}x" if r.get("geomean_speedup_vs_eager") else "-"
            line += f"{r['perf_jobs']:>7}{speedup:>9}" + "".join(f"{r['fast_' + format(p, 'g')]:>9.0%}" for p in FAST_P)
        return line
    lines = [f"{'category':<16}{'jobs':>6}{'call':>8}{'exe':>8}{'exe_core':>10}{'cases':>8}" + perf_head]
    for cat, r in summary["per_category"].items():
        lines.append(row(cat, r))
    lines.append(row("all", summary))
    lines.append(f"mode: {summary['mode']} ({summary['verdict_note']}); perf: {summary['perf']}; seed {summary['seed']}")
    if summary.get("left_behind"):
        lines.append(f"warning: {len(summary['left_behind'])} job folder(s) could not be removed, e.g. "
                     f"{summary['left_behind'][0]}")
    if summary.get("journal_error"):
        lines.append(f"warning: the journal could not be written ({summary['journal_error']}): these results are "
                     "in metrics.json, and --resume would evaluate the jobs it missed again")
    if summary.get("failure_causes"):
        causes = ", ".join(f"{k} {v}" for k, v in sorted(summary["failure_causes"].items(), key=lambda kv: -kv[1]))
        lines.append(f"not strictly correct, by first failure: {causes}")
    if summary.get("quality_jobs"):
        lines.append(f"code quality (radon, {summary['quality_jobs']} job(s)): maintainability index "
                     f"{summary['mean_maintainability_index']:.1f} (mean), largest cyclomatic complexity "
                     f"{summary['mean_cyclomatic_max']:.1f} (mean), {summary['median_sloc']:g} lines of code (median)")
    failures = [r for r in results if r.verdict != OK]
    if failures:
        lines.append(f"\n{len(failures)} job(s) did not pass:")
        for r in failures[:max_failures]:
            stage = r.call if not r.call.ok else r.exe if not r.exe.ok else r.perf
            first = (stage.detail.strip().splitlines() or [""])[-1 if stage.status == ERROR else 0]
            lines.append(terminal_safe(f"  {r.task_id or r.source} #{r.sample_id}: {r.verdict}: {first[:160]}"))
        if len(failures) > max_failures:
            lines.append(f"  ... and {len(failures) - max_failures} more (see metrics.json)")
    return "\n".join(lines)
