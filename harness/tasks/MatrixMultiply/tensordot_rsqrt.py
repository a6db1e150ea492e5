"""Elementwise reciprocal square root of a float32 tensor contraction (torch.tensordot)."""

import math

import torch

from harness.checks import ACCUMULATION_C, bind_arguments, unit_roundoff
from harness.compare import _trivial_output
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "tensordot_rsqrt"
SIGNATURE = "tensordot_rsqrt(a, b, dims)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["dims"]
DIFFICULTY = 4
DESCRIPTION = """
Contract two float32 tensors like torch.tensordot(a, b, dims=dims) and return 1 / sqrt of every
element of the result, like torch.rsqrt(torch.tensordot(a, b, dims=dims)). `dims` is either an int
d >= 0 (contract the last d dimensions of `a` with the first d dimensions of `b`, in order; d = 0
is the outer product) or a pair of equally long lists of dimension indices ([i1, i2, ...],
[j1, j2, ...]), given as a tuple or a list (contract a's dimension i1 with b's j1, i2 with j2, and
so on, in that pairing; indices may be negative, counting from the end, and need not be sorted).
Contracted sizes match. The result has a's remaining dimensions, in their order, followed by b's
remaining dimensions, in their order (0-d when nothing remains). Either tensor may be
non-contiguous; sizes may be 0 (an empty contraction sums to 0). rsqrt follows IEEE rules: a
negative sum gives NaN, +0 gives +inf, +inf gives 0, NaN stays NaN. Return a new float32 tensor;
the inputs must not be modified. Float32 accuracy is required: accumulate the sums in float32 (or
wider) and do not round float32 inputs to TF32 (with tl.dot use input_precision="ieee" or "tf32x3").
"""

F32 = torch.float32
U32 = unit_roundoff(F32)
# rsqrt itself: PTX's rsqrt.approx.f32 errs by at most 2^-22.9 relative (about 2.2 u32), a
# correctly rounded 1/sqrt by 1 u32; 8 u32 leaves a factor-3 margin.
RSQRT_ULPS = 8.0


def reference(a, b, dims):
    return torch.rsqrt(torch.tensordot(a, b, dims=dims))


def _contracted(a, b, dims):
    """The contracted dimensions of a and of b, as lists of non-negative indices."""
    if isinstance(dims, int):
        return list(range(a.dim() - dims, a.dim())), list(range(dims))
    da, db = dims
    return [d % a.dim() for d in da], [d % b.dim() for d in db]


# -- checking ----------------------------------------------------------------------------------------
# The contraction sums K products per element in an order that differs between implementations, so
# the sum t is compared with its float64 value: a float32 kernel's sum errs by at most
#   e = 8 sqrt(K) u32 (|a| . |b|) + u32 |t|
# (harness/checks.py's product bound). rsqrt then turns a relative error e/t into at most
# (1 - e/t)^(-1/2) - 1 (exact for the worst sign), plus RSQRT_ULPS u32 for rsqrt's own rounding.
# Elements whose sign the rounding cannot decide (|t| <= e, t not exactly 0) accept any value; a
# determined negative sum must give NaN; a sum whose every term is exactly 0 gives an infinity (+0 in
# every reasonable summation order, but a product -0 * x is -0 and rsqrt(-0) = -inf, so either sign is
# accepted); NaN and +-inf sums must give rsqrt's IEEE values. TF32 inputs (2^-11 relative per product)
# exceed the bound on the small-K positive cases; wrong contraction pairings are off by O(1).
CHECK_NOTE = (
    "The contraction is compared in float64: each sum may err by 8*sqrt(K)*u32*(|a|.|b|) + u32*|t| "
    "(harness/checks.py's product bound, any summation order), propagated exactly through rsqrt, plus "
    "8 u32 for rsqrt itself; elements whose sign that error cannot decide accept any value, negative sums "
    "must be NaN, all-zero sums an infinity."
)


def check(case, output, expected):
    args = bind_arguments(reference, case)
    a, b, dims = args["a"], args["b"], args["dims"]
    if not isinstance(output, torch.Tensor):
        return f"output: expected a tensor, got {type(output).__name__}"
    if output.shape != expected.shape or output.dtype != F32:
        return f"output: {output.dtype}{list(output.shape)} != expected {F32}{list(expected.shape)}"
    if expected.numel() == 0:
        return None
    t = torch.tensordot(a.double(), b.double(), dims=dims)
    mag = torch.tensordot(a.double().abs(), b.double().abs(), dims=dims)
    k = math.prod(a.shape[d] for d in _contracted(a, b, dims)[0])
    err = ACCUMULATION_C * math.sqrt(max(k, 1)) * U32 * mag + U32 * t.abs()
    got = output.to(t.device).double()
    exact = torch.rsqrt(t)
    trivial = _trivial_output(got, exact, "output")
    if trivial:
        return trivial
    finite = torch.isfinite(t)
    zero_sum = finite & (mag == 0)                      # every term exactly 0
    undecided = finite & ~zero_sum & (t.abs() <= err)   # any value accepted
    negative = finite & (t < -err)
    positive = finite & (t > err)
    bad = torch.zeros_like(t, dtype=torch.bool)
    bad |= ~finite & ~((got == exact) | (got.isnan() & exact.isnan()))
    bad |= zero_sum & ~torch.isinf(got)
    bad |= negative & ~got.isnan()
    rel = torch.where(positive, (1 - err / t.where(positive, 1.0)).clamp_min(1e-300).rsqrt() - 1, 0.0)
    bound = exact.abs().where(positive, 0.0) * (rel + RSQRT_ULPS * U32)
    bad |= positive & ~((got - exact).abs() <= bound)
    if not bad.any():
        return None
    i = int(torch.nonzero(bad.flatten())[0])
    return (f"output: {int(bad.sum())} of {t.numel()} elements wrong (of which {int(undecided.sum())} elements "
            f"were too close to 0 to judge and accepted); first at flat index {i}: got "
            f"{got.flatten()[i].item()!r}, expected {exact.flatten()[i].item()!r} (float64 contraction "
            f"{t.flatten()[i].item()!r}), allowed error {bound.flatten()[i].item():.3g}")


def cost(case: Case, output) -> Cost:
    args = bind_arguments(reference, case)
    a, b = args["a"], args["b"]
    k = math.prod(a.shape[d] for d in _contracted(a, b, args["dims"])[0])
    # one multiply-add per term of every output element, one rsqrt each; each operand read once
    return Cost(flops=2.0 * output.numel() * k + output.numel(),
                bytes=float(numel_bytes(a) + numel_bytes(b) + numel_bytes(output)))


def cases(g: Inputs):
    r, u = g.randn, g.uniform
    pos = lambda *s: u(*s, low=0.1, high=2.0)  # noqa: E731 - positive sums: finite results
    yield Case("matrix-dims-1", pos(37, 53), pos(53, 29), dims=1)
    yield Case("pair-of-lists", pos(20, 30), pos(30, 25), dims=([1], [0]))
    yield Case("list-of-lists", pos(18, 22), pos(22, 31), dims=[[1], [0]])
    yield Case("vector-dot-0d", pos(77), pos(77), dims=1)
    yield Case("3d-last-with-middle", pos(3, 4, 10), pos(5, 10, 6), dims=([2], [1]))
    yield Case("two-dims-int", pos(6, 7, 8), pos(7, 8, 9), dims=2)
    yield Case("two-dims-permuted-pairs", pos(5, 9, 4), pos(4, 6, 9), dims=([1, 2], [2, 0]))
    yield Case("first-dims", pos(30, 20), pos(30, 25), dims=([0], [0]))
    yield Case("outer-dims-0", pos(12), pos(15), dims=0)
    yield Case("K8", pos(40, 8), pos(8, 36), dims=1)
    yield Case("multi-tile", pos(130, 70), pos(70, 140), dims=1)
    yield Case("deep-K-1000", u(20, 1000, low=-0.5, high=1.5), pos(1000, 30), dims=1)
    # Mixed signs: about half of the sums are negative (NaN).
    yield Case("mixed-sign", r(40, 30), r(30, 50), dims=([1], [0]))
    # Exactly zero sums (a zero row) give infinity.
    z = pos(10, 12)
    z[3] = 0.0
    yield Case("zero-sums", z, pos(12, 9), dims=1)
    # Layouts, negative indices, special values, magnitudes, empty sizes.
    yield Case("negative-dims", pos(4, 11, 6), pos(11, 7), dims=([-2], [-2]))
    yield Case("transposed", g.transposed(pos(40, 50)), g.transposed(pos(50, 30)), dims=1)
    yield Case("strided-3d", g.strided(pos(6, 5, 8)), pos(8, 5, 7), dims=([1, 2], [1, 0]))
    a = pos(20, 30)
    a[3, 7] = float("nan")
    a[11, 2] = float("inf")
    yield Case("nan-inf", a, pos(30, 25), dims=1)
    yield Case("large-magnitude", pos(30, 40) * 1e15, pos(40, 20) * 1e14, dims=1)
    yield Case("tiny-magnitude", pos(30, 40) * 1e-15, pos(40, 20) * 1e-14, dims=1)
    yield Case("empty-contraction", pos(5, 0), pos(0, 7), dims=1)
    yield Case("empty-result", pos(0, 4), pos(4, 3), dims=1)


# A zero row sums to exactly 0: an edge value, not a core case, though its inputs look ordinary.
TIERS = {"zero-sums": "edge"}


def perf_cases(g: Inputs):
    pos = lambda *s: g.uniform(*s, low=0.1, high=2.0)  # noqa: E731
    yield Case("upstream-2048", pos(2048, 2048), pos(2048, 2048), dims=1)
    yield Case("4096^3", pos(4096, 4096), pos(4096, 4096), dims=1)
    yield Case("first-dims-4096x2048-4096x4096", pos(4096, 2048), pos(4096, 4096), dims=([0], [0]))
    yield Case("two-dims-256x32x256-32x256x2048", pos(256, 32, 256), pos(32, 256, 2048), dims=2)
