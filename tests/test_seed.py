"""The seed of a run: a fresh random one unless given, since with a seed known in advance a
submission can carry the answer to every input it will be given (a table built offline from the
public tasks), and a resumed run goes on with its own."""

from __future__ import annotations

import base64
import io
import json
import os
import subprocess
import sys

import torch

from conftest import ROOT, write_jsonl
from harness.config import ENV_SEED, resolve_seed
from harness.invoke import clone_case
from harness.run.journal import JOURNAL_NAME, recorded_seed
from harness.task import get_task

# A sum that computes nothing: the answers of one seed's cases, looked up by the input's shape,
# strides and keywords and by how many such calls came before, are copied out by a Triton kernel.
# (Reduce/sum's answers are small: a table of ReLU's, 270 kB, is over the 64,000 characters a
# submission may have.)
TABLE_SUBMISSION = '''
import io, base64
import torch
import triton
import triton.language as tl

_ANSWERS = torch.load(io.BytesIO(base64.b64decode("{blob}")))
_SEEN = {{}}


@triton.jit
def _copy_kernel(src, dst, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(dst + offs, tl.load(src + offs, mask=offs < n), mask=offs < n)


def sum(input, dim, keepdim=False, dtype=None):
    key = repr((tuple(input.shape), tuple(input.stride()), dim, bool(keepdim), str(dtype), str(input.dtype)))
    _SEEN[key] = _SEEN.get(key, 0) + 1
    answer = _ANSWERS[(key, _SEEN[key])].to(input.device)
    out = torch.empty(answer.shape, dtype=answer.dtype, device=input.device)
    if answer.numel():
        _copy_kernel[(triton.cdiv(answer.numel(), 256),)](answer, out, answer.numel(), BLOCK=256)
    return out
'''


def _table_submission(seed: int) -> str:
    task, answers, seen = get_task("Reduce/sum.py"), {}, {}
    for case in task.correctness_cases(seed, "cpu"):
        x, kwargs = case.args[0], dict(zip(("dim", "keepdim", "dtype"), case.args[1:])) | case.kwargs
        key = repr((tuple(x.shape), tuple(x.stride()), kwargs["dim"], bool(kwargs.get("keepdim", False)),
                    str(kwargs.get("dtype")), str(x.dtype)))
        seen[key] = seen.get(key, 0) + 1
        answers[(key, seen[key])] = task.reference(*clone_case(case).args, **clone_case(case).kwargs).contiguous().clone()
    buffer = io.BytesIO()
    torch.save(answers, buffer)
    return TABLE_SUBMISSION.format(blob=base64.b64encode(buffer.getvalue()).decode())


def _eval(tmp_path, name: str, *options: str) -> tuple[dict, dict]:
    preds = write_jsonl(tmp_path / "preds.jsonl", [{"file": "Reduce/sum.py", "predict": _table_submission(0)}])
    out = tmp_path / name
    env = {k: v for k, v in os.environ.items() if k != ENV_SEED}  # the product's own default
    proc = subprocess.run([sys.executable, "-m", "harness.cli", "eval", str(preds), "--out", str(out), "-q",
                           "--no-perf", *options], capture_output=True, text=True, timeout=900, cwd=ROOT,
                          env={**env, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stderr[-3000:]
    summary = json.loads((out / "summary.json").read_text())
    return summary, json.loads((out / "metrics.json").read_text())[0]


def test_a_table_of_answers_for_a_known_seed_fails_under_the_default_random_seed(tmp_path):
    summary, record = _eval(tmp_path, "random")
    assert summary["seed"] != 0
    assert record["verdict"] != "ok" and not record["exe_ok"], record["exe"]
    # the same table under the seed it was built for passes: the default is what defeats it
    summary, record = _eval(tmp_path, "seed0", "--seed", "0")
    assert summary["seed"] == 0 and record["verdict"] == "ok", (record["call"], record["exe"])


def test_a_resumed_run_goes_on_with_its_own_random_seed(tmp_path):
    first, _ = _eval(tmp_path, "run")
    again, _ = _eval(tmp_path, "run", "--resume")  # nothing left to do; no "another seed" refusal
    assert again["seed"] == first["seed"] == recorded_seed(tmp_path / "run")
    assert (tmp_path / "run" / JOURNAL_NAME).exists()


def test_the_seed_is_the_given_one_then_the_recorded_then_the_environment_then_random(monkeypatch):
    monkeypatch.setenv(ENV_SEED, "7")
    assert resolve_seed(3, recorded=5) == 3
    assert resolve_seed(None, recorded=5) == 5
    assert resolve_seed(None) == 7
    monkeypatch.delenv(ENV_SEED)
    draws = {resolve_seed(None) for _ in range(4)}
    assert len(draws) > 1 and all(0 <= d < 1 << 31 for d in draws)
    monkeypatch.setenv(ENV_SEED, "zero")
    try:
        resolve_seed(None)
    except ValueError as exc:
        assert ENV_SEED in str(exc)
    else:
        raise AssertionError("a seed that is not an integer was accepted")
