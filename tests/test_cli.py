"""The command line as a user meets it: usage errors are one line (exit 2), output to a closed pipe
ends quietly, progress in a log is plain lines, and `eval DIR` reads predictions only."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT, load_metrics, run_cli


def _usage_error(proc: subprocess.CompletedProcess, *phrases: str) -> None:
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    assert "Traceback" not in proc.stderr, proc.stderr
    for phrase in phrases:
        assert phrase in proc.stderr, proc.stderr


def test_bad_workers_variable_does_not_break_help():
    proc = run_cli("--help", check=False, env={"KERNELBENCHX_WORKERS": "abc"})
    assert proc.returncode == 0 and "usage: kernelbenchx" in proc.stdout, proc.stderr
    proc = run_cli("tasks", "--json", check=False, env={"KERNELBENCHX_WORKERS": "abc"})
    assert proc.returncode == 0 and json.loads(proc.stdout), proc.stderr


def test_bad_workers_variable_is_a_usage_error_when_it_is_used(tmp_path):
    proc = run_cli("eval", str(ROOT / "solutions" / "Activation" / "relu.py"), "--out", str(tmp_path / "out"),
                   check=False, env={"KERNELBENCHX_WORKERS": "abc"})
    _usage_error(proc, "KERNELBENCHX_WORKERS", "'abc' is not a positive integer")
    assert not (tmp_path / "out").exists()  # nothing ran


def test_bad_option_values_are_usage_errors(tmp_path):
    solution = str(ROOT / "solutions" / "Activation" / "relu.py")
    _usage_error(run_cli("eval", solution, "--out", str(tmp_path), "--gpus", "a", check=False), "--gpus", "'a'")
    _usage_error(run_cli("eval", solution, "--out", str(tmp_path), "--workers", "0", check=False), "--workers", "'0'")
    _usage_error(run_cli("eval", solution, "--out", str(tmp_path), "--timeout", "-5", check=False), "--timeout")
    # a limit that never ends lets a job that never ends hold its slot, and a server's stop, for ever
    _usage_error(run_cli("serve", "--timeout", "inf", check=False), "--timeout")


def test_unknown_category_lists_the_real_ones():
    proc = run_cli("tasks", "--category", "Nope", check=False)
    _usage_error(proc, "unknown category 'Nope'", "Activation", "SpatialOps")
    proc = run_cli("tasks", "--category", "activation", check=False)
    assert proc.returncode == 0 and "Activation (16)" in proc.stdout, proc.stderr


def test_output_into_a_closed_pipe_ends_quietly():
    """`kernelbenchx tasks | head`: the reader is gone before the listing is written."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        proc = subprocess.run([sys.executable, "-m", "harness.cli", "tasks"], stdout=write_end, stderr=subprocess.PIPE,
                              text=True, timeout=300, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    finally:
        os.close(write_end)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == "", proc.stderr


def test_progress_in_a_log_is_one_plain_line_per_job(tmp_path):
    proc = run_cli("eval", str(ROOT / "solutions" / "Activation" / "relu.py"), "--out", str(tmp_path / "out"))
    assert "\r" not in proc.stderr
    assert "[1/1] Activation/relu.py #0: ok" in proc.stderr, proc.stderr


def test_eval_dir_skips_earlier_runs_and_hidden_folders(tmp_path):
    preds = tmp_path / "preds"
    preds.mkdir()
    shutil.copy(ROOT / "solutions" / "Activation" / "relu.py", preds / "relu.py")
    hidden = preds / ".venv" / "lib"
    hidden.mkdir(parents=True)
    (hidden / "gelu.py").write_text("this is not a prediction")
    run_cli("eval", str(preds), "--out", str(preds / "run1"), "-q")       # an earlier run inside DIR
    assert (preds / "run1" / "journal.jsonl").exists()
    run_cli("eval", str(preds), "--out", str(tmp_path / "run2"), "-q", "--no-report")
    assert [m["source"] for m in load_metrics(tmp_path / "run2")] == [str(preds / "relu.py")]
    # the report is written with every run, unless asked not to
    assert (preds / "run1" / "report.html").is_file() and (preds / "run1" / "report.md").is_file()
    assert "Activation/relu.py#0" in (preds / "run1" / "report.html").read_text()
    assert not (tmp_path / "run2" / "report.html").exists()
    # a run's own folder given as DIR holds no predictions
    proc = run_cli("eval", str(preds / "run1"), "--out", str(tmp_path / "run3"), check=False)
    assert proc.returncode == 1 and "no predictions found" in proc.stderr, proc.stderr


def test_summary_records_the_package_version_and_where_the_time_went(tmp_path):
    from importlib.metadata import version

    import harness
    assert version("kernelbenchx") == harness.__version__  # pyproject takes it from harness.__version__
    preds = tmp_path / "preds"
    preds.mkdir()
    for name in ("relu", "gelu"):
        shutil.copy(ROOT / "solutions" / "Activation" / f"{name}.py", preds / f"{name}.py")
    run_cli("eval", str(preds), "--out", str(tmp_path / "out"), "-q")
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["kernelbenchx_version"] == harness.__version__
    assert summary["versions"]["kernelbenchx"] == harness.__version__
    jobs = load_metrics(tmp_path / "out")
    stages = ("spawn_s", "setup_s", "load_s", "call_s", "exe_s")
    for job in jobs:
        timing = job["info"]["timing"]
        assert set(stages + ("reference_s", "judge_s")) <= set(timing), timing
        assert all(seconds >= 0 for seconds in timing.values()), timing
        # the worker's stages, timed by the parent, fit in the worker's lifetime
        assert sum(timing[s] for s in stages) <= job["seconds"] + 0.01, (timing, job["seconds"])
        # so does its end: the parent's kill and reap of the worker, after its stages
        assert 0 < timing["worker_close_s"] <= job["seconds"] - sum(timing[s] for s in stages) + 0.01, timing
        assert timing["call_s"] > 0  # the cases ran there
    for key, total in summary["time_breakdown_s"].items():
        assert total == pytest.approx(sum(j["info"]["timing"].get(key, 0) for j in jobs), abs=0.002), key


def test_eval_fail_fast_over_several_sources(tmp_path):
    """Two sources in one run; with --fail-fast a wrong job stops at a wrong case, a right one runs
    every case, and the summary says the run was made that way."""
    relu = (ROOT / "solutions" / "Activation" / "relu.py").read_text()
    wrong = relu.replace("mask = offsets < n_elements", "mask = offsets < n_elements - 1")  # the last element
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "relu.py").write_text(relu)
    (tmp_path / "b.jsonl").write_text(json.dumps({"file": "relu", "predict": wrong}) + "\n")
    out = tmp_path / "out"
    run_cli("eval", str(tmp_path / "a"), str(tmp_path / "b.jsonl"), "--out", str(out), "-q", "--no-perf",
            "--fail-fast", "--no-report", check=False)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["fail_fast"] is True and summary["jobs"] == 2
    right, bad = sorted(load_metrics(out), key=lambda m: m["source"].endswith(".jsonl:1"))
    assert right["verdict"] == "ok" and bad["verdict"] == "wrong", (right["source"], bad["source"])
    made = [c for c in bad["cases"] if c["status"] != "skipped"]
    assert "fail-fast" in bad["exe"]["detail"] and len(made) < len(right["cases"]) == len(bad["cases"])


def test_a_job_stopped_before_its_core_cases_earns_no_core_credit(tmp_path):
    """A kernel wrong everywhere, stopped by fail-fast at its first case, was core-correct when
    that case was an edge one: no core case had run, and all of none passed. The calls not made are
    listed as skipped, so the core tier counts them (fail-fast now calls core cases first, yet a
    job split over processes can still be stopped by another share's edge case)."""
    source = (ROOT / "tests" / "adversarial" / "failfast_core_credit_without_core_cases.py").read_text()
    (tmp_path / "p.jsonl").write_text(json.dumps({"file": "Activation/relu.py", "predict": source}) + "\n")
    out = tmp_path / "out"
    run_cli("eval", str(tmp_path / "p.jsonl"), "--out", str(out), "-q", "--no-perf", "--fail-fast", "--no-report",
            check=False)
    (job,) = load_metrics(out)
    assert job["verdict"] == "wrong" and job["exe_core_ok"] is False, job
    skipped = [c for c in job["cases"] if c["status"] == "skipped"]
    assert any(c["tier"] == "core" for c in skipped) and "fail-fast" in skipped[0]["reason"], job["cases"]
    summary = json.loads((out / "summary.json").read_text())
    assert summary.get("exe_core_rate", 0) == 0, summary


def test_an_output_folder_that_cannot_be_one_is_a_usage_error(tmp_path):
    """--out naming a file, or a path under one, is a usage error naming --out (exit 2), not a
    traceback."""
    (tmp_path / "a_file").write_text("")
    for out in (tmp_path / "a_file", tmp_path / "a_file" / "below"):
        proc = run_cli("eval", str(ROOT / "solutions" / "Activation" / "relu.py"), "--out", str(out), "-q", "--no-perf",
                       check=False)
        assert proc.returncode == 2 and "--out" in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
