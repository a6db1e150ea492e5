"""Triton compile times per job (issue 14's breakdown): the worker's listener counts real compiles,
not cache hits; the parent keeps only well-formed figures and sums a job's processes; the summary
sums the jobs."""

from __future__ import annotations

import os

import pytest
import triton
import triton.language as tl

from harness.report.summary import triton_compile_totals
from harness.run.compile_times import merged_compile_times
from harness.sandbox.compile_times import CompileTimes, compile_summary
from harness.verdicts import JobResult, StageResult


@triton.jit
def _scale_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2.0, mask=offs < n)


def _compile_for_sm90(fn):
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    return triton.compile(ASTSource(fn=fn, signature={"x_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"},
                             constexprs={"BLOCK": 128}), target=GPUTarget("cuda", 90, 32))


def test_the_listener_counts_compiles_and_not_cache_hits(tmp_path, monkeypatch):
    from triton import knobs
    if not hasattr(getattr(knobs, "compilation", None), "listener"):
        pytest.skip(f"Triton {triton.__version__} has no compilation listener (3.4 and later do)")
    monkeypatch.setenv("TRITON_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("TRITON_INTERPRET", raising=False)
    times = CompileTimes()
    before = knobs.compilation.listener
    try:
        assert times.install() and knobs.compilation.listener is times
        _compile_for_sm90(_scale_kernel)   # compiled: a fresh cache
        _compile_for_sm90(_scale_kernel)   # a cache hit: not counted
    finally:
        knobs.compilation.listener = before
    summary = compile_summary(times.kernels)
    assert summary["compiles"] == 1 and list(summary["kernels"]) == ["_scale_kernel"]
    count, seconds = summary["kernels"]["_scale_kernel"]
    assert count == 1 and 0 < seconds == summary["seconds"] < 120
    assert os.listdir(tmp_path)  # (it did compile into the cache it was given)
    # entries planted by the submission (it can reach the listener) are left out, not run
    class Sneaky(float):
        def __round__(self, n=None):
            raise AssertionError("the submission's code ran as the worker reported")
    times.kernels.update({"planted": [1, Sneaky(2.0)], 7: [1, 1.0], "short": [1]})
    assert compile_summary(times.kernels) == summary


def test_the_parent_sums_processes_and_drops_malformed_figures():
    good = {"triton_compile": {"seconds": 3.0, "compiles": 3, "kernels": {"k": [2, 2.0], "j": [1, 1.0]}}}
    other = {"triton_compile": {"kernels": {"k": [1, 0.5], "bad_count": [1.5, 1.0], "bad_seconds": [1, float("nan")],
                                            "negative": [1, -2.0], "short": [1], 7: [1, 1.0], "boolean": [True, 1.0]}}}
    merged = merged_compile_times([good, other, None, {"triton_compile": "text"}, {"calls": 2}])
    assert merged == {"seconds": 3.5, "compiles": 4, "kernels": {"j": [1, 1.0], "k": [3, 2.5]}}
    assert merged_compile_times([{"calls": 1}, None]) is None  # the interpreter: no figures at all
    many = {"triton_compile": {"kernels": {f"k{i}": [1, 1.0] for i in range(500)}}}
    assert len(merged_compile_times([many])["kernels"]) <= 64


def test_the_summary_sums_the_jobs_that_reported():
    def job(info: dict) -> JobResult:
        ok = StageResult("ok", "")
        return JobResult(key="k", task_id="Activation/relu.py", category="Activation", sample_id=0, source="s",
                         code_sha="c", call=ok, exe=ok, perf=StageResult("skipped", ""), mode="gpu", seconds=1.0,
                         info=info, perf_metrics={}, quality={}, cases=[])
    jobs = [job({"triton_compile": {"seconds": 1.5, "compiles": 2, "kernels": {}}}),
            job({"triton_compile": {"seconds": 0.5, "compiles": 1, "kernels": {}}}), job({})]
    assert triton_compile_totals(jobs) == {"seconds": 2.0, "compiles": 3, "jobs": 2}
