"""The inputs of timed repetitions (harness/perf/server.py, RotatingCase): each repetition's
floating-point inputs take every element from one input set or the other, at a rolled position, by
offsets and coins of its own, the same in the candidate's and the baseline's process, so a kernel
can neither recognise a set by a few values nor find where a value it kept now sits and answer
from what it kept."""

import torch

from harness.perf.server import CHECK_SET, RotatingCase
from harness.taskdef import Case


def _sets(n: int = 4099):
    g = torch.Generator().manual_seed(1)
    make = lambda: Case("c", torch.randn(n, generator=g), torch.randint(0, 9, (n,), generator=g),  # noqa: E731
                        scale=torch.randn(n, generator=g)[::2])
    return [make(), make()], make()


def _sources(loaded: torch.Tensor, first: torch.Tensor, second: torch.Tensor) -> tuple[int, torch.Tensor]:
    """The roll that puts every loaded value where one of the sets has it, and which set each came
    from (True: ``first``); fails if there is none."""
    for shift in range(loaded.numel()):
        a, b = first.roll(shift), second.roll(shift)
        if bool(((loaded == a) | (loaded == b)).all()):
            return shift, loaded == a
    raise AssertionError("the loaded values are no rolled combination of the two sets")


def test_each_timed_repetition_combines_both_sets_anew_at_rolled_positions():
    sets, check = _sets()
    first, second = sets[0].args[0], sets[1].args[0]
    case = RotatingCase(sets, check, key="seed:task")
    load = case.loader()
    load(0)
    one = case.buffers.args[0].clone()
    load(2)                                    # the same input set first, another repetition
    two = case.buffers.args[0].clone()
    (shift_one, coins_one), (shift_two, coins_two) = _sources(one, first, second), _sources(two, first, second)
    assert shift_one != shift_two
    for coins in (coins_one, coins_two):       # fair coins: about half from each set (4099 draws:
        assert 0.45 < coins.float().mean() < 0.55  # the bounds are 6 standard deviations)
    # what a roll would keep, a mix does not: no sum of a set (the answer a cache of sums would give)
    for loaded in (one, two):
        for known in (first, second):
            assert abs(loaded.double().sum() - known.double().sum()) > 1.0
    assert (one == two).float().mean() < 0.01  # nearly every element differs between repetitions


def test_integer_inputs_are_mixed_only_where_the_task_says_they_are_free_values():
    """Integer and bool inputs may be indices that must stay unique or sorted: timed as drawn,
    unless the task opts in (PERF_MIX_INTEGERS), as Math/bitwise_and does, whose two sets a cache
    could otherwise tell apart by a few values."""
    sets, check = _sets()
    drawn, mixed = RotatingCase(sets, check, key="k"), RotatingCase(sets, check, key="k", integers=True)
    for case in (drawn, mixed):
        case.loader()(3)                       # set 1 first
    assert torch.equal(drawn.buffers.args[1], sets[1].args[1])
    shift, coins = _sources(mixed.buffers.args[1], sets[1].args[1], sets[0].args[1])
    assert shift > 0 and 0.3 < coins.float().mean() < 0.7   # values from both sets (9 values each: many ties)
    from harness.task import all_tasks
    opted = sorted(t.id for t in all_tasks().values() if getattr(t.module, "PERF_MIX_INTEGERS", False))
    assert "Math/bitwise_and.py" in opted and "Index/scatter.py" not in opted, opted


def test_the_baseline_process_rebuilds_the_same_inputs_and_another_seed_does_not():
    sets, check = _sets()
    candidate, baseline = RotatingCase(sets, check, key="7:t"), RotatingCase(sets, check, key="7:t")
    other = RotatingCase(sets, check, key="8:t")
    for rep in (0, 1, 5, 17):
        candidate.loader()(rep)
        baseline.loader()(rep)
        other.loader()(rep)
        assert torch.equal(candidate.buffers.args[0], baseline.buffers.args[0])
        assert not torch.equal(candidate.buffers.args[0], other.buffers.args[0])
    candidate.loader("estimate")(0)
    baseline.loader()(0)
    assert not torch.equal(candidate.buffers.args[0], baseline.buffers.args[0])  # phases differ too


def test_integers_views_the_check_set_and_opted_out_tasks_are_copied_as_they_are():
    sets, check = _sets()
    case = RotatingCase(sets, check, key="k")
    case.loader()(3)                           # set 1
    assert torch.equal(case.buffers.args[1], sets[1].args[1])                       # integer: indices stay
    assert torch.equal(case.buffers.kwargs["scale"], sets[1].kwargs["scale"])       # a strided view
    case.load(CHECK_SET)
    assert torch.equal(case.buffers.args[0], check.args[0])
    plain = RotatingCase(sets, check, key="k", roll=False)
    plain.loader()(3)
    assert torch.equal(plain.buffers.args[0], sets[1].args[0])


# Perf cases whose shapes cannot be drawn on the meta device (they need values to be built); their
# shapes must still be fixed by the task, which is checked below by drawing them for real.
DRAWN_FROM_VALUES = {"SpatialOps/grid_sample_with_affine.py"}  # theta's angles are computed on the CPU


def test_every_perf_input_set_of_a_task_has_the_same_shapes():
    """Timing rotates among input sets drawn with different seeds (RotatingCase refuses sets that
    differ): shapes drawn on the meta device cannot depend on values; the few tasks that need
    values to build their perf cases are drawn twice for real and compared."""
    from harness.task import all_tasks

    needs_values = {t.id for t in all_tasks().values() if t.perf_input_bytes is None}
    assert needs_values == DRAWN_FROM_VALUES, "perf cases whose shapes may depend on drawn values"
    for task_id in sorted(needs_values):
        task = all_tasks()[task_id]
        first = [c.describe() for c in task.perf_cases(0, input_set=0)]
        second = [c.describe() for c in task.perf_cases(0, input_set=1)]
        assert first == second, task_id
