"""`kernelbenchx report`: the HTML page and its Markdown, from runs written here by hand so that
every transition and figure has a known right answer."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from conftest import run_cli
from harness.report.runs import load_run, transitions

ROOFLINE = {"copy_bytes_per_s": 4e12, "matmul_flops_per_s": {"float16": 7e14, "float32": 5e13}}


def _job(task: str, ok: bool, speedup: float | None = None, spread: float = 0.01, detail: str = "") -> dict:
    cases = [{"label": "core-1", "tier": "core", "config": 0, "status": "ok", "reason": "", "traits": []},
             {"label": "edge-strided", "tier": "edge", "config": 0, "status": "ok" if ok else "wrong",
              "reason": "" if ok else detail, "traits": [] if ok else ["non_contiguous"]}]
    perf = {}
    if speedup:
        perf = {"speedup_vs_eager": speedup, "speedup_vs_compile": speedup / 2, "roofline_pct": 40.0,
                "cases": [{"describe": "big", "runtime_ms": 1.0, "flops": 2e9, "bytes": 4e8,
                           "candidate": {"median_ms": 1.0, "iqr_ms": spread}}]}
    return {"task_id": task, "category": task.split("/")[0], "sample_id": 0, "verdict": "ok" if ok else "wrong",
            "call": {"status": "ok", "detail": ""}, "exe": {"status": "ok" if ok else "wrong", "detail": detail},
            "perf": {"status": "ok" if speedup else "skipped", "detail": ""}, "call_ok": True, "exe_ok": ok,
            "exe_core_ok": True, "perf_ok": bool(speedup), "cases": cases,
            "cases_passed": {"core": 1, "edge": 1 if ok else 0}, "cases_total": {"core": 1, "edge": 1},
            "perf_metrics": perf}


def _write_run(path: Path, jobs: list[dict]) -> Path:
    path.mkdir(parents=True)
    (path / "metrics.json").write_text(json.dumps(jobs))
    failed = [j for j in jobs if not j["exe_ok"]]
    summary = {"jobs": len(jobs), "mode": "gpu", "seed": 0, "exe_rate": 1 - len(failed) / len(jobs),
               "failure_causes": {"non_contiguous": len(failed)} if failed else {}, "roofline": ROOFLINE,
               "versions": {"torch": "x"}}
    (path / "summary.json").write_text(json.dumps(summary))
    return path


XSS = "<script>alert('from a submission')</script>"
VOID = {"meta", "br", "img", "input", "hr", "link"}


class _Balance(HTMLParser):
    """Every element that is opened is closed, in order (the page parses as one tree)."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1] == tag, f"</{tag}> closes <{self.stack[-1] if self.stack else None}>"
        self.stack.pop()


def _parses(page: str) -> None:
    parser = _Balance()
    parser.feed(page)
    parser.close()
    assert parser.stack == [], parser.stack


@pytest.fixture
def two_runs(tmp_path):
    before = _write_run(tmp_path / "before", [
        _job("Activation/a.py", False, detail=XSS), _job("Activation/b.py", True, 1.2),
        _job("Loss/c.py", True, 1.0), _job("Loss/d.py", True, 1.0), _job("Loss/e.py", True, 1.0, spread=0.2)])
    after = _write_run(tmp_path / "after", [
        _job("Activation/a.py", True, 1.1), _job("Activation/b.py", False, detail="max abs err 3"),
        _job("Loss/c.py", True, 1.5), _job("Loss/d.py", True, 1.01), _job("Loss/e.py", True, 1.3, spread=0.2),
        _job("Loss/f.py", True, 2.0)])
    return before, after


def test_transitions_between_two_runs(two_runs):
    rows = {r["job"]: r["change"] for r in transitions(load_run(two_runs[0]), load_run(two_runs[1]))}
    assert rows == {"Activation/a.py#0": "fixed", "Activation/b.py#0": "broken", "Loss/c.py#0": "faster",
                    "Loss/d.py#0": "same",    # 1% moved: under the 2% floor
                    "Loss/e.py#0": "same",    # 30% moved, but its cases' IQR is 20% of the median: noise bound 40%
                    "Loss/f.py#0": "new"}


def test_report_command_writes_a_self_contained_page(two_runs, tmp_path):
    out = tmp_path / "report"
    run_cli("report", str(two_runs[0]), str(two_runs[1]), "--out", str(out))
    page = (out / "report.html").read_text()
    _parses(page)
    # nothing fetched from the network to view it
    assert not re.search(r"<(script|link|img)[^>]+(src|href)=", page)
    # text from submissions is escaped, never markup
    assert XSS not in page and "&lt;script&gt;alert(" in page
    # every job of the first run has its row; the job only the second run has is listed as new
    for task in ("Activation/a.py", "Activation/b.py", "Loss/c.py", "Loss/d.py", "Loss/e.py"):
        assert f'<tr id="{task}#0"' in page, task
    assert "<td>Loss/f.py#0</td><td>new</td>" in page
    assert "fixed: 1" in page and "broken: 1" in page and "faster: 1" in page
    pytest.importorskip("matplotlib")
    assert page.count("<svg") >= 5  # fast_p, two speedup histograms, roofline, categories, failures
    md = (out / "report.md").read_text()
    assert "| Activation/a.py#0 | fixed |" in md and "| non_contiguous | 1 | 1 |" in md


def test_report_of_a_folder_without_a_run_says_what_is_missing(tmp_path):
    proc = run_cli("report", str(tmp_path), "--out", str(tmp_path / "r"), check=False)
    assert proc.returncode == 1 and "metrics.json and summary.json missing" in proc.stderr, proc.stderr


def test_terminal_text_escapes_controls_and_bidirectional_overrides():
    """A submission's error text cannot rewrite (ANSI escapes, carriage returns) or reorder (a
    right-to-left override) what the terminal shows after it."""
    from harness.report.table import terminal_safe
    shown = terminal_safe("ok\x1b[2J\rfake\u202eevil\u2066x\u200f\ud800 caf\u00e9")
    assert shown == "ok\\x1b[2J\\rfake\\u202eevil\\u2066x\\u200f\\ud800 caf\u00e9", shown


def test_an_integrity_failure_is_counted_by_what_its_message_says_not_by_module_names_in_it():
    from harness.report.summary import failure_cause
    from harness.verdicts import JobResult, StageResult

    def cause(detail: str) -> str:
        result = JobResult(key="k", task_id="Activation/relu.py", category="Activation", sample_id=0, source="s",
                           code_sha="0", call=StageResult("ok"), exe=StageResult("integrity", detail),
                           perf=StageResult("skipped"), mode="gpu")
        return failure_cause(result)

    # a traceback names the exception's module: harness.sandbox.worker is no sandbox refusal
    assert cause("case a: harness.sandbox.worker.Tampering: tampering: 16 native thread(s)") == "integrity:tampering"
    assert cause("case a: harness.sandbox.guard.GuardRefusal: guard: the submission may not call x") == "integrity:guard"
    assert cause("sandbox: the system refused the submission (writing outside)") == "integrity:sandbox"
    assert cause("gpu_trace - 1 Triton launch(es) counted") == "integrity:gpu_trace"
