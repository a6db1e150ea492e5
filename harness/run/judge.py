"""Turn what a worker did into stage verdicts (runs in the trusted parent)."""

from __future__ import annotations

from pathlib import Path

import torch

from harness import protocol
from harness.compare import judge_call
from harness.invoke import CallRecord, move_like_reference
from harness.run.process import WorkerOutcome
from harness.task import Task
from harness.taskdef import Case, tensor_leaves
from harness.verdicts import (CRASHED, ERROR, HARNESS_ERROR, INTEGRITY, OK, SKIPPED, TIMEOUT, WRONG,
                              StageResult)


def _not_run(reason: str) -> StageResult:
    return StageResult(SKIPPED, reason)


def judge_worker(task: Task, outcome: WorkerOutcome, cases: list[Case], expected: list[CallRecord],
                 job_dir: Path) -> tuple[StageResult, StageResult]:
    """(call, exe) verdicts for one worker run."""
    report = outcome.report
    if outcome.timed_out:
        return _failed_at(outcome.stage, StageResult(TIMEOUT, f"{outcome.stage} stage exceeded its time limit"))
    if report is None:
        detail = outcome.crash_reason()
        if outcome.stderr_tail.strip():
            detail += "\n" + outcome.stderr_tail.strip()[-1000:]
        return _failed_at(outcome.stage, StageResult(CRASHED, detail))
    status, stage = report.get("status"), report.get("stage")
    detail = str(report.get("detail", ""))
    if report.get("case"):
        detail = f"case {report['case']}" + (f" with config {report['config']}" if report.get("config") else "") + f":\n{detail}"
    if status == HARNESS_ERROR:
        return StageResult(HARNESS_ERROR, detail), _not_run("harness error")
    if status in (ERROR, INTEGRITY):
        return _failed_at(stage, StageResult(status, detail))
    if status != protocol.RAN:
        return _failed_at(stage, StageResult(ERROR, f"unexpected worker report {status!r}"))
    return StageResult(OK), judge_outputs(task, cases, expected, job_dir, report.get("configs") or [""])


def _failed_at(stage: str | None, result: StageResult) -> tuple[StageResult, StageResult]:
    if stage in protocol.CALL_STAGES or stage is None:
        return result, _not_run("call did not pass")
    return StageResult(OK), result


def judge_outputs(task: Task, cases: list[Case], expected: list[CallRecord], job_dir: Path,
                  configs: list[str]) -> StageResult:
    """exe: integrity (Triton did the work) and numerics, for every case under every config."""
    try:
        records = torch.load(job_dir / protocol.OUTPUTS_FILE, weights_only=True, map_location="cpu")
    except Exception as exc:  # noqa: BLE001 - a submission may have tampered with the file
        return StageResult(INTEGRITY, f"worker outputs unreadable ({type(exc).__name__}: {exc})")
    if not isinstance(records, list) or len(records) != len(cases) * len(configs):
        return StageResult(INTEGRITY, "worker outputs incomplete or malformed")
    for rec in records:
        index, cfg = rec["case"], rec["config"]
        where = f"case {cases[index].describe()}" + (f" with config {configs[cfg]}" if configs[cfg] else "")
        if rec["launches"] == 0 and _has_work(cases[index], expected[index]):
            return StageResult(INTEGRITY, f"no_triton_launch - no Triton kernel was launched in {where}")
        if rec["torch_ops"]:
            ops = ", ".join(rec["torch_ops"][:4])
            return StageResult(INTEGRITY, f"torch_fallback:{rec['torch_ops'][0]} - the wrapper ran PyTorch compute ({ops}) in {where}")
    for rec in records:
        index, cfg = rec["case"], rec["config"]
        ref = expected[index]
        cand = move_like_reference(rec, ref)
        msg = judge_call(cand, ref, task.tolerances, task.custom_check, cases[index])
        if msg:
            where = f"case {cases[index].describe()}" + (f" with config {configs[cfg]}" if configs[cfg] else "")
            return StageResult(WRONG, f"{where}: {msg}")
    return StageResult(OK)


def _has_work(case: Case, expected: CallRecord) -> bool:
    """Whether a correct wrapper must launch a kernel: not when the expected output is empty, nor
    when every input is empty (filling a freshly allocated result, e.g. the sum over an empty dim, is
    allocation); yes for non-empty outputs made from non-empty inputs, or from no tensors at all
    (random numbers, ranges)."""
    inputs = tensor_leaves(list(case.args) + [v for k, v in case.kwargs.items() if not k.startswith("out")])
    outputs = tensor_leaves(expected.output)
    if outputs and all(t.numel() == 0 for t in outputs):
        return False
    return not inputs or any(t.numel() > 0 for t in inputs)
