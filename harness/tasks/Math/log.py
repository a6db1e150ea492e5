"""Elementwise natural logarithm of a float32 tensor, with an optional preallocated output tensor."""

import torch

from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "log"
SIGNATURE = "log(input, out=None)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = []
DIFFICULTY = 1
DESCRIPTION = """
Compute the natural (base e) logarithm of every element of a float32 tensor (any shape, possibly
non-contiguous, possibly empty), like torch.log. Edge values follow IEEE rules: log(0) = log(-0) =
-inf, log(+inf) = +inf, the log of a negative number (including -inf) is NaN, and NaN stays NaN.
When `out` is None return a new float32 tensor of the input's shape. When `out` is given (a float32
tensor of the input's shape, possibly non-contiguous) write the result into it and return `out`
itself. The input is never modified.
"""

FLOPS_PER_ELEMENT = 1


def cost(case: Case, output) -> Cost:
    # Read the input once and write the result once; a given `out` is only written.
    x = case.args[0] if case.args else case.kwargs["input"]
    return Cost(flops=float(x.numel()), bytes=float(numel_bytes(x) + numel_bytes(output)))


def reference(input, out=None):
    return torch.log(input, out=out)


def cases(g: Inputs):
    # No subnormal inputs: GPU fast-math logs flush them to zero (-inf) while torch returns ~-88..-103,
    # so they are not a fair test. Huge values sit in their own case: the comparison's absolute term
    # scales with the RMS of the reference.
    edges = [1.0, 2.0, 0.5, 0.1, 10.0, 0.999, 1.001, 2.718281828, 0.0, -0.0, -1.0, -0.5,
             float("inf"), float("-inf"), float("nan")]
    yield Case("edge-values", g.tensor(edges))
    yield Case("edge-values-out", g.tensor(edges), out=g.randn(len(edges)))
    yield Case("extremes", g.tensor([1.2e-38, 1e-30, 1e-10, 1e10, 1e30, 3.4e38]))
    yield Case("single", g.uniform(1, low=2.0, high=3.0))
    yield Case("empty", g.randn(0, 4))
    yield Case("odd-1d", g.uniform(1003, low=0.01, high=5.0))
    yield Case("near-one", g.uniform(4099, low=0.5, high=2.0))
    yield Case("abs-outliers-3d", g.heavy_tailed(3, 37, 129, scale=2.0, outlier_scale=1e4).abs())
    yield Case("wide-range", torch.exp(g.uniform(2000, low=-80.0, high=80.0)))
    yield Case("mixed-sign", g.randn(1500, std=3.0))  # negatives give NaN
    yield Case("strided", g.strided(g.uniform(33, 65, low=0.1, high=100.0)))
    yield Case("transposed", g.transposed(g.uniform(97, 48, low=1e-3, high=1.0)))
    yield Case("out-2d", g.uniform(64, 300, low=0.05, high=20.0), out=g.randn(64, 300))
    yield Case("out-strided", g.uniform(17, 129, low=1.0, high=1e6), out=g.strided(g.randn(17, 129)))
    yield Case("out-none-explicit", g.uniform(2049, low=0.2, high=3.0), out=None)


def perf_cases(g: Inputs):
    yield Case("16M", g.uniform(1 << 24, low=1e-3, high=1e3))
    yield Case("64M-out", g.uniform(1 << 26, low=1e-3, high=1e3), out=g.randn(1 << 26))
    yield Case("128M", g.uniform(1 << 27, low=1e-3, high=1e3))
