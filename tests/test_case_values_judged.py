"""Every value a correctness case gives is judged: no case leaves ordinary values to a tolerance that
other, huge values of the same output have widened.

The absolute part of the common tolerance is scaled by the RMS of the reference (DESIGN §6: errors
of reductions and products grow with the whole tensor's magnitude). An edge case that mixed values
near 1e30 with ordinary ones therefore judged only the huge ones: a ReLU wrong below 0.25 passed
both of its edge-value cases. Such values go into cases of their own. This test moves the value of
smallest magnitude of each output (by 1 below 1, else by half of itself) and asks the task's own
judge, the common rule or the task's check: it must refuse."""

from __future__ import annotations

import copy

import pytest
import torch

from harness.compare import compare_outputs
from harness.task import all_tasks
from harness.taskdef import tensor_leaves

SEEDS = (0, 1)
# (references of cases with no degrees of freedom left warn, as torch.std does)
pytestmark = pytest.mark.filterwarnings(r"ignore:std\(\)")

# Cases (a label, or None for all of a task's) whose judge allows such an error by design, and why.
# Random draws spread over decades: their small values are held to the relative part of the
# tolerance (1e-4 of themselves in float32) but not to the absolute one; the task's other cases
# judge the ordinary range with an ordinary scale.
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
# Tasks' own checks that allow it by design.
CHECKED_BY_DESIGN = {
    ("Math/bitwise_and_binomial.py", None): "random draws, judged by their distribution, not value by value",
    ("Fusion/fused_mul_add_logsoftmax_dropout_bmm.py", "deep-k-sum-test"):
        "the dropout mask cannot be recovered from the product (K > N): only the total is judged",
    ("Fusion/fused_sum_std.py", "large-mean-sums"):
        "float32 sums near 1e6 that cancel: the allowed error is their rounding, as large as the std",
    ("LinearAlgebra/eig.py", "huge-scale-1e100"): "errors relative to the matrix's norm (backward stability)",
    ("LinearAlgebra/solve_and_add_scaled_vector.py", "ill-conditioned-1e6"):
        "a solve's error grows with the condition number times the solution's norm",
    ("Fusion/fused_qr_solve.py", "ill-conditioned-1e3"):
        "a solve's error grows with the condition number times the solution's norm",
    ("Quantization/attention_w8a8.py", "large-magnitude"):
        "int8 quantization error, relative to each row's largest value",
    ("Math/chebyshev_polynomial_t.py", "outside-domain"):
        "|x| > 1: the rounding of x is amplified by n * acosh|x| times |T_n(x)|",
}
EXEMPT = {**SPREAD_BY_DESIGN, **CHECKED_BY_DESIGN}


def _moved_smallest(out, leaf_index: int):
    """A copy of ``out`` whose leaf ``leaf_index`` has its finite value of smallest magnitude
    moved by 1 (below 1) or by half of itself; None when that leaf has no finite value."""
    out = copy.deepcopy(out)
    leaf = tensor_leaves(out)[leaf_index]
    values = torch.view_as_real(leaf) if leaf.is_complex() else leaf
    ref = values.detach().double()
    magnitude = torch.where(torch.isfinite(ref), ref.abs(), torch.full_like(ref, float("inf")))
    if not torch.isfinite(magnitude).any():
        return None
    at = torch.unravel_index(magnitude.argmin(), values.shape)
    r = ref[at].item()
    with torch.no_grad():
        values[at] = r + 1.0 if abs(r) < 1 else r * 0.5
    return out


def _reference(task, case):
    with torch.no_grad():
        return task.reference(*copy.deepcopy(case.args), **copy.deepcopy(case.kwargs))


def _judge(task, case, out, ref) -> str | None:
    """The task's own verdict on ``out``: its check, or the common rule."""
    check = task.custom_check
    return check(case, out, ref) if check else compare_outputs(out, ref, task.tolerances)


def _accepted(task, case) -> list[int]:
    """The output leaves of ``case`` where the task's judge accepts the moved value."""
    ref = _reference(task, case)
    accepted = []
    for i, leaf in enumerate(tensor_leaves(ref)):
        if not (leaf.dtype.is_floating_point or leaf.is_complex()) or leaf.numel() == 0:
            continue
        wrong = _moved_smallest(ref, i)
        if wrong is not None and _judge(task, case, wrong, ref) is None:
            accepted.append(i)
    return accepted


@pytest.fixture(scope="module")
def accepted() -> dict[tuple[str, str], list[int]]:
    found = {}
    for task in all_tasks().values():
        for seed in SEEDS:
            for case in task.correctness_cases(seed):
                leaves = _accepted(task, case)
                if leaves:
                    found.setdefault((task.id, case.label), leaves)
    return found


def test_every_case_refuses_an_error_as_large_as_its_smallest_value(accepted):
    unexplained = sorted(key for key in accepted if key not in EXEMPT and (key[0], None) not in EXEMPT)
    assert not unexplained, "\n".join(f"{task} {label}: leaves {accepted[task, label]}" for task, label in unexplained)


def test_the_cases_exempted_still_need_it(accepted):
    stale = sorted(key for key in EXEMPT if (key not in accepted if key[1] else
                                               not any(task == key[0] for task, _ in accepted)))
    assert not stale, stale


def _verdicts(task_id: str, label: str, wrong) -> list[str | None]:
    """The verdicts of the task's judge on ``wrong(case, reference output)`` for every case of a
    task with ``label`` (seed 0)."""
    task = all_tasks()[task_id]
    return [_judge(task, case, wrong(case, ref), ref)
            for case in task.correctness_cases(0) if case.label == label
            for ref in [_reference(task, case)]]


def test_an_error_on_ordinary_values_fails_the_edge_cases_that_once_hid_it():
    # a ReLU that returns ordinary inputs unchanged (negative ones too) passed both edge-value
    # cases while they held 3e38
    relu_wrong = _verdicts("Activation/relu.py", "edge-values",
                           lambda case, ref: torch.where(case.args[0].abs() < 10, case.args[0], ref))
    # a floor off by one on the ordinary values of a heavy-tailed case (atol x RMS was 19.9 there)
    floor_wrong = _verdicts("Math/floor.py", "outliers-3d",
                            lambda case, ref: torch.where(ref.abs() < 100, ref + 1, ref))
    assert relu_wrong and all(relu_wrong), relu_wrong
    assert floor_wrong and all(floor_wrong), floor_wrong
