"""Stack float32 tensors horizontally (torch.hstack) and divide the result by a tensor or a number,
with optional truncating or flooring rounding."""

import torch

from harness.checks import EPS32, bind_arguments
from harness.compare import compare_outputs
from harness.taskdef import Case, Cost, Inputs, Tolerance, numel_bytes, tensor_leaves

ENTRY = "fused_hstack_div"
SIGNATURE = "fused_hstack_div(tensors, divisor, *, rounding_mode=None, out=None)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["rounding_mode"]
# Division by zero (finite inputs, infinite results) is beyond the upstream test.
TIERS = {"divide-by-zero": "edge", "divide-by-zero-floor": "edge"}
DIFFICULTY = 3
DESCRIPTION = """
Concatenate the float32 tensors of the sequence `tensors` horizontally, like torch.hstack(tensors),
then divide by `divisor`, like torch.div(stacked, divisor, rounding_mode=rounding_mode).
hstack: 0-d tensors count as 1-D; if the tensors are 1-D they are joined end to end (along dim 0),
otherwise along dim 1 (all other dimensions must agree); tensors may be non-contiguous, and a 1-D
tensor with 0 elements may appear among 1-D ones. `divisor` is a Python number or a float32 tensor
(possibly 0-d) broadcastable to the stacked shape (e.g. one value per column, per row, or a full
tensor). rounding_mode None (default) is true division; 'trunc' rounds each quotient toward zero;
'floor' rounds it down (toward -inf). Division follows IEEE: x / 0 is +-inf (NaN for 0 / 0), and the
rounding modes leave inf and NaN as they are. Do it in one pass: read every input element once and
write each quotient straight to its place in the result (no stacked intermediate). The result has
the stacked shape and dtype float32. If `out` (a float32 tensor of that shape) is given, write the
result into it and return `out`; otherwise return a new tensor. The inputs must not be modified.
"""


def reference(tensors, divisor, *, rounding_mode=None, out=None):
    result = torch.div(torch.hstack(tensors), divisor, rounding_mode=rounding_mode)
    if out is not None:
        out.copy_(result)
        return out
    return result


def cost(case: Case, output) -> Cost:
    args = bind_arguments(reference, case)
    inputs = tensor_leaves([args["tensors"], args["divisor"]])
    # One division (plus rounding) per output element; inputs read once, output written once.
    return Cost(flops=float(output.numel()),
                bytes=float(sum(numel_bytes(t) for t in inputs) + numel_bytes(output)))


# -- checking the output -----------------------------------------------------------------------------
# True division: the default float32 tolerance. With a rounding mode the result is an integer-valued
# float and is judged exactly, with one allowance: where the exact quotient lies within a few float32
# ulps of an integer, a kernel that rounds the float32 quotient x / d (correctly rounded or, on the
# GPU, within 2 ulps) may land on the other side of that integer from PyTorch, which rounds the exact
# quotient (its floor mode is fmod-based). There either neighbour is accepted: the output must equal
# the rounding of some value within _ULPS float32 ulps of the exact quotient. Elsewhere any
# difference -- floor for trunc, a missing rounding -- is an error.
_ULPS = 4.0

CHECK_NOTE = (
    "true division within the default float32 tolerance; with a rounding mode exact, except that where "
    "the exact quotient is within 4 float32 ulps of an integer the rounding of any value in that window "
    "is accepted."
)


def _stacked(tensors):
    return torch.hstack([t.double() for t in tensors])


def check(case, output, expected):
    args = bind_arguments(reference, case)
    mode = args["rounding_mode"]
    if mode is None:
        return compare_outputs(output, expected)
    shape_msg = compare_outputs(output, expected, {torch.float32: _ANY})
    if shape_msg:
        return shape_msg
    divisor = args["divisor"]
    d = divisor.double() if isinstance(divisor, torch.Tensor) else float(divisor)
    q = torch.broadcast_to(_stacked(args["tensors"]) / d, expected.shape).to(expected.device)
    rnd = torch.floor if mode == "floor" else torch.trunc
    lo, hi = rnd(q - _ULPS * EPS32 * q.abs()), rnd(q + _ULPS * EPS32 * q.abs())
    got, want = output.double().to(expected.device), expected.double()
    same = (got == want) | (got.isnan() & want.isnan())
    window = torch.isfinite(q) & (got >= lo) & (got <= hi) & (got == torch.round(got))
    bad = ~(same | window)
    if not bad.any():
        return None
    i = int(torch.nonzero(bad.flatten())[0])
    return (f"output: {int(bad.sum())} of {want.numel()} elements differ (rounding_mode={mode!r}); first at flat "
            f"index {i}: got {got.flatten()[i].item()!r}, expected {want.flatten()[i].item()!r} (exact quotient "
            f"{q.flatten()[i].item()!r})")


# Structure-only comparison (shape, dtype, NaN/inf placement); the values are judged by ``check``.
_ANY = Tolerance(atol=float("inf"), rtol=0.0)


# -- cases -------------------------------------------------------------------------------------------
def _away_from_zero(g: Inputs, *shape: int, low: float = 0.5, high: float = 4.0):
    """Divisors of both signs with |d| in [low, high]."""
    mag = g.uniform(*shape, low=low, high=high)
    sign = torch.where(g.uniform(*shape) < 0.5, -1.0, 1.0).to(mag.device)
    return mag * sign


def cases(g: Inputs):
    yield Case("1d-pair-scalar", [g.randn(1000), g.randn(1003)], 2.0)
    yield Case("1d-three-tensor-divisor", [g.randn(300), g.randn(77), g.randn(129)], _away_from_zero(g, 506))
    yield Case("2d-pair-row-divisor", (g.randn(20, 30), g.randn(20, 17)), _away_from_zero(g, 1, 47))
    yield Case("2d-three-full-divisor", [g.randn(16, 5), g.randn(16, 9), g.randn(16, 33)], _away_from_zero(g, 16, 47))
    yield Case("2d-column-divisor", [g.randn(40, 64), g.randn(40, 65)], _away_from_zero(g, 40, 1))
    yield Case("3d-divisor-broadcast", [g.randn(4, 3, 10), g.randn(4, 5, 10)], _away_from_zero(g, 8, 10))
    yield Case("trunc-tensor", [g.randn(30, 50, std=10.0), g.randn(30, 21, std=10.0)], _away_from_zero(g, 30, 71),
               rounding_mode="trunc")
    yield Case("floor-tensor", [g.randn(30, 50, std=10.0), g.randn(30, 21, std=10.0)], _away_from_zero(g, 30, 71),
               rounding_mode="floor")
    yield Case("floor-negative-scalar", [g.uniform(1500, low=-50.0, high=50.0), g.randn(501, std=20.0)], -3.0,
               rounding_mode="floor")
    yield Case("trunc-scalar", [g.randn(64, 40, std=8.0), g.randn(64, 24, std=8.0)], 0.7, rounding_mode="trunc")
    yield Case("int-scalar", [g.randn(33, 12), g.randn(33, 13)], 3)
    yield Case("default-mode-explicit", [g.randn(10, 11), g.randn(10, 12)], 1.5, rounding_mode=None)
    # Quotients that are (nearly) integers: 1 / 0.1f is just below 10 (PyTorch's floor gives 9).
    ints = g.randint(-40, 40, 400).to(torch.float32)
    yield Case("near-integer-quotients-floor", [ints, ints * 0.5], 0.1, rounding_mode="floor")
    yield Case("near-integer-quotients-trunc", [ints, ints * 0.5], 0.1, rounding_mode="trunc")
    # Edge: layouts, 0-d divisor and inputs, empty members, special values, out=.
    yield Case("strided-inputs", [g.strided(g.randn(20, 30)), g.transposed(g.randn(20, 15))], _away_from_zero(g, 1, 45))
    yield Case("strided-divisor", [g.randn(12, 30), g.randn(12, 31)], g.strided(_away_from_zero(g, 12, 61)),
               rounding_mode="floor")
    yield Case("0d-divisor", [g.randn(25, 8), g.randn(25, 9)], g.tensor(-1.75))
    yield Case("0d-members", [g.tensor(1.5), g.randn(10), g.tensor(-3.0)], 0.5)
    yield Case("empty-member", [g.randn(50), g.randn(0), g.randn(7)], 4.0)
    x = g.randn(6, 40)
    x[0, :4] = 0.0
    zeros = _away_from_zero(g, 1, 70)
    zeros[0, :8] = 0.0
    yield Case("divide-by-zero", [x, g.randn(6, 30)], zeros)
    yield Case("divide-by-zero-floor", [x, g.randn(6, 30)], zeros, rounding_mode="floor")
    special = g.tensor([float("nan"), float("inf"), float("-inf"), 3e38, -3e38, 1e-38, 0.0, -0.0])
    yield Case("special-values-trunc", [special, g.randn(8)], 1e-3, rounding_mode="trunc")
    yield Case("out", [g.randn(30, 20), g.randn(30, 25)], _away_from_zero(g, 30, 45), out=g.randn(30, 45))
    yield Case("out-floor", [g.randn(300, std=30.0), g.randn(200, std=30.0)], 4.0, rounding_mode="floor",
               out=g.randn(500))
    yield Case("out-strided", [g.randn(12, 30), g.randn(12, 31)], 2.0, out=g.strided(g.randn(12, 61)))


def perf_cases(g: Inputs):
    yield Case("1d-2x16M-scalar", [g.randn(1 << 24), g.randn(1 << 24)], 2.0)
    yield Case("2d-2x8192x2048-row-divisor-floor", [g.randn(8192, 2048), g.randn(8192, 2048)],
               g.uniform(1, 4096, low=0.5, high=4.0), rounding_mode="floor")
    yield Case("2d-3x4096x1024-full-divisor-trunc", [g.randn(4096, 1024) for _ in range(3)],
               g.uniform(4096, 3072, low=0.5, high=4.0), rounding_mode="trunc")
