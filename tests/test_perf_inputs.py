"""The inputs of timed repetitions (harness/perf/server.py, RotatingCase): each repetition's
floating-point inputs take every element from one input set or the other, at a rolled position, by
offsets and coins of its own, the same in the candidate's and the baseline's process, so a kernel
can neither recognise a set by a few values nor find where a value it kept now sits and answer
from what it kept."""

import math

import pytest
import torch

from harness.perf.server import CHECK_SET, CONVEX, ELEMENTS, GAUSSIAN, IN_PLACE, MIXES, PerfCaseError, RotatingCase
from harness.taskdef import Case, tensor_leaves


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
    # a repetition measured again is loaded anew (perf/timing.py), the same way in both processes
    candidate.loader()(5, 1)
    again = candidate.buffers.args[0].clone()
    baseline.loader()(5, 1)
    assert torch.equal(again, baseline.buffers.args[0])
    candidate.loader()(5)
    assert (again == candidate.buffers.args[0]).float().mean() < 0.6  # (coins from two sets: half agree)


def test_integers_views_the_check_set_and_opted_out_tasks_are_copied_as_they_are():
    sets, check = _sets()
    case = RotatingCase(sets, check, key="k")
    case.loader()(3)                           # set 1
    assert torch.equal(case.buffers.args[1], sets[1].args[1])                       # integer: indices stay
    assert torch.equal(case.buffers.kwargs["scale"], sets[1].kwargs["scale"])       # a strided view
    case.load(CHECK_SET)
    assert torch.equal(case.buffers.args[0], check.args[0])
    plain = RotatingCase(sets, check, key="k", mix="none")
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


def _matrices(seed: int, n: int = 48):
    """Two batches of structured matrices (symmetric positive-definite, lower triangular with a
    positive diagonal, Hermitian complex), as a task's perf cases would hold them."""
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(3, n, n, dtype=torch.float64, generator=g)
    spd = x @ x.mT / n + torch.eye(n, dtype=torch.float64)
    lower = torch.tril(torch.randn(3, n, n, dtype=torch.float64, generator=g)) / n ** 0.5
    lower.diagonal(dim1=-2, dim2=-1).copy_(lower.diagonal(dim1=-2, dim2=-1).abs() + 2.0)
    z = torch.randn(2, n, n, dtype=torch.complex64, generator=g)
    return Case("m", spd, lower, (z + z.mH) / 2)


def test_the_in_place_mix_keeps_every_value_where_it_was():
    """``PERF_MIX = "in place"``: each element is one set's or the other's at its own position, by fair
    coins of the repetition's own: zeros both sets share (a triangle) and diagonals stay."""
    sets = [_matrices(1), _matrices(2)]
    case = RotatingCase(sets, _matrices(3), key="k", mix=IN_PLACE)
    seen = []
    for rep in (0, 1):
        case.loader()(rep)
        spd, lower, hermitian = case.buffers.args
        first, second = sets[rep % 2].args[0], sets[(rep + 1) % 2].args[0]
        heads = spd == first
        assert bool((heads | (spd == second)).all())
        assert 0.45 < heads.double().mean() < 0.55       # 6912 coins: 6 standard deviations
        assert bool((torch.triu(lower, 1) == 0).all()) and bool((lower.diagonal(dim1=-2, dim2=-1) > 1.9).all())
        assert torch.equal(hermitian, sets[rep % 2].args[2])  # complex: not mixed in place (no coins for it)
        seen.append(spd.clone())
    assert (seen[0] == seen[1]).double().mean() < 0.6


def test_the_convex_mix_keeps_symmetry_definiteness_and_triangles_off_the_line_of_the_two_sets():
    """``PERF_MIX = "convex"``: a * A + b * B + c * (A o B) / M with weights drawn per repetition and
    input (c in [1/8, 3/8], a : b between 1:3 and 3:1, a + b + c = 1; M the sets' largest
    magnitude), complex inputs included: exactly symmetric (Hermitian) where both sets are,
    positive-definite, triangular with a positive diagonal, and the same in the baseline. The
    product term keeps every input off the line through the two sets."""
    sets = [_matrices(1), _matrices(2)]
    case, baseline = (RotatingCase(sets, _matrices(3), key="7:t", mix=CONVEX) for _ in range(2))
    weights = set()
    for rep in (0, 1, 4):
        case.loader()(rep)
        baseline.loader()(rep)
        for got, again, first, second in zip(case.buffers.args, baseline.buffers.args, sets[rep % 2].args,
                                              sets[(rep + 1) % 2].args):
            assert torch.equal(got, again)
            wide = torch.complex128 if got.is_complex() else torch.float64
            x, y = first.to(wide).reshape(-1), second.to(wide).reshape(-1)
            magnitude = max(float(first.abs().max()), float(second.abs().max()))
            terms = torch.stack([x, y, x * y / magnitude], dim=1)
            a, b, c = torch.linalg.lstsq(terms, got.to(wide).reshape(-1, 1)).solution.reshape(-1).real.tolist()
            assert 0.125 - 1e-4 <= c <= 0.375 + 1e-4 and abs(a + b + c - 1) < 1e-4
            assert 0.25 - 1e-4 <= a / (a + b) <= 0.75 + 1e-4
            weights.add(round(c, 4))
            assert torch.allclose(got.to(wide).reshape(-1), terms @ torch.tensor([a, b, c], dtype=wide),
                                  rtol=1e-5, atol=1e-6)
            # off the line through the two sets: no w gives w * A + (1 - w) * B
            line = torch.stack([x - y], dim=1)
            w = torch.linalg.lstsq(line, (got.to(wide).reshape(-1) - y).reshape(-1, 1)).solution
            assert float((line @ w - (got.to(wide).reshape(-1) - y).reshape(-1, 1)).abs().max()) > 1e-3
        spd, lower, hermitian = case.buffers.args
        assert torch.equal(spd, spd.mT) and torch.equal(hermitian, hermitian.mH)
        assert int(torch.linalg.cholesky_ex(spd).info.abs().sum()) == 0
        assert bool((torch.triu(lower, 1) == 0).all()) and bool((lower.diagonal(dim1=-2, dim2=-1) > 1.9 * 0.625).all())
    assert len(weights) == 9                      # weights of their own per repetition and input


def test_the_gaussian_mix_rotates_two_sets_paired_apart_into_values_no_call_has_seen():
    """``PERF_MIX = "gaussian"``: cos t * roll(A, s) + sin t * roll(B, r), t drawn per repetition in
    an arc away from the axes, s != r: standard normals again (moments), the same in the baseline,
    and almost no value one the wrapper saw (the order-statistic probe needs seen values at known
    places: tests/adversarial/mixed_inputs_min_probe.py)."""
    g = torch.Generator().manual_seed(3)
    sets = [Case("x", torch.randn(1 << 16, generator=g), 1) for _ in range(2)]
    case, baseline = (RotatingCase(sets, sets[0], key="7:t", mix=GAUSSIAN) for _ in range(2))
    angles = set()
    for rep in range(4):
        case.loader()(rep)
        baseline.loader()(rep)
        got, first, second = case.buffers.args[0], sets[rep % 2].args[0], sets[(rep + 1) % 2].args[0]
        assert torch.equal(got, baseline.buffers.args[0]) and case.buffers.args[1] == 1
        assert abs(float(got.mean())) < 0.02 and abs(float(got.std()) - 1) < 0.02   # 6 standard errors
        seen = torch.cat([first, second])
        assert float(torch.isin(got, seen).double().mean()) < 0.05
        # recover each set's shift (the peak of its cross-correlation with the input), then the weights
        shift, other = (int(torch.fft.irfft(torch.fft.rfft(got.double()) * torch.fft.rfft(x.double()).conj(),
                                            n=got.numel()).abs().argmax()) for x in (first, second))
        columns = torch.stack([first.roll(shift), second.roll(other)], dim=1).double()
        c, s = torch.linalg.lstsq(columns, got.double().unsqueeze(1)).solution.reshape(-1).tolist()
        assert other != shift and torch.allclose(got.double(), columns @ torch.tensor([c, s], dtype=torch.float64),
                                                 atol=1e-6)
        assert abs(c * c + s * s - 1) < 1e-6 and min(abs(c), abs(s)) > 0.38
        angles.add(round(math.atan2(s, c), 3))
    assert len(angles) == 4


def _gaussian_tasks() -> list[str]:
    from harness.task import all_tasks
    return sorted(t for t, task in all_tasks().items() if getattr(task.module, "PERF_MIX", None) == GAUSSIAN)


@pytest.mark.parametrize("task_id", _gaussian_tasks())
def test_a_task_declaring_the_gaussian_mix_draws_zero_mean_normals(task_id):
    """The rotation keeps the distribution only of i.i.d. zero-mean normal inputs: every
    floating-point input of the task's first perf case has a normal's mean, skewness and kurtosis
    (each within 6 standard errors; a uniform's kurtosis is 1.8)."""
    from harness.task import get_task
    from harness.taskdef import Inputs
    task = get_task(task_id)
    first = next(iter(task.module.perf_cases(Inputs(task.case_seed(0, "perf:0"), "cpu"))))
    leaves = [t for t in tensor_leaves(list(first.args) + list(first.kwargs.values())) if t.is_floating_point()]
    assert leaves, task_id
    for t in leaves:
        x = t.double().reshape(-1)
        n, z = x.numel(), (x - x.mean()) / x.std()
        assert abs(float(x.mean() / x.std())) < 6 / n ** 0.5, task_id
        assert abs(float((z ** 3).mean())) < 6 * (6 / n) ** 0.5, task_id
        assert abs(float((z ** 4).mean()) - 3) < 6 * (24 / n) ** 0.5, task_id


def test_an_unknown_mix_is_a_task_file_error():
    with pytest.raises(PerfCaseError, match="PERF_MIX"):
        RotatingCase([_matrices(1), _matrices(2)], _matrices(3), mix="rolled")


def _structure(t: torch.Tensor) -> set[str]:
    """The structure a (batch of) square matrices has in every matrix: symmetric (Hermitian),
    lower / upper triangular, positive-definite, column diagonally dominant."""
    if t.dim() < 2 or t.shape[-1] != t.shape[-2] or t.shape[-1] < 2 or not (t.is_floating_point() or t.is_complex()):
        return set()
    found = set()
    if torch.equal(t, t.mH if t.is_complex() else t.mT):
        found.add("symmetric")
        wide = t.to(torch.complex128 if t.is_complex() else torch.float64)
        if int(torch.linalg.cholesky_ex(wide).info.abs().sum()) == 0:
            found.add("positive-definite")
    found |= {name for name, part in (("lower", torch.triu(t, 1)), ("upper", torch.tril(t, -1))) if not bool(part.any())}
    magnitudes = t.abs().double()
    diagonal = magnitudes.diagonal(dim1=-2, dim2=-1)
    if bool((diagonal > magnitudes.sum(-2) - diagonal).all()):
        found.add("column-dominant")
    return found


# the perf input sets a CPU can draw and check within seconds (the rest run natively: `gpu`)
CPU_SET_BYTES = 100e6


def _structured_tasks() -> list[str]:
    """Tasks with square matrices among their perf inputs (their shapes drawn on the meta device)."""
    from harness.task import all_tasks
    found = []
    for task_id, task in sorted(all_tasks().items()):
        try:
            cases = task.perf_cases(0, "meta")
        except Exception:  # noqa: BLE001 - drawn from values: not among the linear-algebra tasks
            continue
        leaves = [t for c in cases for t in tensor_leaves(list(c.args) + list(c.kwargs.values()))]
        if any(t.dim() >= 2 and t.shape[-1] == t.shape[-2] > 1 and (t.is_floating_point() or t.is_complex())
               for t in leaves):
            found.append(task_id)
    return found


def _check_structure_kept(task_id: str, device: str) -> None:
    from harness.task import get_task
    task = get_task(task_id)
    if device == "cpu" and (task.perf_input_bytes or 0) > CPU_SET_BYTES:
        pytest.skip(f"perf inputs of {task.perf_input_bytes / 1e6:.0f} MB a set: checked natively (gpu)")
    mix = getattr(task.module, "PERF_MIX", ELEMENTS)
    assert mix in MIXES, (task_id, mix)
    sets = [task.perf_cases(5, device, input_set=i) for i in range(2)]
    for first, second in zip(*sets):
        case = RotatingCase([first, second], first, key=f"5:{task_id}", mix=mix,
                            integers=bool(getattr(task.module, "PERF_MIX_INTEGERS", False)))
        shared = [_structure(a) & _structure(b) for a, b in zip(tensor_leaves(list(first.args) + list(first.kwargs.values())),
                                                                tensor_leaves(list(second.args) + list(second.kwargs.values())))]
        for rep in (0, 1):
            case.loader()(rep)
            leaves = tensor_leaves(list(case.buffers.args) + list(case.buffers.kwargs.values()))
            for position, (leaf, kept) in enumerate(zip(leaves, shared)):
                lost = kept - _structure(leaf)
                assert not lost, (f"{task_id} perf case {first.label!r}, input {position}: PERF_MIX={mix!r} loses "
                                  f"{sorted(lost)} (timed repetition {rep})")


@pytest.mark.parametrize("task_id", _structured_tasks())
def test_a_timed_repetition_keeps_the_structure_both_input_sets_share(task_id):
    """Every task whose perf inputs hold square matrices: whatever structure both input sets have
    (symmetric, triangular, positive-definite, column dominant) each timed repetition's inputs keep,
    under the task's PERF_MIX (the CPU checks the sets it can draw in seconds; the device all)."""
    _check_structure_kept(task_id, "cuda" if torch.cuda.is_available() else "cpu")
