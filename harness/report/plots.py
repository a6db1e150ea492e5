"""The report's figures as inline SVG (matplotlib, the ``report`` extra). Each function returns the
SVG text of one figure, or ``None`` when the run has nothing to draw; :func:`available` says
whether matplotlib is installed (without it the report has its tables and says why the plots are
missing)."""

from __future__ import annotations

import io
from typing import Any

from harness.report.runs import Run, category_rows, fast_p_curve, roofline_points

MISSING = "plots need matplotlib: pip install 'kernelbenchx[report]'"


def available() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def _figure(width: float = 6.0, height: float = 3.2):
    import matplotlib
    matplotlib.use("Agg")  # no display: render to a buffer
    import matplotlib.pyplot as plt
    return plt, plt.subplots(figsize=(width, height))


def _svg(plt, fig) -> str:
    buf = io.StringIO()
    fig.tight_layout()
    fig.savefig(buf, format="svg")
    plt.close(fig)
    text = buf.getvalue()
    return text[text.index("<svg"):]  # drop the XML prologue: the SVG is inlined in HTML


def speedup_histogram(runs: list[Run], side: str = "speedup_vs_eager") -> str | None:
    """Distribution of per-job speedups (log scale), one series per run."""
    series = [(run.name, [(j.get("perf_metrics") or {}).get(side) for j in run.jobs]) for run in runs]
    series = [(name, [v for v in values if v]) for name, values in series]
    if not any(values for _, values in series):
        return None
    plt, (fig, ax) = _figure()
    import numpy as np
    every = [v for _, values in series for v in values]
    bins = np.geomspace(min(every) / 1.05, max(every) * 1.05, 30)
    for name, values in series:
        ax.hist(values, bins=bins, alpha=0.6, label=name)
    ax.set_xscale("log")
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.set_xlabel(f"{side.replace('_', ' ')} (per job, geomean over its cases)")
    ax.set_ylabel("jobs")
    ax.legend()
    return _svg(plt, fig)


def roofline_scatter(run: Run, roofline: dict[str, Any] | None) -> str | None:
    """Achieved FLOP/s against arithmetic intensity per timed case, with the measured ceilings."""
    points = [p for p in roofline_points(run) if p["flops_per_s"] > 0]
    if not points:
        return None
    plt, (fig, ax) = _figure(6.0, 4.0)
    ax.scatter([p["intensity"] for p in points], [p["flops_per_s"] / 1e12 for p in points], s=10, alpha=0.7)
    if roofline:
        import numpy as np
        xs = np.geomspace(min(p["intensity"] for p in points) / 2, max(p["intensity"] for p in points) * 2, 100)
        from harness.perf.roofline import roofline_ms
        bandwidth = roofline["copy_bytes_per_s"]
        for dtype in sorted(roofline.get("matmul_flops_per_s", {})):
            # the compute ceiling the perf stage applies to this dtype (int8, float32: see roofline_ms)
            peak = 1e15 / (roofline_ms(1e15, 0.0, dtype, roofline) * 1e-3)
            ax.plot(xs, np.minimum(xs * bandwidth, peak) / 1e12, linewidth=0.8, label=f"{dtype} ceiling")
        ax.legend(fontsize="small")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("arithmetic intensity (FLOP / byte of the fused minimum traffic)")
    ax.set_ylabel("achieved TFLOP/s")
    return _svg(plt, fig)


def failure_bars(runs: list[Run]) -> str | None:
    """Jobs not strictly correct, by what failed first, one bar group per run."""
    causes = sorted({c for run in runs for c in run.summary.get("failure_causes", {})})
    if not causes:
        return None
    plt, (fig, ax) = _figure(6.0, 0.6 + 0.3 * len(causes) * len(runs))
    height = 0.8 / len(runs)
    for i, run in enumerate(runs):
        counts = [run.summary.get("failure_causes", {}).get(c, 0) for c in causes]
        ax.barh([k + i * height for k in range(len(causes))], counts, height=height, label=run.name)
    ax.set_yticks([k + height * (len(runs) - 1) / 2 for k in range(len(causes))], causes, fontsize="small")
    ax.invert_yaxis()
    ax.set_xlabel("jobs")
    ax.legend()
    return _svg(plt, fig)


def category_bars(runs: list[Run], key: str = "exe_rate") -> str | None:
    """A per-category rate, one bar group per run."""
    tables = [{r["category"]: r for r in category_rows(run)} for run in runs]
    categories = sorted({c for t in tables for c in t if c != "all"})
    if not categories:
        return None
    plt, (fig, ax) = _figure(max(6.0, 0.5 * len(categories) * len(runs)), 3.2)
    width = 0.8 / len(runs)
    for i, (run, table) in enumerate(zip(runs, tables)):
        ax.bar([k + i * width for k in range(len(categories))],
               [(table.get(c) or {}).get(key) or 0 for c in categories], width=width, label=run.name)
    ax.set_xticks([k + width * (len(runs) - 1) / 2 for k in range(len(categories))], categories,
                  rotation=45, ha="right", fontsize="small")
    ax.set_ylabel(key.replace("_", " "))
    ax.set_ylim(0, 1.05)
    ax.legend()
    return _svg(plt, fig)


def fast_p_plot(runs: list[Run]) -> str | None:
    """fast_p: the share of jobs correct and more than p times faster than eager, against p."""
    if not any((j.get("perf_metrics") or {}).get("speedup_vs_eager") for run in runs for j in run.jobs):
        return None
    plt, (fig, ax) = _figure()
    for run in runs:
        curve = fast_p_curve(run)
        ax.step([p for p, _ in curve], [share for _, share in curve], where="post", label=run.name)
    ax.set_xlabel("p (speedup over eager PyTorch)")
    ax.set_ylabel("fast_p")
    ax.set_ylim(0, 1.05)
    ax.legend()
    return _svg(plt, fig)
