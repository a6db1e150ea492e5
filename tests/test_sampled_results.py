"""Large perf results are saved as their values at positions drawn after the call, and judged there
(harness/sampled_results.py): the ends of every large leaf and a sixteenth of it drawn at random
by a key the parent draws once the result is kept; the tolerance's scale is the whole reference's;
a payload whose samples do not fit what the judge draws is refused."""

from __future__ import annotations

import os
from types import SimpleNamespace

import pytest
import torch

from harness.bounded_io import save_tensors
from harness.compare import judge_saved
from harness.invoke import CallRecord, call_case
from harness.perf.server import _DigestingWriter, _judge_saved, _ResultFile, to_host
from harness.run.perf_stage import _judge_checks
from harness.sampled_results import (DRAWN_MIN, EDGE, SAMPLE_ABOVE, SAMPLED, SampledResultError, drawn_count,
                                     for_judging, positions, sampled_payload, values_at)
from harness.task import get_task
from harness.taskdef import Case, map_tensors

N = SAMPLE_ABOVE + 4096  # the smallest leaves that are sampled, and a few more
KEY = 0x5EED_1234_5678


def _record(output, args_after=()) -> CallRecord:
    return CallRecord(output, list(args_after), {}, [None] * len(output if isinstance(output, tuple) else [output]))


def _judged(candidate: CallRecord, reference: CallRecord, key: int = KEY, tolerances=None, saved_key: int | None = None):
    """The verdict on ``candidate`` saved as the candidate's server saves it (sampled with
    ``saved_key``, by default the judge's ``key``)."""
    payload = sampled_payload(candidate.to_payload(), KEY if saved_key is None else saved_key)
    payload, reference = for_judging(payload, reference, key)
    return judge_saved(payload, reference, tolerances)


def test_positions_are_both_ends_and_draws_that_only_the_key_decides():
    first, again, other = positions(N, KEY, torch.device("cpu")), positions(N, KEY, torch.device("cpu")), \
        positions(N, KEY + 1, torch.device("cpu"))
    assert first.numel() == drawn_count(N) == 2 * EDGE + max(DRAWN_MIN, N // 16)
    assert torch.equal(first[:EDGE], torch.arange(EDGE)) and torch.equal(first[-EDGE:], torch.arange(N - EDGE, N))
    assert torch.equal(first, again) and not torch.equal(first[EDGE:-EDGE], other[EDGE:-EDGE])
    drawn = first[EDGE:-EDGE]
    assert int(drawn.min()) >= 0 and int(drawn.max()) < N
    # uniform over the leaf: each quarter gets about a quarter of the draws
    quarters = torch.bincount(drawn * 4 // N, minlength=4).double() / drawn.numel()
    assert torch.allclose(quarters, torch.full((4,), 0.25, dtype=torch.float64), atol=0.01)


def test_values_are_read_through_strides_without_copying_the_leaf():
    base = torch.arange(4 * 6 * 10, dtype=torch.float32).reshape(4, 6, 10)
    where = torch.tensor([0, 1, 7, 59, 100, 239])
    for view in (base, base.permute(2, 0, 1), base[:, 1:5, ::3], base[1:, 2], base[:1].expand(3, 6, 10),
                 base.to(memory_format=torch.channels_last) if base.dim() == 4 else base.transpose(0, 2)):
        where_here = where[where < view.numel()]
        assert torch.equal(values_at(view, where_here), view.reshape(-1)[where_here]), view.stride()


def test_a_right_result_passes_and_wrong_values_anywhere_in_a_share_are_found():
    reference = torch.randn(N)
    assert _judged(_record(reference.clone()), _record(reference)) is None
    within = reference + 1e-7 * torch.randn(N)
    assert _judged(_record(within), _record(reference)) is None
    wrong = reference.clone()
    wrong[torch.randperm(N)[: N // 1000]] += 1.0  # one element in 1,000: about 1,000 of the draws land on one
    message = _judged(_record(wrong), _record(reference))
    assert message and "elements compared differ (drawn at random from" in message, message


@pytest.mark.parametrize("index", [0, EDGE - 1, N - EDGE, N - 1])
def test_an_error_at_either_end_is_always_found(index):
    reference = torch.randn(N)
    wrong = reference.clone()
    wrong[index] = 1e3
    message = _judged(_record(wrong), _record(reference))
    assert message and f"first at [{index}]" in message, message


def test_the_positions_are_the_ones_the_judge_draws_not_the_ones_the_candidate_saved():
    # a result saved at positions of its own choosing (another key) is compared as values at the
    # judge's positions: wrong, though every value it saved is the right one for its own positions
    reference = torch.randn(N)
    assert _judged(_record(reference.clone()), _record(reference), saved_key=KEY + 7) is not None


def test_the_tolerance_is_scaled_by_the_whole_reference():
    # the reference is small where it is compared and large at one position never drawn: an error
    # within the whole reference's scale passes, as it does judged whole
    reference = torch.full((N,), 1e-3)
    drawn = positions(N, KEY, torch.device("cpu"))
    unseen = int(torch.ones(N, dtype=torch.bool).index_fill_(0, drawn, False).nonzero()[0])
    reference[unseen] = 1e6
    candidate = reference + 0.5e-3  # 50% off where the reference is small; within atol x RMS (RMS about 488)
    whole = judge_saved(_record(candidate).to_payload(), _record(reference))
    assert whole is None and _judged(_record(candidate), _record(reference)) is None


def test_shapes_dtypes_and_complex_and_exact_leaves():
    reference = torch.randn(N)
    assert "shape" in _judged(_record(reference[:-1].clone()), _record(reference))
    assert "shape" in _judged(_record(torch.randn(2, N // 2 + 2048)), _record(reference))
    assert "dtype" in _judged(_record(reference.double()), _record(reference))
    assert "expected a tensor" in _judged(_record(1.0), _record(reference))
    complex_ref = torch.randn(N, dtype=torch.complex64)
    assert _judged(_record(complex_ref.clone()), _record(complex_ref)) is None
    bad = complex_ref.clone()
    bad[-1] += 10j
    assert f"first at [{N - 1}, 1]" in _judged(_record(bad), _record(complex_ref))
    counts = torch.randint(0, 9, (N,))
    assert _judged(_record(counts.clone()), _record(counts)) is None
    off = counts.clone()
    off[0] += 1
    assert "first at [0]" in _judged(_record(off), _record(counts))


def test_an_argument_changed_in_place_is_sampled_and_judged_too():
    buffer = torch.randn(N)
    reference = _record(None, [buffer])
    assert _judged(_record(None, [buffer.clone()]), reference) is None
    assert "argument 0 after the call" in _judged(_record(None, [buffer.clone().fill_(0.5)]), reference)


def test_a_result_saved_whole_is_judged_at_the_same_positions():
    reference = torch.randn(N)
    whole = _record(reference.clone()).to_payload()  # as a worker that cannot sample would save it
    payload, judged = for_judging(whole, _record(reference), KEY)
    assert payload is whole and judged.output is reference  # no samples: compared whole
    assert judge_saved(payload, judged) is None
    # a leaf saved whole beside a sampled one is read at the judge's positions
    pair = sampled_payload(_record((reference.clone(), reference.clone())).to_payload(), KEY)
    pair["output"] = (pair["output"][0], reference.clone() + 1)
    pair[SAMPLED].pop("1")
    message = judge_saved(*for_judging(pair, _record((reference, reference)), KEY))
    assert message and message.startswith("output[1]") and "drawn at random" in message, message


@pytest.mark.parametrize("forgery", ["more_listed", "too_few_values", "small_shape", "not_a_mapping", "no_key"])
def test_samples_that_do_not_fit_what_the_judge_draws_are_refused(forgery):
    reference = torch.randn(N)
    payload = sampled_payload(_record(reference.clone()).to_payload(), KEY)
    key: int | None = KEY
    if forgery == "more_listed":
        payload[SAMPLED]["3"] = [N]
    elif forgery == "too_few_values":
        payload["output"] = payload["output"][:-1]
    elif forgery == "small_shape":
        payload[SAMPLED]["0"] = [SAMPLE_ABOVE]
    elif forgery == "not_a_mapping":
        payload[SAMPLED] = [[N]]
    else:
        key = None
    with pytest.raises(SampledResultError):
        for_judging(payload, _record(reference), key)


def _saved_file(tmp_path, output: torch.Tensor, key: int) -> tuple:
    task = get_task("Activation/relu.py")
    case = Case("c", torch.linspace(-2, 2, N))
    reference = call_case(task.reference, Case("c", case.args[0].clone()))
    candidate = call_case(lambda x, inplace=False: output, case)
    path = tmp_path / "perf_check_0.pt"
    with open(path, "wb") as file:
        writer = _DigestingWriter(file)
        save_tensors(map_tensors(sampled_payload(candidate.to_payload(), key), to_host), writer)
    return task, case, reference, _ResultFile(path, writer.hexdigest())


def test_the_judge_reads_a_sampled_file_a_fraction_of_the_whole_and_judges_it(tmp_path):
    x = torch.linspace(-2, 2, N)
    task, case, reference, source = _saved_file(tmp_path, torch.relu(x), KEY)
    # the output and the argument after the call (in full here: not digested), each as its samples
    assert source.size() < 2 * drawn_count(N) * 4 + (64 << 10) < 0.3 * 2 * N * 4
    assert _judge_saved(task, case, reference, source, KEY)["ok"]
    task, case, reference, source = _saved_file(tmp_path, torch.relu(x) * 1.01, KEY)
    verdict = _judge_saved(task, case, reference, source, KEY)
    assert not verdict["ok"] and verdict["status"] == "wrong", verdict


def test_a_task_with_its_own_check_is_judged_on_whole_results_only(tmp_path):
    relu = get_task("Activation/relu.py")
    x = torch.linspace(-2, 2, N)
    _, case, reference, source = _saved_file(tmp_path, torch.relu(x), KEY)
    own_check = SimpleNamespace(custom_check=lambda case, out, ref: None, tolerances=relu.tolerances)
    verdict = _judge_saved(own_check, case, reference, source, KEY)
    assert not verdict["ok"] and verdict["status"] == "integrity" and "compares whole results" in verdict["detail"]


def test_each_save_gets_a_fresh_key_and_its_judge_the_same_one(tmp_path):
    saves, judges = [], []

    class Saver:
        pid, outcome = 4242, SimpleNamespace(protocol_error=None, timed_out=False)

        def request(self, command, expected, deadline):
            saves.append(command)
            return {"event": "saved", "sha256": "0" * 64}

    baseline = SimpleNamespace(send=lambda command: judges.append(command) or True,
                               wait_for=lambda event, deadline: {"event": "verdict", "ok": True, "costs": {}},
                               clock=SimpleNamespace(now=lambda: 0.0))
    _judge_checks(Saver(), baseline, 2, tmp_path, deadline=0.0)
    keys = [c["sample_key"] for c in saves]
    assert [c["sample_key"] for c in judges] == keys and len(set(keys)) == 4
    assert all(isinstance(k, int) and 0 <= k < 1 << 62 for k in keys)


@pytest.mark.parametrize("wrong", [False, True])
def test_a_perf_result_is_saved_by_one_server_and_judged_by_the_other_at_the_same_draws(monkeypatch, tmp_path, wrong):
    # the two perf servers of a job, in this process on the CPU, with ReLU cases large enough to be
    # sampled: the candidate's saved check result and its judge meet through the command fields
    import harness.perf.server as server

    task = get_task("Activation/relu.py")
    monkeypatch.setattr(server, "_input_set", lambda task, seed, device, index: [
        Case("big", torch.randn(N, generator=torch.Generator().manual_seed(index)))])
    events: list[tuple[str, dict]] = []

    def emit(name, **fields):
        events.append((name, fields))

    def candidate(x, inplace=False):
        y = torch.relu(x)
        return y * 1.01 if wrong else y

    baseline = server.PerfServer(task, 1, "cpu", {"eager": task.reference}, emit, trusted=True)
    worker = server.PerfServer(task, 1, "cpu", {"eager": candidate}, emit, trusted=True)
    baseline._cmd_prepare({})
    worker._cmd_prepare({})
    worker.digest_key, worker._changes = baseline.digest_key, baseline._changes  # as the parent tells it
    for side in (worker, baseline):
        side._cmd_check({"case": 0, "side": "eager"})
    command = {"case": 0, "which": "check", "path": str(tmp_path / "perf_check_0.pt"), "sample_key": KEY}
    worker._cmd_save(command)
    name, saved = events[-1]
    assert name == "saved"
    named = ({"sealed": {**saved["sealed"], "pid": os.getpid()}} if "sealed" in saved else {"sha256": saved["sha256"]})
    baseline._cmd_judge({**command, **named})
    name, verdict = events[-1]
    assert name == "verdict" and verdict["ok"] is not wrong, verdict
    if wrong:
        assert verdict["status"] == "wrong" and "drawn at random" in verdict["detail"]
    else:  # the output's samples; the input, left alone, as a digest
        assert verdict["costs"]["bytes"] < drawn_count(N) * 4 + (64 << 10)


@pytest.mark.gpu
def test_a_gpu_draws_the_same_positions_in_another_process():
    # the candidate's process samples, the baseline's draws again: both on the GPU's generator
    import subprocess
    import sys

    code = ("import torch; from harness.sampled_results import positions; "
            f"p = positions({N}, {KEY}, torch.device('cuda')); print(int((p * 7919 % 104729).sum()), p.numel())")
    here = positions(N, KEY, torch.device("cuda"))
    there = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    assert there.stdout.split() == [str(int((here * 7919 % 104729).sum())), str(here.numel())]
    reference = torch.randn(N, device="cuda")
    assert _judged(_record(reference.clone()), _record(reference)) is None
    wrong = reference.clone()
    wrong[N // 2:] += 1.0
    assert "drawn at random" in (_judged(_record(wrong), _record(reference)) or "")
