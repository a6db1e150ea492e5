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


def _lm_eval(url: str, model: str, endpoint: str, out: Path) -> dict:
    cmd = [sys.executable, "-m", "lm_eval", "run", "--model", model,
           "--model_args", f"model=fake,base_url={url}/{endpoint},tokenizer_backend=none,tokenized_requests=False,num_concurrent=1",
           "--tasks", "kernelbenchx_activation", "--include_path", str(ROOT / "lm_eval_tasks"),
           "--limit", str(LIMIT), "--confirm_run_unsafe_code", "--output_path", str(out)]
    if model == "local-chat-completions":
        cmd.append("--apply_chat_template")
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "HF_EVALUATE_OFFLINE": "1",
           "PYTHONPATH": str(ROOT), "OPENAI_API_KEY": "unused"}
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=1200, cwd=out.parent, env=env)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-5000:]
    [result_file] = list(out.rglob("results_*.json"))
    return json.loads(result_file.read_text())["results"]["kernelbenchx_activation"]


@pytest.mark.parametrize("behaviour,expected", [("good", 1.0), ("wrong", 0.0)])
def test_lm_eval_completions_end_to_end(tmp_path, behaviour, expected):
    with FakeModelServer(behaviour) as url:
        results = _lm_eval(url, "local-completions", "completions", tmp_path / "out")
    assert results["exe_rate,extract_code"] == expected
    assert results["call_rate,extract_code"] == (1.0 if behaviour == "good" else results["call_rate,extract_code"])


def test_lm_eval_chat_completions(tmp_path):
    with FakeModelServer("good") as url:
        results = _lm_eval(url, "local-chat-completions", "chat/completions", tmp_path / "out")
    assert results["exe_rate,extract_code"] == 1.0
