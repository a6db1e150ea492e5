"""How far the timed median of each perf case falls below (or above) the GPU time its own traced check
call kept the GPU busy (``timed_over_check_busy`` in metrics.json, GPU runs only), over the jobs of
one or more runs: the spread over honest solutions decides where a verdict's threshold can sit
(README, "Not defended": timed repetitions are not watched). Usage, from the repository root:

    python benchmarks/check_busy_table.py RUN_DIR/journal.jsonl [...] [--below 0.8]

Prints the distribution (min, 1st and 5th percentile, median) and every case under ``--below``.
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path


def ratios(journals: list[Path]) -> list[tuple[str, str, float, float, float]]:
    """``(task, case, ratio, timed ms, check busy ms)`` of every perf case that has the ratio."""
    rows = []
    for journal in journals:
        for line in journal.read_text().splitlines():
            record = json.loads(line)
            for case in (record.get("perf_metrics") or {}).get("cases", []):
                ratio = case.get("timed_over_check_busy")
                if ratio is not None:
                    rows.append((record["task_id"], case["label"], ratio, case["runtime_ms"], case["check_gpu_busy_ms"]))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("journals", nargs="+", type=Path)
    parser.add_argument("--below", type=float, default=0.8, help="list the cases under this ratio")
    args = parser.parse_args()
    rows = ratios(args.journals)
    if not rows:
        raise SystemExit("no case with timed_over_check_busy (a GPU run of this harness version is needed)")
    values = sorted(r[2] for r in rows)
    pick = lambda q: values[min(len(values) - 1, int(q * len(values)))]  # noqa: E731
    print(f"{len(values)} cases: min {values[0]:.3f}, p1 {pick(0.01):.3f}, p5 {pick(0.05):.3f}, "
          f"median {statistics.median(values):.3f}, max {values[-1]:.3f}")
    for task, label, ratio, timed, busy in sorted(rows, key=lambda r: r[2]):
        if ratio < args.below:
            print(f"  {ratio:.3f}  {task} {label}: timed {timed} ms, check call busy {busy} ms")


if __name__ == "__main__":
    main()
