"""`--backend ray` (a local Ray instance, CPU, interpreter mode): the same verdicts as a local run,
and a run that loses a Ray worker mid-way still judges every job exactly once."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT, load_metrics, run_cli

pytest.importorskip("ray", reason="the Ray backend is an optional extra: pip install -e '.[ray]'")
ENV = {"RAY_AUTH_MODE": "disabled", "RAY_USAGE_STATS_ENABLED": "0"}


def _suite(tmp_path: Path, *categories: str, per_category: int | None = None) -> Path:
    """A folder of the bundled solutions of ``categories`` (the first ``per_category`` of each, by name)."""
    suite = tmp_path / "suite"
    for category in categories:
        (suite / category).mkdir(parents=True)
        for f in sorted((ROOT / "solutions" / category).glob("*.py"))[:per_category]:
            (suite / category / f.name).write_text(f.read_text())
    return suite


def _verdicts(out: Path) -> dict:
    return {m["task_id"]: (m["verdict"], [(c["label"], c["status"]) for c in m["cases"]]) for m in load_metrics(out)}


def test_ray_backend_gives_the_local_verdicts(tmp_path):
    suite = _suite(tmp_path, "Random", "SpatialOps")
    run_cli("eval", str(suite), "--out", str(tmp_path / "local"), "-q", "--no-report")
    run_cli("eval", str(suite), "--out", str(tmp_path / "ray"), "-q", "--no-report", "--backend", "ray",
            "--workers", "2", env=ENV)
    local, on_ray = _verdicts(tmp_path / "local"), _verdicts(tmp_path / "ray")
    assert len(local) == 5 and on_ray == local
    jobs = load_metrics(tmp_path / "ray")
    # each job ran in its own sandbox on a Ray actor, not in the driver
    assert all(m["info"]["ray"]["pid"] != os.getpid() and m["info"].get("sandbox") for m in jobs)
    assert json.loads((tmp_path / "ray" / "summary.json").read_text())["jobs"] == 5


def _actor_pids() -> list[int]:
    pids = []
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                if (proc / "cmdline").read_bytes().startswith(b"ray::JobRunner"):
                    pids.append(int(proc.name))
            except OSError:
                continue
    return pids


def test_a_killed_ray_worker_loses_no_job_and_counts_none_twice(tmp_path):
    suite = _suite(tmp_path, "Reduce")
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "harness.cli", "eval", str(suite), "--out", str(out), "-q", "--no-report",
           "--backend", "ray", "--workers", "2"]
    proc = subprocess.Popen(cmd, cwd=ROOT, env={**os.environ, **ENV, "PYTHONPATH": str(ROOT)},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 600
        journal = out / "journal.jsonl"
        # once the first job is recorded (the others still queued or running), kill one actor process
        while time.monotonic() < deadline and not (journal.exists() and len(journal.read_text().splitlines()) >= 2):
            time.sleep(0.5)
        victims = _actor_pids()
        assert victims, "no Ray actor process found"
        os.kill(victims[0], signal.SIGKILL)
        stdout, stderr = proc.communicate(timeout=900)
    finally:
        proc.kill()
    assert proc.returncode == 0, stdout[-2000:] + stderr[-3000:]
    jobs = load_metrics(out)
    keys = [m["key"] for m in jobs]
    assert len(keys) == 6 and len(set(keys)) == 6
    assert all(m["verdict"] == "ok" for m in jobs), [(m["task_id"], m["verdict"]) for m in jobs]
    # the job the dead actor had (or was given next) ran again on a new actor
    assert any(m["info"]["ray"]["attempt"] == 2 for m in jobs)
    lines = [json.loads(line) for line in (out / "journal.jsonl").read_text().splitlines()]
    assert len([line for line in lines if line.get("kind") != "header"]) == 6  # recorded once each


def test_python_api_runs_on_ray(monkeypatch):
    import ray

    from harness.api import evaluate_code
    for key, value in ENV.items():
        monkeypatch.setenv(key, value)
    relu = (ROOT / "solutions" / "Activation" / "relu.py").read_text()
    try:
        summary, results = evaluate_code([relu, "def relu(x): return x"], ["Activation/relu.py"] * 2,
                                         backend="ray", workers=1)
    finally:
        ray.shutdown()
    assert [r[0].correct for r in results] == [True, False]
    assert results[0][0].info["ray"]["attempt"] == 1 and summary["jobs"] == 2


def test_speedups_are_grouped_per_gpu_model():
    from harness.run.ray_backend import per_gpu_model
    from harness.verdicts import JobResult, StageResult

    def job(model: str, speedup: float) -> JobResult:
        return JobResult(key=f"{model}{speedup}", task_id="Activation/relu.py", category="Activation", sample_id=0,
                         source="s", code_sha="0", call=StageResult("ok"), exe=StageResult("ok"), perf=StageResult("ok"),
                         mode="gpu", info={"ray": {"gpu": model}}, perf_metrics={"speedup_vs_eager": speedup})
    groups = per_gpu_model([job("NVIDIA H200", 2.0), job("NVIDIA H200", 8.0), job("NVIDIA A100", 1.5)])
    assert groups == {"NVIDIA A100": {"jobs": 1, "geomean_speedup_vs_eager": pytest.approx(1.5)},
                      "NVIDIA H200": {"jobs": 2, "geomean_speedup_vs_eager": pytest.approx(4.0)}}


def test_warm_evaluator_on_ray(monkeypatch):
    import ray

    from harness.api import Evaluator
    for key, value in ENV.items():
        monkeypatch.setenv(key, value)
    relu = (ROOT / "solutions" / "Activation" / "relu.py").read_text()
    try:
        with Evaluator(backend="ray", workers=2, perf=False) as ev:
            assert ev.load()["slots"] == 2
            records = ev.evaluate([("Activation/relu.py", relu), ("Activation/relu.py", "def relu(x): return x")])
    finally:
        ray.shutdown()
    assert [r["verdict"] == "ok" for r in records] == [True, False]
    assert all(r["info"]["ray"]["attempt"] == 1 for r in records)


def test_an_interrupted_ray_run_resumes_without_redoing_finished_jobs(tmp_path):
    ray_before = _ray_processes()
    suite = _suite(tmp_path, "Reduce")
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "harness.cli", "eval", str(suite), "--out", str(out), "-q", "--no-report",
           "--backend", "ray", "--workers", "1"]
    env = {**os.environ, **ENV, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    journal = out / "journal.jsonl"
    try:
        deadline = time.monotonic() + 600
        while time.monotonic() < deadline and not (journal.exists() and len(journal.read_text().splitlines()) >= 3):
            time.sleep(0.5)
        proc.send_signal(signal.SIGINT)  # the driver stopped (Ctrl-C) with jobs left to do
        proc.communicate(timeout=120)
    finally:
        proc.kill()
    done_before = [json.loads(line)["key"] for line in journal.read_text().splitlines()
                   if json.loads(line).get("kind") != "header"]
    assert len(done_before) >= 2, done_before  # (all 6 only if the interrupt came late: resume then has nothing to do)
    run_cli("eval", str(suite), "--out", str(out), "-q", "--no-report", "--backend", "ray", "--workers", "1",
            "--resume", env=ENV)
    keys = [json.loads(line)["key"] for line in journal.read_text().splitlines() if json.loads(line).get("kind") != "header"]
    assert len(keys) == 6 and len(set(keys)) == 6 and keys[:len(done_before)] == done_before
    assert all(m["verdict"] == "ok" for m in load_metrics(out))
    _assert_no_ray_process_outlives(ray_before)  # the interrupted driver's local Ray included


def _ray_processes() -> set[int]:
    found = set()
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                cmdline = (proc / "cmdline").read_bytes()
            except OSError:
                continue
            if cmdline.startswith(b"ray::") or b"/ray/core/src/ray/" in cmdline or b"ray/_private" in cmdline:
                found.add(int(proc.name))
    return found


def test_a_finished_or_interrupted_run_leaves_no_ray_process(tmp_path):
    before = _ray_processes()
    suite = _suite(tmp_path, "Random")
    run_cli("eval", str(suite), "--out", str(tmp_path / "out"), "-q", "--no-report", "--backend", "ray",
            "--workers", "1", env=ENV)
    _assert_no_ray_process_outlives(before)


def _assert_no_ray_process_outlives(before: set[int]) -> None:
    deadline = time.monotonic() + 90  # Ray's agents take a few seconds to go after a shutdown
    while time.monotonic() < deadline and _ray_processes() - before:
        time.sleep(0.5)
    assert not _ray_processes() - before, "Ray processes outlived the run"


def test_a_multi_slot_actor_that_dies_requeues_every_job_it_held(monkeypatch, tmp_path):
    """A GPU actor runs several jobs at once (its worker slots); when it dies, each job it held runs
    again on the one actor that replaces it, and every job is judged once."""
    import ray

    from harness.config import RunConfig
    from harness.run.pool import JobPool
    from harness.run.ray_backend import RayActors
    from harness.run.submissions import load_submissions
    for key, value in ENV.items():
        monkeypatch.setenv(key, value)
    relu = (ROOT / "solutions" / "Activation" / "relu.py").read_text()
    slow = "import time\ntime.sleep(6)\n" + relu  # long enough to kill the actor while both slots hold one
    jobs = load_submissions([("Activation/relu.py", slow)] * 2 + [("Activation/relu.py", relu)] * 2)
    for i, job in enumerate(jobs):
        job.sample_id = i
    config = RunConfig(out_dir=tmp_path, seed=0, mode="interpreter", workers=2, perf=False)
    ray.init(num_cpus=2, log_to_driver=False)
    try:
        actors = RayActors(config, slots_per_actor=2)
        assert len(actors.actors) == 1 and actors.slots() == [0, 1]
        first = actors.actors[0]
        pool = JobPool(actors)
        futures = [pool.submit(job) for job in jobs]
        deadline = time.monotonic() + 120
        while pool.load()["running"] < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(3)  # both slow jobs are inside the actor now
        victim = [pid for pid in _actor_pids()]
        assert len(victim) == 1
        os.kill(victim[0], signal.SIGKILL)
        results = [f.result(timeout=600) for f in futures]
        replaced = actors.actors[0]
        pool.close()
    finally:
        ray.shutdown()
    assert replaced is not first  # one new actor, though two slots saw the old one die
    assert sorted(r.sample_id for r in results) == [0, 1, 2, 3]
    assert all(r.correct for r in results), [(r.sample_id, r.call.status, r.call.detail) for r in results]
    assert [r.info["ray"]["attempt"] for r in results[:2]] == [2, 2]
    assert len({r.info["ray"]["pid"] for r in results}) == 1  # all recorded results came from the new actor


@pytest.mark.gpu
def test_gpu_actors_run_several_jobs_at_once_with_local_verdicts_and_one_timed_job_per_gpu(tmp_path):
    # eight jobs: twice the slots of one GPU, so jobs overlap; the whole category did not finish both
    # runs within a 170 s device call
    suite = _suite(tmp_path, "Activation", per_category=8)
    run_cli("eval", str(suite), "--out", str(tmp_path / "local"), "-q", "--no-report", "--workers", "4")
    run_cli("eval", str(suite), "--out", str(tmp_path / "ray"), "-q", "--no-report", "--backend", "ray",
            "--workers", "4", env=ENV)
    local, on_ray = _verdicts(tmp_path / "local"), _verdicts(tmp_path / "ray")
    assert on_ray == local
    summary = json.loads((tmp_path / "ray" / "summary.json").read_text())
    import torch
    assert summary["workers"] == 4 * torch.cuda.device_count()
    jobs = load_metrics(tmp_path / "ray")
    assert all(m["perf"]["status"] == "ok" for m in jobs), [(m["task_id"], m["perf"]) for m in jobs]
    # jobs overlapped (several slots per actor: some waited for another's perf or were held while
    # it was timed), yet each GPU timed one job at a time: no two timed windows of one actor (its
    # one timing GPU) overlap
    waited = [sum(m["info"]["timing"].get(k, 0) for k in ("perf_lock_wait_s", "perf_memory_wait_s", "held_s"))
              for m in jobs]
    assert max(waited) > 0.05, waited
    by_actor: dict[int, list] = {}
    for m in jobs:
        by_actor.setdefault(m["info"]["ray"]["pid"], []).append(m["info"]["perf_timed_window"])
    for windows in by_actor.values():
        windows.sort()
        assert all(a[1] <= b[0] for a, b in zip(windows, windows[1:])), windows


def test_fail_fast_reaches_the_ray_actors(tmp_path):
    relu = (ROOT / "solutions" / "Activation" / "relu.py").read_text()
    wrong = relu.replace("mask = offsets < n_elements", "mask = offsets < n_elements - 1")
    preds = tmp_path / "p.jsonl"
    preds.write_text("".join(json.dumps({"file": "relu", "predict": code}) + "\n" for code in (relu, wrong)))
    run_cli("eval", str(preds), "--out", str(tmp_path / "ray"), "-q", "--no-report", "--backend", "ray",
            "--workers", "2", "--fail-fast", check=False, env=ENV)
    right, bad = sorted(load_metrics(tmp_path / "ray"), key=lambda m: m["sample_id"] or 0)
    assert right["verdict"] == "ok" and bad["verdict"] == "wrong"
    made = [c for c in bad["cases"] if c["status"] != "skipped"]
    assert "fail-fast" in bad["exe"]["detail"] and len(made) < len(right["cases"]) == len(bad["cases"])
    assert json.loads((tmp_path / "ray" / "summary.json").read_text())["fail_fast"] is True
