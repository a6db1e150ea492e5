"""References that do not call PyTorch's function directly (because PyTorch's CUDA path departs from
the task's description) agree with that function where it is right: on the CPU."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

from harness.task import get_task


@pytest.mark.parametrize("norm_type", [1.0, 2.0, 3.0, 0.5])
def test_embedding_renorm_matches_pytorch_on_the_cpu(norm_type):
    reference = get_task("Fusion/fused_embedding_add_tanh.py").module.reference
    g = torch.Generator().manual_seed(0)
    weight = torch.randn(12, 7, generator=g) * 2
    weight[5, 2] = float("nan")  # a NaN norm is not above max_norm: the row stays as it is
    indices = torch.tensor([[0, 3, 3, 5], [11, 0, 7, 3]])  # repeated rows are rescaled once
    other = torch.randn(2, 4, 7, generator=g)
    ours, theirs = weight.clone(), weight.clone()
    got = reference(indices, ours, other, max_norm=1.5, norm_type=norm_type)
    expected = torch.tanh(F.embedding(indices, theirs, max_norm=1.5, norm_type=norm_type) + other)
    torch.testing.assert_close(ours, theirs, equal_nan=True, rtol=1e-6, atol=1e-7)  # the in-place rescale
    torch.testing.assert_close(got, expected, equal_nan=True, rtol=1e-6, atol=1e-7)
    assert not torch.equal(ours[0], weight[0])  # a rescaled row: the comparison above had something to compare


def test_embedding_renorm_of_no_rows_changes_nothing():
    reference = get_task("Fusion/fused_embedding_add_tanh.py").module.reference
    weight = torch.randn(4, 3)
    before = weight.clone()
    out = reference(torch.empty(0, 2, dtype=torch.int64), weight, torch.zeros(0, 2, 3), max_norm=0.1)
    assert out.shape == (0, 2, 3) and torch.equal(weight, before)


def _holds(value, found):
    """The tensors inside a container argument, with the container they sit in."""
    if isinstance(value, (list, tuple)):
        for item in value:
            if isinstance(item, torch.Tensor):
                found.append((value, item))
            _holds(item, found)
    elif isinstance(value, dict):
        _holds(list(value.values()), found)
    return found


def test_references_update_the_tensors_their_container_arguments_hold():
    """The state judged after a call is that of the tensors the call was handed (harness/invoke.py
    Arguments): sound only while no reference replaces a container's entries instead of updating
    them. Every case of every task with tensors inside a list, tuple or dict argument is checked."""
    from harness.invoke import call_case, clone_case
    from harness.task import all_tasks
    checked = 0
    for task in all_tasks().values():
        for case in task.correctness_cases(0):
            case = clone_case(case)
            held = _holds(list(case.args) + list(case.kwargs.values()), [])
            if not held:
                continue
            before = [(container, id(item), [id(x) for x in container]) for container, item in held
                      if isinstance(container, list)]
            call_case(task.reference, case)
            for container, _, ids in before:
                assert [id(x) for x in container] == ids, (task.id, case.label)
            checked += 1
    assert checked >= 10  # Adam's params list, out=(values, indices) tuples, ...


def test_a_call_is_judged_on_the_tensors_it_was_handed():
    """A list argument whose entries the call replaces is judged by the tensors it held before; a
    result that is a tensor inside an out= tuple names it ("out[1]")."""
    from harness.invoke import call_case
    from harness.taskdef import Case
    values, indices = torch.zeros(3), torch.zeros(3, dtype=torch.int64)
    params = [torch.zeros(3)]

    def swaps(params, out):
        params[0] = torch.ones(3)
        return out[1], params[0]

    record = call_case(swaps, Case("c", params, out=(values, indices)))
    assert record.aliases == ["out[1]", None]
    assert torch.equal(record.args_after[0][0], torch.zeros(3))  # the tensor handed in, not its stand-in


def test_each_config_pass_draws_values_of_its_own():
    """Autotune config passes get the same cases with other values: a submission cannot answer a
    later config's calls from what an earlier one returned."""
    task = get_task("Activation/relu.py")
    first, second, again = task.correctness_cases(5), task.correctness_cases(5, config=1), task.correctness_cases(5, config=1)
    assert [c.label for c in first] == [c.label for c in second]
    same = lambda a, b: a.shape == b.shape and torch.allclose(a, b, rtol=0, atol=0, equal_nan=True)  # noqa: E731
    assert all(same(a.args[0], b.args[0]) for a, b in zip(second, again))  # deterministic
    differ = sum(not same(a.args[0], b.args[0]) for a, b in zip(first, second) if a.args[0].numel() > 1)
    assert differ >= len(first) // 2, differ


def test_later_config_passes_and_other_seeds_are_kept_for_the_last_ones_used(monkeypatch):
    """The first pass's references of the run's seed stay for the run; later passes' and those of
    jobs with seeds of their own (a warm evaluator's submissions) are bounded (an evaluator that
    lives for days must not keep one per task and config, nor one per submission)."""
    from harness.run import reference
    computed = []
    monkeypatch.setattr(reference, "compute_reference",
                        lambda task, seed, device, config=0: computed.append((seed, config)) or [(seed, config)])
    monkeypatch.setattr(reference.ReferenceCache, "RECENT", 2)
    cache, task = reference.ReferenceCache(kept_seed=7), get_task("Activation/relu.py")
    for config in (0, 1, 2, 3, 0, 3, 1):
        assert cache.get(task, 7, "cpu", config) == [(7, config)]
    assert computed == [(7, 0), (7, 1), (7, 2), (7, 3), (7, 1)]  # pass 1 was dropped when 3 came; 0 and 3 were found
    computed.clear()
    for seed in (11, 12, 13, 11, 7):  # other seeds' first passes are recent ones too; the run's stays
        assert cache.get(task, seed, "cpu") == [(seed, 0)]
    assert computed == [(11, 0), (12, 0), (13, 0), (11, 0)]


def test_a_job_holds_few_later_config_passes_at_once_and_draws_again_what_it_let_go():
    """A job's later autotune passes are held a few at a time (the parent held all 128 of a
    submission's passes, 1.7 GB for the task with the largest cases); one let go is drawn and
    computed again when asked for, to the same values."""
    from types import SimpleNamespace

    from harness.run.reference import PassInputs
    drawn, computed = [], []

    def draw(config):
        drawn.append(config)
        return [SimpleNamespace(config=config)]

    inputs = PassInputs(draw(0), ["e0"], draw, lambda config: computed.append(config) or [f"e{config}"])
    for config in range(1, 2 + PassInputs.HELD_PASSES):
        cases, expected = inputs.of(config)
        assert cases[0].config == config and expected == [f"e{config}"]
    assert len(inputs._expected) == 1 + PassInputs.HELD_PASSES  # pass 0 and the last ones asked for
    cases, expected = inputs.of(1)
    assert cases[0].config == 1 and drawn.count(1) == computed.count(1) == 2  # let go, then drawn again
    assert inputs.of(0)[0][0].config == 0 and 0 not in computed  # the first pass stays
    for config in (3, 2 + PassInputs.HELD_PASSES):  # one used again is kept over one used longer ago
        inputs.of(config)
    assert 3 in inputs._expected and 4 not in inputs._expected and computed.count(3) == 1
    assert len(inputs._expected) <= 1 + PassInputs.HELD_PASSES and len(inputs._cases) <= 1 + PassInputs.HELD_PASSES


def test_each_process_of_a_job_is_judged_on_case_objects_of_its_own():
    """Checks may keep state across the calls of one process (the random tasks' tests across calls):
    a job spread over processes gives each its own cases (same values); a config pass draws its own."""
    from harness.run.reference import PassInputs
    task = get_task("Random/rand.py")
    drawn = []

    def draw(config):
        drawn.append(config)
        return task.correctness_cases(3, "cpu", config)

    first = task.correctness_cases(3)
    inputs = PassInputs(first, ["e"] * len(first), draw, lambda config: [config] * len(first),
                        shares=[[0, 1, 2], list(range(3, len(first)))])
    assert inputs.of(0, 1) == (first, ["e"] * len(first)) and drawn == []
    other, _ = inputs.of(0, 5)
    assert other is not first and other[0].history is not first[0].history and drawn == [0]
    assert inputs.of(0, 7)[0] is other and drawn == [0]  # the same process: the same objects
    later, expected = inputs.of(1, 0)
    assert expected == [1] * len(first) and drawn == [0, 1] and later is not first
