"""The Hugging Face face, offline, from a directory outside the repo: the packaged dataset, the
``evaluate`` metric, and the dataset build check."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from conftest import ROOT

pytest.importorskip("datasets", reason="the [hf] extra is not installed")
pytest.importorskip("evaluate", reason="the [hf] extra is not installed")

OFFLINE = {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "HF_EVALUATE_OFFLINE": "1"}


def _run_elsewhere(tmp_path, code: str, allow_code_eval: bool = True) -> dict:
    """Run ``code`` in a fresh interpreter whose cwd is outside the repo; it prints one JSON line."""
    env = {k: v for k, v in os.environ.items() if k != "HF_ALLOW_CODE_EVAL"} | OFFLINE
    env["HF_HOME"] = str(tmp_path / "hf-home")  # an empty cache: nothing can come from earlier downloads
    if allow_code_eval:
        env["HF_ALLOW_CODE_EVAL"] = "1"
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=1200)
    assert proc.returncode == 0, proc.stderr[-4000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_dataset_configs_and_rows_offline(tmp_path):
    out = _run_elsewhere(tmp_path, """
        import json, datasets, harness
        from harness.task import all_tasks
        path = harness.dataset_path()
        configs = datasets.get_dataset_config_names(path)
        rows = {c: sorted(datasets.load_dataset(path, c, split="test")["task_id"]) for c in configs}
        print(json.dumps({"configs": configs, "rows": rows, "tasks": sorted(all_tasks())}))
    """)
    tasks = out["tasks"]
    categories = sorted({t.split("/")[0] for t in tasks})
    assert sorted(out["configs"]) == sorted(["all"] + categories)
    assert out["rows"]["all"] == tasks
    for category in categories:
        assert out["rows"][category] == [t for t in tasks if t.startswith(category + "/")]


METRIC = """
    import json, evaluate, harness, datasets
    metric = evaluate.load(harness.metric_path())
    rows = datasets.load_dataset(harness.dataset_path(), "Loss", split="test")
    try:
        # code_eval's knobs: k (pass@1 asked for, one sample each) and num_workers
        out = metric.compute(predictions=[r["solution"] for r in rows], references=[r["task_id"] for r in rows],
                             k=[1], num_workers=2)
        print(json.dumps({"exe_rate": out["exe_rate"], "n": len(rows), "mi": out["mean_maintainability_index"],
                          "pass@1": out["pass@1"], "workers": out["workers"],
                          "cases": [len(s["cases"]) for rs in out["results"] for s in rs],
                          "quality": [s["quality"] for rs in out["results"] for s in rs]}))
    except ValueError as exc:
        print(json.dumps({"refused": str(exc)}))
"""


def test_metric_refuses_without_opt_in(tmp_path):
    out = _run_elsewhere(tmp_path, METRIC, allow_code_eval=False)
    assert "HF_ALLOW_CODE_EVAL" in out["refused"] and "untrusted" in out["refused"]


def test_metric_scores_bundled_solutions_as_correct(tmp_path):
    out = _run_elsewhere(tmp_path, METRIC)
    assert out["n"] == 6 and out["exe_rate"] == 1.0 and out["pass@1"] == 1.0 and out["workers"] == 2
    assert all(n >= 2 for n in out["cases"])  # the case-level detail of every sample
    assert 0 < out["mi"] <= 100 and len(out["quality"]) == 6 and all(q["sloc"] > 0 for q in out["quality"])


def test_metric_scores_wrong_code_as_wrong(tmp_path):
    wrong = """
    import json, evaluate, harness, datasets
    metric = evaluate.load(harness.metric_path())
    rows = datasets.load_dataset(harness.dataset_path(), "Loss", split="test")
    # Each answer is another task's correct solution under this task's entry name: real Triton, wrong function.
    codes = [rows[(i + 1) % len(rows)]["solution"] + f"\\n{r['entry_point']} = {rows[(i + 1) % len(rows)]['entry_point']}\\n"
             for i, r in enumerate(rows)]
    out = metric.compute(predictions=codes, references=[r["task_id"] for r in rows])
    print(json.dumps({"exe_rate": out["exe_rate"], "verdicts": [s["verdict"] for rs in out["results"] for s in rs]}))
    """
    out = _run_elsewhere(tmp_path, wrong)
    assert out["exe_rate"] == 0.0, out["verdicts"]


def test_committed_dataset_build_is_up_to_date():
    proc = subprocess.run([sys.executable, "-m", "dataset_builder.build", "check"], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr


def test_build_is_reproducible(tmp_path):
    from dataset_builder.build import build
    first = {p.relative_to(tmp_path / "a"): p.read_bytes() for p in build(tmp_path / "a")}
    second = {p.relative_to(tmp_path / "b"): p.read_bytes() for p in build(tmp_path / "b")}
    assert first == second
