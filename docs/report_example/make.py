"""The example report in this folder, from two H200 runs whose journals are committed under
benchmarks/results/2026-12-02-h200-new-tasks/ (both were cut by a time limit, so their
metrics.json and summary.json are rebuilt from the journals), and its screenshot. Usage, from the
repository root (the screenshot needs Chromium: `apt-get install chromium`):

    python docs/report_example/make.py
"""

from __future__ import annotations

import gzip
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from harness.report.html import write_report
from harness.report.runs import load_run
from harness.report.summary import write_reports
from harness.verdicts import JobResult

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "benchmarks" / "results" / "2026-12-02-h200-new-tasks"
HERE = Path(__file__).resolve().parent


def run_from_journal(journal: Path, out: Path) -> Path:
    """metrics.json and summary.json of the jobs a (gzipped) journal holds."""
    rows = [json.loads(line) for line in gzip.open(journal, "rt") if line.strip()]
    header = next(r for r in rows if r.get("kind") == "header")
    results = [JobResult.from_json(r) for r in rows if r.get("kind") != "header"]
    out.mkdir(parents=True, exist_ok=True)
    write_reports(out, results, header)
    return out


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        before = run_from_journal(RESULTS / "call1" / "golden_journal.jsonl.gz", Path(tmp) / "h200-call1")
        after = run_from_journal(RESULTS / "call3" / "golden_journal.jsonl.gz", Path(tmp) / "h200-call3")
        write_report([load_run(before), load_run(after)], HERE)
    chromium = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if not chromium:
        print("no Chromium here: report written, screenshot not taken", file=sys.stderr)
        return 1
    subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    f"--screenshot={HERE / 'report.png'}", "--window-size=1280,2400",
                    (HERE / "report.html").as_uri()], check=True, capture_output=True, timeout=120)
    print(f"written: {HERE / 'report.html'}, {HERE / 'report.md'}, {HERE / 'report.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
