"""Core and edge tiers: every case is judged, partial credit, the failure taxonomy, and the keys the
summary, the table and the `evaluate` metric report."""

from __future__ import annotations

import torch

from conftest import ROOT
from harness.api import score
from harness.taskdef import Case
from harness.tiers import CORE, EDGE, case_traits, tier_of

RELU = (ROOT / "solutions" / "Activation" / "relu.py").read_text()
# Right on ordinary inputs, raises on a strided or transposed one (the commonest real failure).
CONTIGUOUS_ONLY = RELU.replace("    x = input.contiguous()\n",
                               "    if not input.is_contiguous():\n"
                               "        raise ValueError('only contiguous inputs')\n"
                               "    x = input.contiguous()\n", 1)


def test_the_tier_of_a_case_is_read_from_its_inputs():
    x = torch.randn(8, 16)
    assert tier_of(Case("plain", x)) == CORE
    assert case_traits(Case("transposed", x.t())) == ["non_contiguous"]
    assert case_traits(Case("broadcast", torch.randn(1, 16).expand(8, 16))) == ["non_contiguous"]
    assert case_traits(Case("empty", torch.randn(0, 16))) == ["empty_or_0d"]
    assert case_traits(Case("scalar", torch.tensor(1.0))) == ["empty_or_0d"]
    assert case_traits(Case("nan", torch.tensor([1.0, float("nan")]))) == ["nan_inf"]
    assert case_traits(Case("out", x, out=torch.empty_like(x))) == ["inplace_out"]
    assert case_traits(Case("inplace", x, inplace=True)) == ["inplace_out"]
    assert case_traits(Case("negative dim", x, dim=-1)) == ["negative_dim"]
    assert case_traits(Case("huge", x * 1e7)) == ["extreme_magnitude"]
    assert case_traits(Case("tiny", x * 1e-9)) == ["tiny_values"]
    assert case_traits(Case("a few tiny among many", torch.cat([x.flatten(), torch.full((4,), 1e-9)]))) == []


def test_a_task_file_declares_its_core_dtypes_kwargs_and_exceptions():
    class Declared:
        CORE_DTYPES = ["float32"]
        CORE_KWARGS = {"dim"}
        TIERS = {"ranges-the-rule-cannot-see": EDGE, "tiny-strided": CORE}
    x = torch.randn(4, 4)
    assert tier_of(Case("f32", x, dim=1), Declared) == CORE
    assert case_traits(Case("f16", x.half()), Declared) == ["other_dtype"]
    # a dtype asked for is the case's dtype too (rand(4, dtype=torch.float16)); an int one is not a float's
    class AsksDtype(Declared):
        CORE_KWARGS = {"dim", "dtype"}
    assert case_traits(Case("asked-f16", 4, dtype=torch.float16), AsksDtype) == ["other_dtype"]
    assert tier_of(Case("asked-f32", 4, dtype=torch.float32), AsksDtype) == CORE
    assert tier_of(Case("asked-int", x, dtype=torch.int64), AsksDtype) == CORE
    assert case_traits(Case("keepdim", x, keepdim=True), Declared) == ["other_kwargs"]
    assert case_traits(Case("ranges-the-rule-cannot-see", x * 700), Declared) == ["declared_edge"]
    assert tier_of(Case("tiny-strided", x.t()), Declared) == CORE


def test_a_kernel_right_on_core_cases_that_raises_on_a_transposed_input_gets_partial_credit():
    out = score([[RELU, CONTIGUOUS_ONLY]], ["Activation/relu.py"], perf=False)
    honest, partial = out["results"][0]
    assert honest["verdict"] == "ok" and honest["exe_core"] and honest["case_pass_fraction"] == 1.0
    assert partial["exe"] == "error" and partial["exe_core"] is True
    assert "only contiguous inputs" in partial["detail"]
    assert 0.0 < partial["case_pass_fraction"] < 1.0
    assert out["exe_rate"] == 0.5 and out["exe_core_rate"] == 1.0 and 0.5 < out["case_pass_rate"] < 1.0
    assert out["failure_causes"] == {"non_contiguous": 1}
    assert out["exe_core_rate/Activation"] == 1.0 and "fast_1_core" in out


def test_every_case_is_judged_and_the_failing_ones_are_named_with_their_tier(tmp_path):
    import json

    from conftest import run_cli, write_jsonl
    preds = write_jsonl(tmp_path / "p.jsonl", [{"file": "Activation/relu.py", "predict": CONTIGUOUS_ONLY}])
    proc = run_cli("eval", str(preds), "--out", str(tmp_path / "out"), "--no-perf")
    [job] = json.loads((tmp_path / "out" / "metrics.json").read_text())
    failed = [c for c in job["cases"] if c["status"] != "ok"]
    assert failed and all(c["tier"] == EDGE and c["status"] == "error" and "non_contiguous" in c["traits"]
                          for c in failed)
    assert any(c["label"] == "transposed" for c in failed), [c["label"] for c in failed]
    assert job["cases_passed"]["core"] == job["cases_total"]["core"] > 0
    assert job["cases_passed"]["edge"] < job["cases_total"]["edge"]
    assert job["exe_ok"] is False and job["exe_core_ok"] is True
    header = next(line for line in proc.stdout.splitlines() if line.startswith("category"))
    assert header.split()[:6] == ["category", "jobs", "call", "exe", "exe_core", "cases"]
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["failure_causes"] == {"non_contiguous": 1} and summary["exe_core_rate"] == 1.0


# -- discrimination: "contiguous-only" variants pass core and fail edge ---------------------------

GATED = ["Activation/relu.py", "Activation/gelu.py", "Math/add.py", "Math/exp_sqrt.py", "Math/softmax.py",
         "Math/log1p.py", "Reduce/sum.py", "Reduce/mean.py", "Loss/mse_loss.py", "Index/index_select.py",
         "Index/permute_copy.py", "Pooling/avg_pool1d.py", "SpatialOps/interpolate.py", "Convolution/conv2d.py"]


def contiguous_only(task_id: str) -> str:
    """The bundled solution with its entry wrapped to refuse strided or empty tensor arguments: right
    on ordinary inputs, raising on the edge cases a model that assumes dense inputs gets wrong."""
    from harness.task import get_task
    entry = get_task(task_id).entry
    return ((ROOT / "solutions" / task_id).read_text()
            + f"\n\n_dense_only = {entry}\n\n\ndef {entry}(*args, **kwargs):\n"
            "    for value in list(args) + list(kwargs.values()):\n"
            "        if isinstance(value, torch.Tensor) and (not value.is_contiguous() or value.numel() == 0):\n"
            "            raise ValueError('contiguous, non-empty tensors only')\n"
            "    return _dense_only(*args, **kwargs)\n")


def test_contiguous_only_variants_pass_core_and_fail_edge(tmp_path):
    import json

    from conftest import run_cli, write_jsonl
    rows = [{"file": task_id, "predict": contiguous_only(task_id)} for task_id in GATED]
    run_cli("eval", str(write_jsonl(tmp_path / "p.jsonl", rows)), "--out", str(tmp_path / "out"), "--no-perf", "-q")
    jobs = {job["task_id"]: job for job in json.loads((tmp_path / "out" / "metrics.json").read_text())}
    assert len({task.split("/")[0] for task in GATED}) >= 8
    for task_id in GATED:
        job = jobs[task_id]
        assert job["exe_core_ok"] is True, (task_id, job["exe"])
        assert job["exe_ok"] is False, task_id
        failed = [c for c in job["cases"] if c["status"] != "ok"]
        assert failed and all(c["tier"] == EDGE for c in failed), (task_id, failed)


def test_every_task_has_core_cases_and_valid_declarations():
    from harness.task import all_tasks
    for task in all_tasks().values():
        assert all(hasattr(torch, d) for d in getattr(task.module, "CORE_DTYPES", [])), task.id
        core = [c.label for c in task.correctness_cases(0) if tier_of(c, task.module) == CORE]
        assert len(core) >= 3, (task.id, core)
        declared = getattr(task.module, "TIERS", {})
        labels = {c.label for c in task.correctness_cases(0)}
        assert set(declared) <= labels and set(declared.values()) <= {CORE, EDGE}, (task.id, declared)


def test_a_worker_that_dies_keeps_the_cases_it_finished(tmp_path):
    import json

    from conftest import run_cli, write_jsonl
    dies_on_transposed = RELU.replace("    x = input.contiguous()\n",
                                      "    if input.dim() == 2 and input.stride(0) == 1 and input.shape[0] > 1:\n"
                                      "        import faulthandler\n"
                                      "        faulthandler._sigsegv()\n"
                                      "    x = input.contiguous()\n", 1)
    preds = write_jsonl(tmp_path / "p.jsonl", [{"file": "Activation/relu.py", "predict": dies_on_transposed}])
    run_cli("eval", str(preds), "--out", str(tmp_path / "out"), "--no-perf", "-q")
    [job] = json.loads((tmp_path / "out" / "metrics.json").read_text())
    assert job["verdict"] == "crashed", job["exe"]
    labels = [c["label"] for c in job["cases"]]
    assert labels and "transposed" not in labels and all(c["status"] == "ok" for c in job["cases"])
    assert job["cases_passed"]["core"] > 0 and not job["exe_core_ok"]


def test_a_case_whose_answer_is_one_value_or_empty_needs_no_launch_others_do():
    """A wrapper may return a filled or empty buffer without launching (attention over no keys,
    dropout with p=1, a power with exponent 0, a sum over an empty dim: a fill is an allowed op and a
    dummy launch would gain it nothing); any answer of several values from non-empty inputs needs one,
    and so does NaN throughout (it never compares equal to itself)."""
    from harness.invoke import CallRecord
    from harness.run.judge import _has_work
    from harness.taskdef import Case
    q, no_keys = torch.randn(1, 1, 8, 16), torch.randn(1, 1, 0, 16)
    case = Case("empty-keys", q, no_keys, no_keys)
    record = lambda out: CallRecord(out, [], {}, [None])  # noqa: E731
    assert not _has_work(case, record(torch.zeros(1, 1, 8, 16)))
    assert not _has_work(case, record((torch.zeros(3), torch.empty(0))))
    assert not _has_work(Case("empty", torch.empty(0, 4)), record(torch.full((4,), 7.0)))
    assert not _has_work(case, record(torch.full((1, 1, 8, 16), 1e-30)))
    assert not _has_work(case, record((torch.zeros(3), torch.ones(1))))
    assert _has_work(case, record((torch.zeros(3), torch.tensor([1.0, 1e-30]))))
    assert _has_work(case, record(torch.arange(4.0)))
    assert _has_work(case, record(torch.full((2,), float("nan"))))
    assert _has_work(Case("no tensors", 5), record(torch.rand(5)))
