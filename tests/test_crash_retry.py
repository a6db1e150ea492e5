"""A worker that dies of a native fault during call or exe on a GPU is evaluated once more (the
fault can be a library's or the profiler's, not the submission's); the second verdict is final and
the first crash stays on record. Other endings, and interpreter runs, are never retried."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from harness.config import GPU, INTERPRETER, StageLimits
from harness.run.runner import Evaluator, native_crash
from harness.verdicts import CRASHED, OK, SKIPPED, WRONG, JobResult, StageResult

SEGV = "worker died: segmentation fault (SIGSEGV) during call"


def _result(call: StageResult, exe: StageResult, signal: str | None = None) -> JobResult:
    info = {"worker_signal": signal} if signal else {}
    return JobResult(key="k", task_id="Activation/relu.py", category="Activation", sample_id=0, source="s",
                     code_sha="c", call=call, exe=exe, perf=StageResult(SKIPPED, "perf not requested"),
                     mode="interpreter", info=info)


CRASH_IN_CALL = (StageResult(CRASHED, SEGV), StageResult(SKIPPED, "call did not pass"), "SIGSEGV")
CRASH_IN_EXE = (StageResult(OK), StageResult(CRASHED, "worker died: bus error (SIGBUS) during exe"), "SIGBUS")
KILLED = (StageResult(CRASHED, "worker died: killed (out of memory?) (SIGKILL) during call"),
          StageResult(SKIPPED, "call did not pass"), "SIGKILL")
EXITED = (StageResult(CRASHED, "worker exited with code 0 during call without reporting"),
          StageResult(SKIPPED, "call did not pass"), None)
PASSED = (StageResult(OK), StageResult(OK), None)
WRONG_ONCE = (StageResult(OK), StageResult(WRONG, "elements differ"), None)


def _evaluator_with(outcomes: list[tuple], mode: str = GPU) -> tuple[Evaluator, list]:
    """A runner whose evaluations end as ``outcomes`` say, one after the other."""
    runner = Evaluator.__new__(Evaluator)
    runner.config, runner.mode = SimpleNamespace(limits=StageLimits.with_timeout(10)), mode
    calls: list = []

    def once(job, slot, limits, admission, alone):
        calls.append(admission)
        return _result(*outcomes[len(calls) - 1]), None
    runner._evaluate_once = once
    return runner, calls


@pytest.mark.parametrize("first", [CRASH_IN_CALL, CRASH_IN_EXE])
def test_a_native_crash_is_evaluated_once_more_and_stays_on_record(first):
    runner, calls = _evaluator_with([first, PASSED])
    result = runner.evaluate(SimpleNamespace(error=None), None)
    assert len(calls) == 2 and calls[1] is None  # the retry takes its own slots
    assert result.verdict == OK
    assert "(SIGSEGV)" in result.info["retried_after_crash"] or "(SIGBUS)" in result.info["retried_after_crash"]


def test_a_second_crash_is_final():
    runner, calls = _evaluator_with([CRASH_IN_CALL, CRASH_IN_CALL, PASSED])
    result = runner.evaluate(SimpleNamespace(error=None), None)
    assert len(calls) == 2 and result.verdict == CRASHED
    assert result.info["retried_after_crash"].startswith(SEGV)


@pytest.mark.parametrize("first", [KILLED, EXITED, PASSED, WRONG_ONCE])
def test_other_endings_are_not_retried(first):
    runner, calls = _evaluator_with([first, PASSED])
    result = runner.evaluate(SimpleNamespace(error=None), None)
    assert len(calls) == 1 and "retried_after_crash" not in result.info
    assert native_crash(_result(*first)) is None


def test_the_interpreter_does_not_retry():
    runner, calls = _evaluator_with([CRASH_IN_CALL, PASSED], mode=INTERPRETER)
    result = runner.evaluate(SimpleNamespace(error=None), None)
    assert len(calls) == 1 and result.verdict == CRASHED and "retried_after_crash" not in result.info


def test_a_run_that_crashed_after_a_case_of_tampering_earns_no_partial_credit():
    """Partial credit counts the cases a crashed or timed-out run finished; none when one of them
    was an integrity failure (as none when a stage is)."""
    result = _result(*CRASH_IN_EXE)
    result.cases = [{"label": "a", "tier": "core", "status": OK}, {"label": "b", "tier": "core", "status": OK}]
    assert result.case_pass_fraction == 1.0
    result.cases.append({"label": "c", "tier": "edge", "status": "integrity"})
    assert result.case_pass_fraction == 0.0
