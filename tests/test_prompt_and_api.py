"""Prompts route back to their task; pass@k and the flat metric dict."""

from __future__ import annotations

from harness.api import metric_dict, pass_at_k
from harness.prompt import build_prompt
from harness.run.submissions import DESCRIPTION_MARKER, ENTRY_MARKER, route_instruction
from harness.task import all_tasks
from harness.verdicts import JobResult, StageResult


def test_every_prompt_has_the_markers_and_routes_to_its_task():
    for task in all_tasks().values():
        prompt = build_prompt(task)
        assert DESCRIPTION_MARKER in prompt and ENTRY_MARKER in prompt
        assert task.signature in prompt and "```python" in prompt
        assert route_instruction(prompt) == task.id, task.id


def test_pass_at_k():
    assert pass_at_k(5, 0, 1) == 0.0
    assert pass_at_k(5, 5, 1) == 1.0
    assert abs(pass_at_k(4, 1, 1) - 0.25) < 1e-12
    assert abs(pass_at_k(4, 1, 2) - 0.5) < 1e-12  # 1 - C(3,2)/C(4,2)


def _result(task_id: str, ok: bool) -> JobResult:
    stage = StageResult("ok" if ok else "wrong", "" if ok else "case x: differs")
    return JobResult(key=task_id, task_id=task_id, category=task_id.split("/")[0], sample_id=0, source="s",
                     code_sha="0", call=StageResult("ok"), exe=stage, perf=StageResult("skipped", "no GPU"),
                     mode="interpreter")


def test_metric_dict_pass_at_k_and_categories():
    results = [[_result("Activation/gelu.py", True), _result("Activation/gelu.py", False)],
               [_result("Loss/mse_loss.py", False), _result("Loss/mse_loss.py", False)]]
    summary = {"call_rate": 1.0, "exe_rate": 0.25, "exe_core_rate": 0.25, "case_pass_rate": 0.25,
               "failure_causes": {"wrong_values": 3}, "mode": "interpreter", "seed": 0, "perf": "skipped (no GPU)"}
    out = metric_dict(summary, results, ["gelu", "mse_loss"])
    assert out["pass@1"] == 0.25
    assert out["exe_rate/Activation"] == 0.5 and out["exe_rate/Loss"] == 0.0
    assert [s["verdict"] for s in out["results"][1]] == ["wrong", "wrong"]
    assert "pass@5" not in out


def test_metric_dict_reports_the_requested_k_and_each_sample_cases():
    results = [[_result("Activation/gelu.py", ok) for ok in (True, False, False)]]
    results[0][0].cases = [{"label": "edge", "tier": "edge", "config": 0, "status": "ok", "reason": "", "traits": []}]
    summary = {"call_rate": 1.0, "exe_rate": 1 / 3, "exe_core_rate": 1 / 3, "case_pass_rate": 1 / 3,
               "failure_causes": {}, "mode": "interpreter", "seed": 0, "perf": "skipped (no GPU)"}
    out = metric_dict(summary, results, ["gelu"], k=[2, 3, 4])
    assert out["pass@2"] == round(1 - 1 / 3, 4) and out["pass@3"] == 1.0  # 1 - C(2,2)/C(3,2)
    assert "pass@4" not in out and "pass@1" not in out  # 4 > the 3 samples; 1 was not asked for
    assert out["results"][0][0]["cases"][0]["label"] == "edge"
    # one sample each: pass@1 only when asked for (code_eval's k)
    single = metric_dict(summary, [results[0][:1]], ["gelu"], k=[1])
    assert single["pass@1"] == 1.0 and "pass@1" not in metric_dict(summary, [results[0][:1]], ["gelu"])


def test_score_refuses_a_bad_k_or_worker_count():
    import pytest
    from harness.api import score
    for bad in ({"k": 5}, {"k": [0]}, {"workers": 0}, {"workers": "2"}):
        with pytest.raises(ValueError):
            score(["x"], ["gelu"], **bad)


def test_predictions_that_are_not_strings_are_one_sample_each_with_its_own_verdict():
    """None (a failed generation), bytes or a dict is one sample refused with a verdict naming its
    type, never a crash of the batch nor one sample per byte or key; a task named by a non-string
    is that sample's error too. Only a list or tuple holds several samples."""
    from harness.api import evaluate_code
    summary, results = evaluate_code([None, b"abcd", {"code": "x"}, ["", None], "def relu(x): pass"],
                                     ["relu", "relu", "relu", "relu", 5], perf=False)
    assert [len(r) for r in results] == [1, 1, 1, 2, 1]
    details = [job.call.detail for r in results for job in r]
    assert "type NoneType, not a string" in details[0] and "type bytes" in details[1] and "type dict" in details[2]
    assert "empty code" in details[3] and "type NoneType" in details[4]
    assert "type int, not a string" in details[5]
    assert all(job.call.status == "error" for r in results for job in r) and summary["jobs"] == 6
