"""A run killed with SIGKILL half way finishes with --resume: same metrics as an uninterrupted
run, every job journaled exactly once."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from conftest import ROOT, load_metrics, run_cli, write_jsonl


def _verdicts(metrics: list[dict]) -> dict:
    return {m["key"]: (m["verdict"], m["call"]["status"], m["exe"]["status"], m["exe"]["detail"]) for m in metrics}


def _journal_rows(out) -> list[dict]:
    lines = (out / "journal.jsonl").read_text().splitlines()
    return [json.loads(l) for l in lines[1:]]


def test_sigkill_then_resume_matches_uninterrupted(tmp_path):
    code = (ROOT / "solutions" / "Activation" / "gelu.py").read_text()
    wrong = code.replace("0.7071067811865476", "0.7")
    rows = [{"file": "Activation/gelu.py", "predict": code if i % 3 else wrong, "sample_id": i} for i in range(8)]
    preds = write_jsonl(tmp_path / "preds.jsonl", rows)

    full = tmp_path / "full"
    run_cli("eval", str(preds), "--out", str(full), "-q", "--workers", "1")

    part = tmp_path / "part"
    proc = subprocess.Popen([sys.executable, "-m", "harness.cli", "eval", str(preds), "--out", str(part), "-q",
                             "--workers", "1"], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        journal = part / "journal.jsonl"
        if journal.exists() and len(journal.read_text().splitlines()) >= 4:  # header + 3 jobs
            break
        time.sleep(0.2)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    done_before = {r["key"] for r in _journal_rows(part)}
    assert 3 <= len(done_before) < len(rows), "the kill must land half way"
    assert not (part / "metrics.json").exists()

    refused = run_cli("eval", str(preds), "--out", str(part), "-q", check=False)
    assert refused.returncode == 1 and "--resume" in refused.stderr  # never clobbers a journal

    run_cli("eval", str(preds), "--out", str(part), "-q", "--resume")
    keys = [r["key"] for r in _journal_rows(part)]
    assert len(keys) == len(set(keys)) == len(rows)  # no job journaled twice
    assert _verdicts(load_metrics(part)) == _verdicts(load_metrics(full))
    assert json.loads((part / "summary.json").read_text())["exe_pass"] == 5


def test_a_run_resumes_only_with_the_settings_it_was_written_with(tmp_path):
    from harness.run.journal import Journal, JournalError

    header = {"seed": 0, "mode": "interpreter", "fail_fast": False}
    Journal(tmp_path / "a", header, resume=False)
    for changed in ({"seed": 1}, {"mode": "gpu"}, {"fail_fast": True}):
        with pytest.raises(JournalError, match=next(iter(changed))):
            Journal(tmp_path / "a", header | changed, resume=True)
    Journal(tmp_path / "a", header, resume=True)
    # a journal written before fail-fast existed was written without it
    Journal(tmp_path / "b", {"seed": 0, "mode": "interpreter"}, resume=False)
    Journal(tmp_path / "b", header, resume=True)
    with pytest.raises(JournalError, match="fail_fast"):
        Journal(tmp_path / "b", header | {"fail_fast": True}, resume=True)


def test_a_resume_refuses_other_limits_or_perf_and_a_damaged_header(tmp_path):
    """A run's stage limits and perf settings decide verdicts (a timeout under 0.01 s is no verdict
    under 300 s), so a resume under others is refused; a journal whose first line is not a header
    is refused with the file named, not a traceback."""
    from harness.run.journal import Journal, JournalError

    header = {"seed": 0, "mode": "interpreter", "fail_fast": False, "perf": "not requested",
              "compile_baseline": False, "limits": {"call": 300.0, "exe": 300.0}}
    Journal(tmp_path / "a", header, resume=False)
    for changed in ({"limits": {"call": 0.01, "exe": 0.01}}, {"perf": "timed on GPU"}, {"compile_baseline": True}):
        with pytest.raises(JournalError, match=next(iter(changed))):
            Journal(tmp_path / "a", header | changed, resume=True)
    for first_line in ("garbage", "[1, 2]", '{"seed": 0}'):
        (tmp_path / "b").mkdir(exist_ok=True)
        (tmp_path / "b" / "journal.jsonl").write_text(first_line + "\n")
        with pytest.raises(JournalError, match="header"):
            Journal(tmp_path / "b", header, resume=True)


def test_a_journal_line_nested_too_deep_is_a_job_to_run_again(tmp_path):
    """A damaged (or crafted) result line that JSON cannot parse without recursing too deep is, like
    a line cut short by a kill, a job left to run again, not a traceback."""
    from harness.run.journal import Journal

    header = {"seed": 0, "mode": "interpreter", "fail_fast": False, "perf": "not requested",
              "compile_baseline": False, "limits": {"call": 300.0, "exe": 300.0}}
    Journal(tmp_path, header, resume=False)
    with open(tmp_path / "journal.jsonl", "a") as f:
        f.write("[" * 100_000 + "]" * 100_000 + "\n")
    journal = Journal(tmp_path, header, resume=True)
    assert journal.done == {}
    assert len((tmp_path / "journal.jsonl").read_text().splitlines()) == 1  # rewritten without it


def test_a_journal_that_cannot_be_written_keeps_the_result_and_says_why(tmp_path, monkeypatch):
    """A full disk (or any write error) while journaling a finished job: the result stays in the
    run's memory for its reports, and the first error is kept for the summary, instead of the
    thread that finished the job dying with it."""
    from harness.run.journal import Journal
    from harness.verdicts import JobResult, StageResult

    header = {"seed": 0, "mode": "interpreter"}
    journal = Journal(tmp_path, header, resume=False)
    result = JobResult(key="k", task_id="Activation/relu.py", category="Activation", sample_id=0, source="s",
                       code_sha="0", call=StageResult("ok"), exe=StageResult("ok"), perf=StageResult("skipped"),
                       mode="interpreter")

    def full(row):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(journal, "_write_line", full)
    journal.append(result)
    assert journal.done == {"k": result} and "No space left" in journal.write_error


def test_a_resume_without_limits_goes_on_with_the_runs_own(tmp_path):
    """A run made with --timeout resumes without repeating it (the journal's limits are taken, as
    its seed is); a limit given explicitly on resume still has to match."""
    relu = ROOT / "solutions" / "Activation" / "relu.py"
    out = tmp_path / "out"
    run_cli("eval", str(relu), "--out", str(out), "-q", "--no-perf", "--timeout", "120", "--no-report")
    [first] = load_metrics(out)
    again = run_cli("eval", str(relu), "--out", str(out), "-q", "--no-perf", "--resume", "--no-report", check=False)
    assert again.returncode == 0, again.stderr[-2000:]
    other = run_cli("eval", str(relu), "--out", str(out), "-q", "--no-perf", "--resume", "--timeout", "90",
                    "--no-report", check=False)
    assert other.returncode != 0 and "limits" in other.stderr, other.stderr[-2000:]
    # the same prediction read from another file: the record reused names where it was read now
    moved = tmp_path / "moved" / "relu.py"
    moved.parent.mkdir()
    moved.write_text(relu.read_text())
    run_cli("eval", str(moved), "--out", str(out), "-q", "--no-perf", "--resume", "--no-report")
    [record] = load_metrics(out)
    assert record["source"].startswith(str(moved)), record["source"]
    assert record["seconds"] == first["seconds"] and record["info"] == first["info"]  # reused, not run again
