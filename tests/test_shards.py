"""A job spread over several worker processes (harness/run/shards.py) gets exactly the verdicts it
gets in one: the same case verdicts in the same order, the same failure, partial credit kept, no
partial credit after an integrity failure in any share. Plus the pieces: how cases are split, how
outcomes merge, how process slots are taken."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
import torch

from conftest import ROOT
from harness import protocol
from harness.api import Evaluator
from harness.run.process import WorkerOutcome
from harness.run.shards import ProcessSlots, cheapest_first, merge_outcomes, shares_wanted, split_cases
from harness.task import get_task
from harness.taskdef import tensor_leaves
from harness.tiers import case_traits

RELU = (ROOT / "solutions" / "Activation" / "relu.py").read_text()
TASK = "Activation/relu.py"

# A ReLU with a kernel of its own, made wrong in one place or another by the wrapper below it.
_KERNEL = '''
import os
import torch
import triton
import triton.language as tl


@triton.jit
def _relu(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, tl.where(x > 0, x, 0.0), mask=mask)


def _run(x, n):
    y = torch.full_like(x, float("nan"))
    if n > 0:
        _relu[(triton.cdiv(n, 256),)](x, y, n, BLOCK=256)
    return y


def _finish(input, y, inplace):
    if inplace:
        input.copy_(y)
        return input
    return y
'''
# misses the last element of every 2-D input (cases in the second and third shares, some in the first)
WRONG_ON_2D = _KERNEL + '''
def relu(input, inplace=False):
    x = input.contiguous()
    n = x.numel() - (1 if x.dim() == 2 and x.numel() > 1 else 0)
    return _finish(input, _run(x, n), inplace)
'''
# the process dies at the first non-contiguous input ("strided", the last case of the second share)
CRASH_ON_STRIDED = _KERNEL + '''
def relu(input, inplace=False):
    if not input.is_contiguous():
        os._exit(7)
    x = input.contiguous()
    return _finish(input, _run(x, x.numel()), inplace)
'''
# PyTorch does the work for 3-D inputs (a case of the second share): an integrity failure
TORCH_ON_3D = _KERNEL + '''
def relu(input, inplace=False):
    if input.dim() == 3:
        _run(input.contiguous(), input.numel())  # a launch, for show
        return torch.relu(input)
    x = input.contiguous()
    return _finish(input, _run(x, x.numel()), inplace)
'''
# the bundled solution, but a process that gets a 3-D input (the second share's) first sleeps a while
SLOW_ON_3D = RELU + '''
import time as _time

_bundled_relu = relu


def relu(input, inplace=False):
    if input.dim() == 3:
        _time.sleep(2.0)
    return _bundled_relu(input, inplace)
'''


@pytest.fixture(scope="module")
def evaluators():
    with Evaluator(perf=False, workers=3, shards=3, timeout=120) as sharded, \
            Evaluator(perf=False, workers=1, shards=1, timeout=120) as single:
        yield sharded, single


def _both(evaluators, code: str) -> tuple[dict, dict]:
    sharded, single = evaluators
    a, b = sharded.submit(TASK, code), single.submit(TASK, code)
    return a.result(timeout=600), b.result(timeout=600)


def _case_verdicts(record: dict) -> list[tuple]:
    return [(c["label"], c["config"], c["tier"], c["status"]) for c in record["cases"]]


@pytest.mark.parametrize("name, code, verdict", [
    ("right", RELU, "ok"),
    ("wrong on 2-D inputs", WRONG_ON_2D, "wrong"),
    ("crashes on a strided input", CRASH_ON_STRIDED, "crashed"),
    ("PyTorch on a 3-D input", TORCH_ON_3D, "integrity"),
])
def test_a_job_in_three_processes_gets_the_verdicts_it_gets_in_one(evaluators, name, code, verdict):
    sharded, single = _both(evaluators, code)
    assert sharded["info"]["processes"] == 3 and single["info"]["processes"] == 1
    assert sharded["verdict"] == single["verdict"] == verdict, (sharded["exe"], single["exe"])
    assert _case_verdicts(sharded) == _case_verdicts(single)
    assert sharded["cases_passed"] == single["cases_passed"]
    shares = split_cases(len(get_task(TASK).correctness_cases(0)), 3)
    if verdict == "wrong":  # failing cases lie in more than one share, passing ones too
        statuses = [c["status"] for c in sharded["cases"]]
        for status in ("wrong", "ok"):
            assert sum(status in [statuses[i] for i in share] for share in shares) >= 2, (shares, statuses)
    assert (sharded["call"]["status"], sharded["exe"]["status"]) == (single["call"]["status"], single["exe"]["status"])
    if verdict == "crashed":  # partial credit: the cases each share finished before its death
        strided = [not case.args[0].is_contiguous() for case in get_task(TASK).correctness_cases(0)]
        finished = sum(next((n for n, i in enumerate(share) if strided[i]), len(share)) for share in shares)
        assert len(sharded["cases"]) == finished > 0 and "segmentation" not in sharded["call"]["detail"]
        assert "exited with code 7" in sharded["call"]["detail"] + sharded["exe"]["detail"]
    if verdict == "integrity":  # found in the second share, it decides the job
        assert "torch_fallback" in sharded["exe"]["detail"] and "outliers-3d" in sharded["exe"]["detail"]


def test_cases_are_split_into_contiguous_balanced_shares():
    for n in range(0, 30):
        for k in range(1, 10):
            shares = split_cases(n, k)
            assert [i for share in shares for i in share] == list(range(n))
            sizes = [len(s) for s in shares]
            assert len(shares) == (max(1, min(k, n)) if n else 1)
            assert max(sizes) - min(sizes) <= 1


def test_how_many_processes_a_job_wants():
    assert shares_wanted(80.0, 10.0, 18) == 8          # a long job: by its expected time
    assert shares_wanted(30.0, 10.0, 18) == 3
    assert shares_wanted(5.0, 10.0, 18) == 1           # short: one process
    assert shares_wanted(80.0, 10.0, 3) == 1           # too few cases to share
    assert shares_wanted(80.0, 10.0, 6) == 3           # at least two cases per process
    assert shares_wanted(float("inf"), 1.0, 12, limit=3) == 3


def test_expected_job_seconds_come_from_this_gpu_first_then_from_another(tmp_path):
    import json
    from harness.perf.golden import JOB_SECONDS_FILE, expected_job_seconds
    for gpu, seconds in {"gpu_a": {"A/x.py": 5.0}, "gpu_b": {"A/x.py": 50.0, "A/y.py": 7.0}}.items():
        (tmp_path / gpu).mkdir()
        (tmp_path / gpu / JOB_SECONDS_FILE).write_text(json.dumps({"seconds": seconds}))
    assert expected_job_seconds(tmp_path / "gpu_a") == {"A/x.py": 5.0, "A/y.py": 7.0}
    assert expected_job_seconds(tmp_path / "gpu_c") == {"A/x.py": 5.0, "A/y.py": 7.0}  # none of its own
    assert expected_job_seconds(tmp_path / "missing_root" / "gpu") == {}
    # every bundled task has seconds measured on some GPU (a new task: benchmarks/job_seconds.py)
    from harness.task import all_tasks
    from harness.perf.golden import golden_root
    known = expected_job_seconds(golden_root() / "h200")
    assert not [t for t in all_tasks() if t not in known]


def _outcome(status: str | None, calls: list[tuple[int, int]], stage: str = protocol.EXE, **kw) -> WorkerOutcome:
    events = [{"event": protocol.CALL_DONE, "index": i, "facts": [case, cfg, 1, [], None, None]}
              for i, (case, cfg) in enumerate(calls)]
    report = None if status is None else {"event": protocol.REPORT, "status": status, "calls": len(calls),
                                          "configs": ["a", "b"], "triton_kernels": [f"k{len(calls)}"]}
    return WorkerOutcome(stage=stage, report=report, calls=events,
                         call_files=[Path(f"/dev/null/{case}-{cfg}") for case, cfg in calls], **kw)


def test_merged_outcome_covers_every_call_in_one_workers_order():
    main = _outcome(protocol.RAN, [(0, 0), (1, 0), (0, 1), (1, 1)])
    other = _outcome(protocol.RAN, [(2, 0), (3, 0), (2, 1), (3, 1)])
    merged = merge_outcomes([main, other])
    assert [tuple(c["facts"][:2]) for c in merged.calls] == [(0, 0), (1, 0), (2, 0), (3, 0), (0, 1), (1, 1), (2, 1), (3, 1)]
    assert [p.name for p in merged.call_files] == ["0-0", "1-0", "2-0", "3-0", "0-1", "1-1", "2-1", "3-1"]
    assert merged.report["status"] == protocol.RAN and merged.report["calls"] == 8
    assert merged.report["triton_kernels"] == ["k4"] and merged.protocol_error is None


def test_config_passes_of_processes_merge_pin_by_pin():
    """A process that pinned an autotuner it built during a call ran more passes than the others:
    the merged report lists every pass, each naming the pins any process made in it."""
    a = _outcome(protocol.RAN, [(0, 0), (0, 1)])
    b = _outcome(protocol.RAN, [(1, 0)])
    a.report["configs"] = ["k[BLOCK=256]; f[BLOCK=64]", "k[BLOCK=1024]; f[BLOCK=64]"]
    b.report["configs"] = ["k[BLOCK=256]; g[BLOCK=32]"]
    merged = merge_outcomes([a, b])
    assert merged.protocol_error is None and merged.report["calls"] == 3
    assert merged.report["configs"] == ["k[BLOCK=256]; f[BLOCK=64]; g[BLOCK=32]", "k[BLOCK=1024]; f[BLOCK=64]"]


def test_the_judge_takes_only_whole_config_passes():
    """Each case once in passes 0..k-1, the same k in one process, the largest k the configs
    reported; processes may differ in k (an autotuner built during a call, in one of them)."""
    from harness.run.judge import _passes_not_whole
    from harness.run.reference import PassInputs

    def inputs(shares):
        return PassInputs([None] * 4, [None] * 4, lambda c: [None] * 4, lambda c: [None] * 4, shares)

    def calls(*pairs):
        return [{"facts": [case, cfg, 1, [], None, None]} for case, cfg in pairs]

    whole = calls((0, 0), (1, 0), (2, 0), (3, 0), (0, 1), (1, 1), (2, 1), (3, 1))
    assert _passes_not_whole(whole, inputs(None), 2) is None
    assert "in 1 config pass" in _passes_not_whole(whole, inputs(None), 1)      # more passes than reported
    assert "different numbers" in _passes_not_whole(whole[:-1], inputs(None), 2)  # a call missing
    assert "case 3" in _passes_not_whole(whole[:3] + whole[4:], inputs(None), 2)  # its first pass's call missing
    assert "case 0" in _passes_not_whole(whole + calls((0, 1)), inputs(None), 2)  # one twice
    assert "case 1" in _passes_not_whole(calls((0, 0), (1, 1), (2, 0), (3, 0)), inputs(None), 2)  # pass 0 skipped
    uneven = calls((0, 0), (1, 0), (2, 0), (3, 0), (0, 1), (1, 1))
    assert "different numbers" in _passes_not_whole(uneven, inputs(None), 2)     # one process: the same k
    assert _passes_not_whole(uneven, inputs([[0, 1], [2, 3]]), 2) is None          # two processes may differ
    assert "different numbers" in _passes_not_whole(uneven, inputs([[0, 2], [1, 3]]), 2)
    assert "calls made" in _passes_not_whole(whole + calls((4, 0)), inputs(None), 2)  # a case the task lacks


def test_the_worst_ending_decides_a_merged_outcome():
    ran = _outcome(protocol.RAN, [(0, 0)])
    crashed = _outcome(None, [(1, 0)], stage=protocol.CALL, returncode=-11)
    timed_out = _outcome(None, [], stage=protocol.EXE, timed_out=True)
    integrity = _outcome("integrity", [(3, 0)])
    merged = merge_outcomes([ran, crashed])
    assert merged.report is None and merged.returncode == -11 and merged.stage == protocol.CALL
    assert len(merged.calls) == 2  # what both finished is kept for partial credit
    assert merge_outcomes([ran, crashed, timed_out]).timed_out
    assert merge_outcomes([timed_out, integrity, crashed]).report["status"] == "integrity"


def test_shares_that_disagree_break_the_protocol():
    a, b = _outcome(protocol.RAN, [(0, 0)]), _outcome(protocol.RAN, [(1, 0)])
    b.report["calls"] = 5
    assert "call count" in merge_outcomes([a, b]).protocol_error


def test_process_slots_give_extras_only_when_free_and_make_the_main_one_wait():
    slots = ProcessSlots(4)
    assert slots.take(2) == 3 and slots.free == 1
    assert slots.take(5) == 1 and slots.free == 0
    taken: list[int] = []
    waiter = threading.Thread(target=lambda: taken.append(slots.take(3)))
    waiter.start()
    time.sleep(0.2)
    assert taken == []             # no slot free: the next job waits for one
    slots.give_back(2)
    waiter.join(timeout=5)
    assert taken == [2] and slots.free == 0


def test_a_batch_admits_jobs_in_queue_order_so_the_first_gets_its_shares(tmp_path):
    """Three jobs that each want three processes, three slots: the first in the queue takes all
    three before the others take any, even when getting ready takes it longer than them (on a GPU,
    drawing a long job's cases can), and the others run as slots come back."""
    from harness.config import INTERPRETER, RunConfig
    from harness.run.runner import Evaluator as Runner
    from harness.run.submissions import load_submissions

    gelu = (ROOT / "solutions" / "Activation" / "gelu.py").read_text()
    jobs = load_submissions([(TASK, RELU), ("Activation/gelu.py", gelu), (TASK, WRONG_ON_2D)])
    runner = Runner(RunConfig(out_dir=tmp_path, mode=INTERPRETER, workers=3, shards=3))
    admit = runner.admit

    def slow_for_the_first(job, slot):
        if job is jobs[0]:
            time.sleep(1.0)
        return admit(job, slot)

    runner.admit = slow_for_the_first
    runner.run(jobs)
    first, *others = (runner.results[j.key] for j in jobs)
    assert first.info["processes"] == 3 and first.info["timing"]["slot_wait_s"] < 0.5
    assert [r.verdict for r in (first, *others)] == ["ok", "ok", "wrong"]


@pytest.fixture(scope="module")
def fail_fast_evaluators():
    with Evaluator(perf=False, workers=3, shards=3, timeout=120, fail_fast=True) as sharded, \
            Evaluator(perf=False, workers=1, shards=1, timeout=120, fail_fast=True) as single:
        yield sharded, single


# right wherever Triton does the work, PyTorch's on 3-D inputs (TORCH_ON_3D's kernel is also wrong on NaN)
RIGHT_BUT_TORCH_ON_3D = RELU + '''

_triton_relu = relu


def relu(input, inplace=False):
    if input.dim() == 3:
        _triton_relu(input.clone())  # a launch, for show
        return input.relu_() if inplace else torch.relu(input)
    return _triton_relu(input, inplace)
'''


# wrong on every case with a positive value, and slow (0.3 s a call): fail-fast's stop reaches each
# process long before its last case, however fast the GPU runs the rest (a fast job could finish
# every case of a share while the parent still judged the first wrong one)
WRONG_AND_SLOW = _KERNEL.replace("tl.where(x > 0, x, 0.0)", "tl.where(x > 0, x + 1.0, 0.0)") + '''
import time as _time


def relu(input, inplace=False):
    _time.sleep(0.3)
    x = input.contiguous()
    return _finish(input, _run(x, x.numel()), inplace)
'''


@pytest.mark.parametrize("code, verdict", [(RELU, "ok"), (WRONG_AND_SLOW, "wrong"), (RIGHT_BUT_TORCH_ON_3D, "integrity")])
def test_fail_fast_stops_a_wrong_job_at_a_wrong_case_and_changes_no_verdict(evaluators, fail_fast_evaluators, code,
                                                                             verdict):
    """With fail-fast a wrong job ends at a wrong case, in one process or three (the first share
    to find one stops the others), and is still judged wrong for the same reason; a job that passes,
    or fails for another reason than numbers, runs every case as without it."""
    full, _ = _both(evaluators, code)
    for fast in _both(fail_fast_evaluators, code):
        assert fast["verdict"] == full["verdict"] == verdict, (fast["exe"], full["exe"])
        assert fast["call"]["status"] == full["call"]["status"]
        if verdict != "wrong":
            assert _case_verdicts(fast) == _case_verdicts(full)
            continue
        # every case listed, those not reached as skipped
        statuses = [c["status"] for c in fast["cases"]]
        made = [s for s in statuses if s != "skipped"]
        assert len(made) < len(statuses) == len(full["cases"]) and "wrong" in made
        assert set(statuses) <= {"ok", "wrong", "skipped"}
        assert "fail-fast" in fast["exe"]["detail"] and "differ" in fast["exe"]["detail"]
    if verdict == "wrong":  # in one process: the calls made are the first in cheapest_first's order
        single = _both(fail_fast_evaluators, code)[1]
        task = get_task(TASK)
        cases = task.correctness_cases(0)
        order = [cases[i].label for i in cheapest_first(cases, [None], task.module)[0]]
        status = {c["label"]: c["status"] for c in single["cases"]}
        made = [label for label in order if status[label] != "skipped"]
        assert made == order[:len(made)] and "wrong" in [status[label] for label in made], (order, status)
        assert [c["label"] for c in single["cases"]] == [c.label for c in cases]  # listed in the task's order


def test_fail_fast_judges_a_traced_call_with_the_kernel_names_its_worker_announced(tmp_path):
    """On a GPU each call's facts carry the kernels it ran; judged without the submission's kernel
    names (as fail-fast's test once was) a wrong call ran "no kernel other than PyTorch's", an
    integrity finding, never `wrong`, so fail-fast stopped nothing natively. With the names the
    worker announced at the call stage, the wrong call is wrong."""
    import hashlib

    from harness.bounded_io import save_tensors
    from harness.invoke import call_case
    from harness.run.judge import fails_numerically
    from harness.run.reference import PassInputs
    from harness.taskdef import Case
    task = get_task(TASK)
    cases = [Case("c", torch.linspace(-1, 1, 16))]
    expected = [call_case(task.reference, Case("c", cases[0].args[0].clone()))]
    inputs = PassInputs(cases, expected, lambda c: cases, lambda c: expected)
    wrong = call_case(task.reference, Case("c", cases[0].args[0].clone() + 1.0))
    path = tmp_path / "call.pt"
    save_tensors({"case": 0, "config": 0, **wrong.to_payload()}, path)
    event = {"facts": [0, 0, 1, [], {"_relu_kernel": 1, "void at::native::direct_copy_kernel_cuda": 1}, None],
             "outputs_sha256": hashlib.sha256(path.read_bytes()).hexdigest()}
    assert fails_numerically(task, inputs, event, path, ["_relu_kernel"])
    assert not fails_numerically(task, inputs, event, path, [])            # no names: a library's work, not wrong
    assert not fails_numerically(task, inputs, event, path, "not a list")  # (malformed: the job runs on)
    right = tmp_path / "right.pt"
    save_tensors({"case": 0, "config": 0, **expected[0].to_payload()}, right)
    event["outputs_sha256"] = hashlib.sha256(right.read_bytes()).hexdigest()
    assert not fails_numerically(task, inputs, event, right, ["_relu_kernel"])


def test_fail_fast_calls_core_cases_first_and_smaller_ones_first():
    """The order fail-fast calls a share's cases in: core before edge, fewer input elements first
    (ties in the task's order), over exactly the share's indices."""
    task = get_task("LinearAlgebra/pseudoinverse_svd.py")
    cases = task.correctness_cases(0)
    edge = [bool(case_traits(c, task.module)) for c in cases]
    size = [sum(t.numel() for t in tensor_leaves(list(c.args) + list(c.kwargs.values()))) for c in cases]
    assert any(edge) and not all(edge)
    (order,) = cheapest_first(cases, [None], task.module)
    assert sorted(order) == list(range(len(cases)))
    keys = [(edge[i], size[i], i) for i in order]
    assert keys == sorted(keys) and keys != [(edge[i], size[i], i) for i in range(len(cases))]
    shares = split_cases(len(cases), 3)
    for share, ordered in zip(shares, cheapest_first(cases, shares, task.module)):
        assert sorted(ordered) == share and [(edge[i], size[i]) for i in ordered] == sorted((edge[i], size[i]) for i in share)


def test_one_process_calls_made_out_of_order_are_judged_in_the_task_order():
    called = _outcome(protocol.RAN, [(2, 0), (0, 0), (1, 0), (1, 1), (0, 1)])
    merged = merge_outcomes([called])
    assert [tuple(c["facts"][:2]) for c in merged.calls] == [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1)]
    assert [p.name for p in merged.call_files] == ["0-0", "1-0", "2-0", "0-1", "1-1"]
    in_order = _outcome(protocol.RAN, [(0, 0), (1, 0)])
    assert merge_outcomes([in_order]) is in_order


# Right on every case, but from its third call on it rewrites the saved outputs of its first call (a
# call the parent, with fail-fast, has already judged as it was reported) with values of its choice.
REWRITES_A_JUDGED_CALL = RELU + '''

_triton_relu = relu
_calls = [0]


def relu(input, inplace=False):
    _calls[0] += 1
    if _calls[0] >= 3:
        try:
            torch.save({"forged": torch.zeros(3)}, "call_0.pt")
        except Exception:
            pass
    return _triton_relu(input, inplace)
'''


def test_a_call_judged_early_is_judged_again_from_what_was_saved_when_reported(evaluators, fail_fast_evaluators):
    """fail-fast judges each call as it arrives, but nothing it saw is trusted later: the final
    judgement reads every call again against the SHA-256 its signed event named, so rewriting an
    already judged call's file (if the sandbox lets it) fails the job with or without fail-fast."""
    full = _both(evaluators, REWRITES_A_JUDGED_CALL)[1]
    fast = _both(fail_fast_evaluators, REWRITES_A_JUDGED_CALL)[1]
    assert full["verdict"] != "ok" and fast["verdict"] == full["verdict"], (full["exe"], fast["exe"])


def test_the_wait_for_the_other_shares_is_in_the_job_timing(evaluators):
    # The main process reports first; the job's seconds then include the wait for a slower share,
    # which none of the main process's stages show (the warm evaluator's unexplained ~0.9 s on
    # the H200 was this wait: benchmarks/results/2026-12-04-h200-host-svd).
    sharded, _ = evaluators
    record = sharded.submit(TASK, SLOW_ON_3D).result(timeout=600)
    assert record["verdict"] == "ok" and record["info"]["processes"] == 3
    timing = record["info"]["timing"]
    assert timing["share_wait_s"] >= 1.5, timing
    main = sum(timing[f"{stage}_s"] for stage in ("spawn", "setup", "load", "call", "exe"))
    # the main process's stages, the wait for the others and the reaping make up the job's seconds
    assert abs(record["seconds"] - (main + timing["share_wait_s"] + timing["worker_close_s"])) <= 0.25, (record["seconds"], timing)


@pytest.mark.parametrize("name, task", [("dropout_counter_seed", "Fusion/fused_hardshrink_dropout.py"),
                                        ("rand_philox_offset_per_call", "Random/rand.py")])
def test_random_numbers_fresh_within_each_process_pass_in_three(evaluators, name, task):
    """A seed from a per-process counter (or one key with an offset advancing per call) makes every
    call of a process new; three processes each start from the same point. The tests across calls
    compare the calls of one process, so the job passes in three as in one."""
    code = (Path(__file__).parent / "honest" / f"{name}.py").read_text()
    sharded, single = evaluators
    three, one = sharded.submit(task, code).result(timeout=900), single.submit(task, code).result(timeout=900)
    assert three["info"]["processes"] == 3, three["info"]
    assert three["verdict"] == one["verdict"] == "ok", (three["exe"], one["exe"])
