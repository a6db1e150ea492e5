"""Per-category speed of the bundled reference solutions, from committed golden results: geometric
mean of each task's speedup of the reference Triton solution over eager PyTorch and over
torch.compile (each task's own geomean over its perf cases first, so a task with more cases weighs
no more), and % of the roofline (the case's roofline time over the solution's, geomean per task,
median per category). Usage, from the repository root:

    python benchmarks/golden_table.py [golden_results/h200] > table.md
"""

from __future__ import annotations

import json
import statistics
import sys
from collections import defaultdict
from pathlib import Path

from harness.perf.metrics import geomean


def task_rows(root: Path) -> list[dict]:
    rows = []
    for path in sorted(root.glob("*/*.json")):
        data = json.loads(path.read_text())
        cases = [c for c in data.get("cases", []) if c.get("triton", 0) > 0]
        if not cases:
            continue
        rows.append({"task": data["task_id"],
                     "vs_eager": geomean(c["eager"] / c["triton"] for c in cases if c.get("eager")),
                     "vs_compile": geomean(c["compile"] / c["triton"] for c in cases if c.get("compile")),
                     "roofline_pct": geomean(100.0 * c["roofline_ms"] / c["triton"] for c in cases
                                             if c.get("roofline_ms"))})
    return rows


def _fmt(x: float | None, suffix: str) -> str:
    return "" if x is None else f"{x:.2f}{suffix}" if suffix == "x" else f"{x:.1f}{suffix}"


def table(rows: list[dict], measured_by: dict[str, str]) -> str:
    by_category: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        by_category[row["task"].split("/")[0]].append(row)
    lines = ["| category | tasks | geomean speedup vs eager | vs torch.compile | median % of roofline | faster than eager "
             "| faster than compile |", "|---|---|---|---|---|---|---|"]
    for name, group in sorted(by_category.items()) + [("all", rows)]:
        eager = [r["vs_eager"] for r in group if r["vs_eager"]]
        comp = [r["vs_compile"] for r in group if r["vs_compile"]]
        roof = [r["roofline_pct"] for r in group if r["roofline_pct"]]
        lines.append(f"| {name} | {len(group)} | {_fmt(geomean(eager), 'x')} | {_fmt(geomean(comp), 'x')} | "
                     f"{_fmt(statistics.median(roof) if roof else None, '%')} | {sum(e > 1 for e in eager)}/{len(eager)} | "
                     f"{sum(c > 1 for c in comp)}/{len(comp)} |")
    lines.append("")
    lines.append("Measured: " + "; ".join(f"{k}: {v}" for k, v in sorted(measured_by.items())))
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    root = Path(argv[0]) if argv else Path("golden_results/h200")
    rows = task_rows(root)
    dates = sorted({json.loads(p.read_text())["measured"]["date"][:10] for p in root.glob("*/*.json")})
    pending = root / "pending.json"
    missing = len(json.loads(pending.read_text())["tasks"]) if pending.exists() else 0
    print(f"Reference solutions in `{root}`: {len(rows)} tasks with golden results ({missing} pending).\n")
    print(table(rows, {"dates": ", ".join(dates)}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
