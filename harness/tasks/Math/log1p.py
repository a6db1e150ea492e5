"""Elementwise log(1 + x) of a float32 tensor, accurate for small x, with an optional output tensor."""

import torch

from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "log1p"
SIGNATURE = "log1p(input, out=None)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = []
# Edge although the tier rule cannot see it: arguments of magnitude 1e-4, where log(1 + x) loses most of its precision.
TIERS = {"tiny-1d": "edge"}
DIFFICULTY = 2
DESCRIPTION = """
Compute log(1 + x), the natural logarithm of one plus x, for every element of a float32 tensor (any
shape, possibly non-contiguous, possibly empty), like torch.log1p. The result must keep full float32
relative accuracy for small |x| (for |x| around 1e-4 or 1e-10 the result is about x), which the
naive log(1 + x) in float32 does not, because 1 + x rounds away most of x's digits. Edge values:
log1p(0) = 0, log1p(-1) = -inf, x < -1 (including -inf) gives NaN, +inf gives +inf, NaN stays NaN.
When `out` is None return a new float32 tensor of the input's shape. When `out` is given (a float32
tensor of the input's shape, possibly non-contiguous) write the result into it and return `out`
itself. The input is never modified.
"""

# A log or a short polynomial, plus a division and selects.
FLOPS_PER_ELEMENT = 10


def cost(case: Case, output) -> Cost:
    # Read the input once and write the result once; a given `out` is only written.
    x = case.args[0] if case.args else case.kwargs["input"]
    return Cost(flops=FLOPS_PER_ELEMENT * x.numel(), bytes=float(numel_bytes(x) + numel_bytes(output)))


def reference(input, out=None):
    return torch.log1p(input, out=out)


def cases(g: Inputs):
    # Small arguments (the point of log1p), values close to -1, the pole, the NaN domain, huge values
    # in their own case (the comparison's absolute term scales with the RMS of the reference).
    edges = [0.0, -0.0, 1e-10, -1e-10, 1e-6, -1e-6, 1e-3, -1e-3, 0.25, -0.25, 0.49, -0.49, 0.5,
             -0.5, 0.51, -0.51, 1.0, 3.0, -0.9, -0.99, -0.999999, -1.0, -1.5, float("-inf"),
             float("nan")]
    yield Case("edge-values", g.tensor(edges))
    yield Case("edge-values-out", g.tensor(edges), out=g.randn(len(edges)))
    yield Case("huge", g.tensor([1e10, 1e30, 3.4e38, float("inf"), 100.0, 1e5]))
    yield Case("single", g.uniform(1, low=1e-5, high=2e-5))
    yield Case("empty", g.randn(0, 4))
    yield Case("tiny-1d", g.uniform(1003, low=-1e-4, high=1e-4))
    yield Case("small", g.randn(4099, std=1e-2))
    yield Case("unit-range", g.uniform(3000, low=-0.99, high=1.0))
    yield Case("wide-positive", g.uniform(2000, low=-0.5, high=50.0))
    yield Case("outliers-3d", g.heavy_tailed(3, 37, 129, scale=0.1, outlier_scale=9.0))  # some < -1: NaN
    yield Case("strided", g.strided(g.uniform(33, 65, low=-0.6, high=0.6)))
    yield Case("transposed", g.transposed(g.randn(97, 48, std=1e-3)))
    yield Case("out-2d", g.uniform(64, 300, low=-0.9, high=3.0), out=g.randn(64, 300))
    yield Case("out-strided", g.randn(17, 129, std=1e-5), out=g.strided(g.randn(17, 129)))
    yield Case("out-none-explicit", g.uniform(2049, low=-0.3, high=0.3), out=None)


def perf_cases(g: Inputs):
    yield Case("16M", g.uniform(1 << 24, low=-0.9, high=4.0))
    yield Case("64M-out", g.uniform(1 << 26, low=-0.9, high=4.0), out=g.randn(1 << 26))
    yield Case("128M", g.uniform(1 << 27, low=-0.9, high=4.0))
