"""Golden results from the journal of a `kernelbenchx golden` run that did not finish (a time limit
on the GPU machine): every job the journal holds with its perf stage passed is written, exactly as
the run would have written it at the end, with the run's own roofline and versions. Usage:

    python benchmarks/golden_from_journal.py JOURNAL.jsonl --driver 580.159.04 --clocks-before '345 MHz, ...'
        [--golden-out DIR] [--tasks CATEGORY/ ...] [--note TEXT]

The tasks not measured are printed; the journal's date and versions become the run's provenance.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from types import SimpleNamespace

from harness.perf import golden


def _result(row: dict) -> SimpleNamespace:
    perf = row["perf"]
    return SimpleNamespace(task_id=row["task_id"], verdict=row["verdict"], perf_metrics=row.get("perf_metrics") or {},
                           perf=SimpleNamespace(ok=perf["status"] == "ok", status=perf["status"], detail=perf["detail"]))


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("journal", type=Path)
    ap.add_argument("--driver", required=True, help="the GPU driver version of that run (nvidia-smi)")
    ap.add_argument("--golden-out", type=Path, default=golden.golden_root() / "h200")
    ap.add_argument("--tasks", nargs="*", default=[], help="task-id prefixes to keep (default: all)")
    ap.add_argument("--clocks-before", required=True,
                    help="nvidia-smi's clocks.sm,clocks.max.sm,temperature.gpu read before that run")
    ap.add_argument("--note", default="", help="why the run's own write did not happen")
    args = ap.parse_args(argv)
    rows = [json.loads(line) for line in args.journal.read_text().splitlines() if line.strip()]
    header = next(r for r in rows if r.get("kind") == "header")
    jobs = [r for r in rows if r.get("kind") != "header" and r["task_id"].startswith(tuple(args.tasks) or ("",))]
    versions = header["versions"]
    prov = {"gpu": versions["gpu"], "driver": args.driver, "torch": versions["torch"], "triton": versions["triton"],
            "cuda": versions["cuda"], "python": versions["python"], "date": header["started"] + "Z",
            "seed": header["seed"], "clocks_before": args.clocks_before,
            "clock_fields": "clocks.sm,clocks.max.sm,temperature.gpu", "from_journal": args.note or args.journal.name}
    missing = golden.write(args.golden_out, [_result(r) for r in jobs], header.get("roofline"), prov)
    # golden.write reads the clocks after the run from this machine, which is not the GPU machine
    path = args.golden_out / "provenance.json"
    runs = json.loads(path.read_text())
    runs["runs"][-1].update(clocks_after="not read (the run stopped at its time limit)", finished=False)
    path.write_text(json.dumps(runs, indent=2) + "\n")
    print(f"golden results for {len(jobs) - len(missing)} task(s) written to {args.golden_out}")
    for line in missing:
        print(f"  not measured: {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
