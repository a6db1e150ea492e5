"""End to end as a user would run it: lm-evaluation-harness generates against an OpenAI-compatible
server (a fake one on 127.0.0.1 started here) and scores with our task folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from fake_openai_server import FakeModelServer

pytest.importorskip("lm_eval", reason="lm-eval is an optional extra: pip install -e '.[lm-eval]'")
LIMIT = 2  # documents per task: keeps the interpreter run short


def _lm_eval(url: str, model: str, endpoint: str, out: Path) -> tuple[dict, list[dict]]:
    """The task's aggregated results and its logged samples."""
    cmd = [sys.executable, "-m", "lm_eval", "run", "--model", model,
           "--model_args", f"model=fake,base_url={url}/{endpoint},tokenizer_backend=none,tokenized_requests=False,num_concurrent=1",
           "--tasks", "kernelbenchx_activation", "--include_path", str(ROOT / "lm_eval_tasks"),
           "--limit", str(LIMIT), "--confirm_run_unsafe_code", "--output_path", str(out), "--log_samples"]
    if model == "local-chat-completions":
        cmd.append("--apply_chat_template")
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "HF_EVALUATE_OFFLINE": "1",
           "PYTHONPATH": str(ROOT), "OPENAI_API_KEY": "unused"}
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=1200, cwd=out.parent, env=env)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-5000:]
    [result_file] = list(out.rglob("results_*.json"))
    [samples_file] = list(out.rglob("samples_kernelbenchx_activation_*.jsonl"))
    samples = [json.loads(line) for line in samples_file.read_text().splitlines()]
    return json.loads(result_file.read_text())["results"]["kernelbenchx_activation"], samples


@pytest.mark.parametrize("behaviour,expected", [("good", 1.0), ("wrong", 0.0)])
def test_lm_eval_completions_end_to_end(tmp_path, behaviour, expected):
    with FakeModelServer(behaviour) as url:
        results, samples = _lm_eval(url, "local-completions", "completions", tmp_path / "out")
    assert results["exe_rate,extract_code"] == expected
    # per-document metrics: lm-eval averages them and reports a standard error (0 for equal values)
    assert results["exe_rate_stderr,extract_code"] == 0.0 and results["pass@1,extract_code"] == expected
    # every document's verdict is in the logged samples, with the reason when it failed
    assert len(samples) == LIMIT
    for sample in samples:
        [verdict] = sample["verdicts"]
        assert (verdict["verdict"] == "ok") == (behaviour == "good") and sample["exe_rate"] == expected
        assert behaviour == "good" or verdict["detail"]
    assert results["call_rate,extract_code"] == (1.0 if behaviour == "good" else results["call_rate,extract_code"])


def test_lm_eval_chat_completions(tmp_path):
    with FakeModelServer("good") as url:
        results, _ = _lm_eval(url, "local-chat-completions", "chat/completions", tmp_path / "out")
    assert results["exe_rate,extract_code"] == 1.0


def test_documents_with_several_samples_report_pass_at_k(monkeypatch):
    """With `repeats`, a document's samples give unbiased pass@k for every k up to their number, and
    its rates are means over them; each sample is judged once however many metrics read it."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("kbx_lm_eval_utils", ROOT / "lm_eval_tasks" / "kernelbenchx" / "utils.py")
    utils = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(utils)
    runs = []

    def fake_judge(pairs):  # 2 of the 5 samples correct; stands in for the harness run
        runs.append(pairs)
        for task, code in pairs:
            utils._JUDGED.setdefault((task, code), {"exe": code in ("a", "b"), "exe_core": code in ("a", "b", "c"),
                                                    "case_pass": 0.5, "call": True, "log": {"verdict": code}})
    monkeypatch.setattr(utils, "judge", fake_judge)
    doc = {"task_id": "Activation/relu.py"}
    out = utils.process_results(doc, [["a", "b", "c", "d", "e"]])
    assert out["exe_rate"] == out["pass@1"] == 0.4 and out["exe_core_rate"] == 0.6
    assert out["pass@5"] == 1.0 and "pass@10" not in out  # pass@10 needs 10 samples
    assert [v["verdict"] for v in out["verdicts"]] == ["a", "b", "c", "d", "e"]
    assert utils.ok_share([out["verdicts"]]) == 0.0
