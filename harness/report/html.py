"""The self-contained HTML report of one or more runs: no network needed to view it (styles, the
table sorter and the SVG figures are inline). Text from submissions (error messages) is escaped."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import jinja2

from harness.report import plots
from harness.report.markdown import markdown_report
from harness.report.runs import NOISE_FLOOR, Run, category_rows, fmt, overview, task_rows, transitions

_TEMPLATE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>KernelBench-X report: {{ runs[0].name }}</title>
<style>
body { font: 14px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 1200px; padding: 0 1em; color: #222 }
table { border-collapse: collapse; margin: .5em 0 1.5em; font-size: 13px }
th, td { border: 1px solid #ccc; padding: 3px 7px; text-align: left; vertical-align: top }
th { background: #f2f2f2; cursor: pointer; user-select: none }
td.num { text-align: right; font-variant-numeric: tabular-nums }
tr.bad td { background: #fff4f4 } tr.good td { background: #f4fff4 }
.fail { font-family: monospace; font-size: 12px; white-space: pre-wrap; max-width: 520px }
figure { display: inline-block; margin: 0 1em 1em 0 } .note { color: #666 }
</style></head><body>
<h1>KernelBench-X report</h1>
<p>{% for run in runs %}<b>{{ run.name }}</b> ({{ run.path }}){% if not loop.last %}, {% endif %}{% endfor %}</p>

<h2>Overview</h2>
<table><tr><th>figure</th>{% for run in runs %}<th>{{ run.name }}</th>{% endfor %}</tr>
{% for key in overview_keys %}<tr><td>{{ key }}</td>{% for o in overviews %}<td class="num">{{ fmt(o[key]) }}</td>{% endfor %}</tr>
{% endfor %}</table>
<p class="note">{% for run, o in zip(runs, overviews) %}{{ run.name }}: {{ o.versions }}<br>{% endfor %}</p>

<h2>Figures</h2>
{% if figures %}{% for title, svg in figures %}<figure>{{ svg | safe }}<figcaption>{{ title }}</figcaption></figure>{% endfor %}
{% else %}<p class="note">{{ figures_note }}</p>{% endif %}

{% for run, rows in zip(runs, categories) %}
<h2>Per category: {{ run.name }}</h2>
<table class="sortable"><tr>{% for c in category_cols %}<th>{{ c }}</th>{% endfor %}</tr>
{% for r in rows %}<tr>{% for c in category_cols %}<td class="{{ 'num' if c != 'category' else '' }}">{{ fmt(r[c]) }}</td>{% endfor %}</tr>
{% endfor %}</table>
{% endfor %}

{% for cmp in comparisons %}
<h2>{{ cmp.before }} → {{ cmp.after }}</h2>
<p>{% for change, n in cmp.counts %}{{ change }}: {{ n }}{% if not loop.last %} · {% endif %}{% endfor %}
<span class="note">(faster/slower: speedup vs eager moved beyond max({{ noise_floor }}, twice the larger relative IQR of the job's timed cases))</span></p>
<table class="sortable"><tr><th>job</th><th>change</th><th>before</th><th>after</th><th>speedup before</th><th>speedup after</th></tr>
{% for r in cmp.rows %}<tr class="{{ 'bad' if r.change in ('broken', 'slower') else 'good' if r.change in ('fixed', 'faster') else '' }}">
<td>{{ r.job }}</td><td>{{ r.change }}</td><td>{{ fmt(r.before) }}</td><td>{{ fmt(r.after) }}</td>
<td class="num">{{ fmt(r.speedup_before) }}</td><td class="num">{{ fmt(r.speedup_after) }}</td></tr>
{% endfor %}</table>
{% endfor %}

<h2>Per task: {{ runs[0].name }}</h2>
<table class="sortable"><tr>{% for c in task_cols %}<th>{{ c }}</th>{% endfor %}</tr>
{% for r in tasks %}<tr id="{{ r.job }}" class="{{ '' if r.verdict == 'ok' else 'bad' }}">
<td>{{ r.job }}</td><td>{{ r.category }}</td><td>{{ r.verdict }}</td><td>{{ fmt(r.exe_core) }}</td><td class="num">{{ r.cases }}</td>
<td class="num">{{ fmt(r.speedup_vs_eager) }}</td><td class="num">{{ fmt(r.speedup_vs_compile) }}</td>
<td class="num">{{ fmt(r.roofline_pct) }}</td><td class="fail">{{ r.failure }}</td></tr>
{% endfor %}</table>
<script>
// Click a header to sort its table (numbers numerically, '-' last); click again to reverse.
document.querySelectorAll("table.sortable").forEach(function (table) {
  table.querySelectorAll("th").forEach(function (th, col) {
    th.addEventListener("click", function () {
      var rows = Array.from(table.rows).slice(1), asc = th.dataset.dir !== "asc";
      th.dataset.dir = asc ? "asc" : "desc";
      var key = function (row) { var t = row.cells[col].textContent.trim(), n = parseFloat(t);
        return t === "-" ? null : (isNaN(n) || !/^[-+0-9.]/.test(t) ? t : n); };
      rows.sort(function (a, b) { var x = key(a), y = key(b);
        if (x === null) return 1; if (y === null) return -1;
        var c = typeof x === typeof y ? (x < y ? -1 : x > y ? 1 : 0) : (typeof x === "number" ? -1 : 1);
        return asc ? c : -c; });
      rows.forEach(function (row) { table.tBodies[0].appendChild(row); });
    });
  });
});
</script>
</body></html>
"""

OVERVIEW_KEYS = ("jobs", "mode", "seed", "call_rate", "exe_rate", "exe_core_rate", "case_pass_rate", "perf",
                 "perf_rate", "geomean_speedup_vs_eager", "geomean_speedup_vs_compile", "geomean_roofline_pct",
                 "fast_1", "fast_1.5", "fast_2", "wall_s")
CATEGORY_COLS = ("category", "jobs", "call_rate", "exe_rate", "exe_core_rate", "case_pass_rate", "perf_rate",
                 "speedup_vs_eager", "speedup_vs_compile", "roofline_pct")
TASK_COLS = ("job", "category", "verdict", "exe_core", "cases", "speedup vs eager", "vs compile", "% roofline",
             "first failure")


def _figures(runs: list[Run]) -> list[tuple[str, str]]:
    drawn = [("fast_p: correct and more than p times faster than eager", plots.fast_p_plot(runs)),
             ("speedup vs eager PyTorch per job", plots.speedup_histogram(runs, "speedup_vs_eager")),
             ("speedup vs torch.compile per job", plots.speedup_histogram(runs, "speedup_vs_compile")),
             (f"roofline: {runs[0].name}", plots.roofline_scatter(runs[0], runs[0].summary.get("roofline"))),
             ("exe_rate per category", plots.category_bars(runs, "exe_rate")),
             ("not strictly correct, by what failed first", plots.failure_bars(runs))]
    return [(title, svg) for title, svg in drawn if svg]


def html_report(runs: list[Run]) -> str:
    """The HTML page for ``runs`` (the first is the one detailed per task; later ones are compared
    with it)."""
    comparisons = []
    for later in runs[1:]:
        rows = transitions(runs[0], later)
        comparisons.append({"before": runs[0].name, "after": later.name, "rows": rows,
                            "counts": sorted(Counter(r["change"] for r in rows).items())})
    figures = _figures(runs) if plots.available() else []
    env = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined)
    return env.from_string(_TEMPLATE).render(
        runs=runs, overviews=[overview(r) for r in runs], overview_keys=OVERVIEW_KEYS, fmt=fmt, zip=zip,
        figures=figures, figures_note=plots.MISSING if not plots.available() else "no timed jobs to draw",
        categories=[category_rows(r) for r in runs], category_cols=CATEGORY_COLS,
        comparisons=comparisons, noise_floor=NOISE_FLOOR, tasks=task_rows(runs[0]), task_cols=TASK_COLS)


def write_report(runs: list[Run], out: Path) -> list[Path]:
    """``report.html`` and ``report.md`` in ``out``; returns their paths."""
    out.mkdir(parents=True, exist_ok=True)
    html, md = out / "report.html", out / "report.md"
    html.write_text(html_report(runs), encoding="utf-8")
    md.write_text(markdown_report([r.path for r in runs]), encoding="utf-8")
    return [html, md]
