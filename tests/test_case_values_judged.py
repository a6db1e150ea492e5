"""Every value a correctness case gives is judged: no case leaves ordinary values to a tolerance that
other, huge values of the same output have widened.

The absolute part of a tolerance is scaled by the RMS of the reference (DESIGN §6: errors of
reductions and products grow with the whole tensor's magnitude). An edge case that mixed values
near 1e30 with ordinary ones therefore judged only the huge ones: a ReLU wrong below 0.25 passed
both of its edge-value cases. Such values go into cases of their own; this test finds any case,
of the tasks judged by the common rule, where an error as large as a value itself (or as 1, for a
value below 1) would pass."""

from __future__ import annotations

import copy

import pytest
import torch

from harness.compare import _finite_rms
from harness.task import all_tasks
from harness.taskdef import tensor_leaves, tolerance_for

SEEDS = (0, 1)
# (references of cases with no degrees of freedom left warn, as torch.std does)
pytestmark = pytest.mark.filterwarnings(r"ignore:std\(\)")

# Cases whose values are spread by design over many orders of magnitude, random draws and not
# edge values put beside ordinary ones: what the absolute part does not judge there, the relative
# part does (an error of 1e-4 of each value in float32), and the task's other cases judge the
# ordinary range with an ordinary scale.
SPREAD_BY_DESIGN = {
    ("Math/i0.py", "outliers"): "i0 grows like e^|x| / sqrt(|x|): heavy-tailed arguments, results over decades",
    ("Math/i0.py", "wide"): "arguments over [-50, 50]: results from 1 to 1e20",
    ("Math/mul_bf16.py", "large-magnitude"): "products of two wide normals: some fall near zero by chance",
    ("Math/mul_fp16.py", "large-magnitude"): "products of two wide normals: some fall near zero by chance",
    ("Math/polygamma.py", "order-2-randn"): "normal arguments: results grow without bound near the poles",
    ("Math/polygamma.py", "order-4-negative"): "negative arguments between the poles",
    ("Math/pow.py", "scalar-30"): "x**30 of normal x: results from 1e-30 to 1e15",
    ("Math/sqrt_exp.py", "uniform-wide-3d"): "exp over a wide uniform range: results over decades",
    ("Math/zeta.py", "negative-q-int-x"): "Hurwitz zeta near its poles at non-positive integer q",
    ("Math/zeta.py", "small-q"): "q near 0: the first term q**-x dominates, results over decades",
    ("Math/zeta.py", "uniform-odd"): "uniform arguments that include q near the poles",
    ("Optimizer/RMSProp.py", "huge-values"): "heavy-tailed parameters and gradients up to 1e8 and more",
}


def _unjudged(task, case) -> list[str]:
    """Output leaves of ``case`` holding finite values whose own size (or 1) is within the
    absolute part of the tolerance, with how many of them."""
    with torch.no_grad():
        out = task.reference(*copy.deepcopy(case.args), **copy.deepcopy(case.kwargs))
    found = []
    for i, leaf in enumerate(tensor_leaves(out)):
        if leaf.is_complex():
            leaf = torch.view_as_real(leaf)
        tol = tolerance_for(leaf.dtype, task.tolerances)
        if tol is None or leaf.numel() == 0:
            continue
        scale = _finite_rms(leaf)
        if scale is None:
            continue
        ref = leaf.double()
        loose = torch.isfinite(ref) & (tol.atol * scale >= ref.abs().clamp(min=1.0))
        if loose.any():
            found.append(f"leaf {i}: {int(loose.sum())} of {ref.numel()} values (atol x scale = {tol.atol * scale:.3g})")
    return found


def _flagged() -> dict[tuple[str, str], list[str]]:
    flagged = {}
    for task in all_tasks().values():
        if task.custom_check is not None:  # judged by the task's own rule
            continue
        for seed in SEEDS:
            for case in task.correctness_cases(seed):
                found = _unjudged(task, case)
                if found:
                    flagged.setdefault((task.id, case.label), found)
    return flagged


@pytest.fixture(scope="module")
def flagged():
    return _flagged()


def test_no_case_leaves_ordinary_values_to_a_tolerance_widened_by_huge_ones(flagged):
    unexplained = {key: found for key, found in flagged.items() if key not in SPREAD_BY_DESIGN}
    assert not unexplained, "\n".join(f"{task} {label}: {found}" for (task, label), found in sorted(unexplained.items()))


def test_cases_spread_by_design_are_still_spread(flagged):
    stale = sorted(key for key in SPREAD_BY_DESIGN if key not in flagged)
    assert not stale, stale


def _judged(task_id: str, label: str, wrong) -> list[str | None]:
    """The verdicts of the common rule on ``wrong(case, reference output)`` for every case of a
    task with ``label`` (seed 0)."""
    from harness.compare import compare_outputs
    task = all_tasks()[task_id]
    verdicts = []
    for case in task.correctness_cases(0):
        if case.label == label:
            with torch.no_grad():
                ref = task.reference(*copy.deepcopy(case.args), **copy.deepcopy(case.kwargs))
            verdicts.append(compare_outputs(wrong(case, ref), ref, task.tolerances))
    return verdicts


def test_an_error_on_ordinary_values_fails_the_edge_cases_that_once_hid_it():
    # a ReLU wrong below 0.25 (there it returns its input) passed both edge-value cases while
    # they held 3e38
    relu_wrong = _judged("Activation/relu.py", "edge-values",
                         lambda case, ref: torch.where(case.args[0] < 0.25, case.args[0], ref))
    # a floor off by one on the ordinary values of a heavy-tailed case (atol x RMS was 19.9 there)
    floor_wrong = _judged("Math/floor.py", "outliers-3d",
                          lambda case, ref: torch.where(ref.abs() < 100, ref + 1, ref))
    assert relu_wrong and all(relu_wrong), relu_wrong
    assert floor_wrong and all(floor_wrong), floor_wrong
