"""Elementwise floor of a float32 tensor, with an optional preallocated output tensor."""

import torch

from harness.taskdef import Case, Cost, Inputs, Tolerance, numel_bytes

ENTRY = "floor"
SIGNATURE = "floor(input, out=None)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = []
DIFFICULTY = 2
DESCRIPTION = """
Round every element of a float32 tensor (any shape, possibly non-contiguous, possibly empty) down to
the nearest integer, like torch.floor: the result is the largest integer value <= x, kept as float32
(so -0.5 gives -1, 2.0 stays 2.0, -3.7 gives -4). Values that are already integers, including every
float32 of magnitude >= 2**23, are returned unchanged; +inf, -inf and NaN are returned unchanged.
When `out` is None return a new float32 tensor of the input's shape. When `out` is given (a float32
tensor of the input's shape, possibly non-contiguous) write the result into it and return `out`
itself. The input is never modified.
"""

# Exact: every result is an integer that float32 holds exactly, and rounding down is exact in any
# correct kernel. A tolerance scaled by the RMS would let a value off by one pass beside the large
# values of `outliers-3d` (tests/test_case_values_judged.py).
TOLERANCE = {torch.float32: Tolerance(atol=0.0, rtol=0.0, signed_zero=True)}  # floor(-0.0) is -0.0

FLOPS_PER_ELEMENT = 1


def cost(case: Case, output) -> Cost:
    # Read the input once and write the result once; a given `out` is only written.
    x = case.args[0] if case.args else case.kwargs["input"]
    return Cost(flops=float(x.numel()), bytes=float(numel_bytes(x) + numel_bytes(output)))


def reference(input, out=None):
    return torch.floor(input, out=out)


def cases(g: Inputs):
    # The comparison's absolute term scales with the RMS of the reference, so edge values of very
    # different magnitudes go in separate cases (1e38 next to 0.5 would hide any small-value error).
    small = [0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 0.999999, -0.999999, 1.000001, -1.000001, 2.5, -2.5,
             1e-30, -1e-30, float("inf"), float("-inf"), float("nan")]
    # The 2**23 boundary above which every float32 is an integer; x.to(int32) round trips break
    # beyond 2**31; huge magnitudes.
    mid = [8388607.5, -8388607.5, 8388608.0, -8388609.0, 4194303.25, -4194303.75, 1048575.9,
           -1048575.9]
    big = [3.4e38, -3.4e38, 1e38, float("nan")]
    yield Case("edge-values", g.tensor(small))
    yield Case("edge-values-out", g.tensor(small), out=g.randn(len(small)))
    yield Case("near-2**23", g.tensor(mid))
    yield Case("huge", g.tensor(big))
    yield Case("beyond-int32", g.tensor([3.0e9, -3.0e9, -5.5e9]))
    yield Case("beyond-int64", g.tensor([1e30, -1e30, 3e30]))
    yield Case("single", g.uniform(1, low=-5.0, high=-4.0))
    yield Case("empty", g.randn(0, 4))
    yield Case("odd-1d", g.randn(1003, std=10.0))
    yield Case("uniform-negative", g.uniform(4099, low=-50.0, high=0.0))
    yield Case("outliers-3d", g.heavy_tailed(3, 37, 129, scale=20.0, outlier_scale=1e6))
    # Small integers stored as floats are fixed points of floor.
    yield Case("integers", g.randint(-100, 100, 2000, dtype=torch.float32))
    yield Case("strided", g.strided(g.randn(33, 65, std=8.0)))
    yield Case("transposed", g.transposed(g.uniform(97, 48, low=-30.0, high=30.0)))
    yield Case("out-2d", g.randn(64, 300, std=5.0), out=g.randn(64, 300))
    yield Case("out-strided", g.uniform(17, 129, low=-9.0, high=9.0), out=g.strided(g.randn(17, 129)))
    yield Case("out-none-explicit", g.heavy_tailed(2049, scale=3.0), out=None)


def perf_cases(g: Inputs):
    yield Case("16M", g.randn(1 << 24, std=100.0))
    yield Case("64M-out", g.randn(1 << 26, std=100.0), out=g.randn(1 << 26))
    yield Case("128M", g.randn(1 << 27, std=100.0))
