"""Hyperbolic tangent on float32, with an optional preallocated output tensor."""

import torch

from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "tanh"
SIGNATURE = "tanh(input_tensor, out_tensor=None)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = []
# Edge although the tier rule cannot see it: arguments of magnitude 1e-3, where a formula through exp loses precision.
TIERS = {"small-magnitude": "edge"}
DIFFICULTY = 1
DESCRIPTION = """
Compute the hyperbolic tangent elementwise over a float32 tensor `input_tensor` of any shape
(possibly non-contiguous, possibly empty). Results lie in [-1, 1]: +inf maps to 1, -inf to -1, NaN
stays NaN, large |x| saturates to ±1 without overflow, and tiny |x| must keep tanh(x) ≈ x (relative
accuracy near zero). When `out_tensor` is None return a new float32 tensor of the input's shape.
When `out_tensor` is given (a float32 tensor of the input's shape, possibly non-contiguous) write
the result into it and return `out_tensor` itself. The input is never modified.
"""

# exp (or a short polynomial), a divide and a few multiply-adds per element.
FLOPS_PER_ELEMENT = 5


def cost(case: Case, output) -> Cost:
    # The input is read and the result written once; a given `out` is only written, so it is not
    # counted as an input as the default elementwise model would.
    x = case.args[0] if case.args else case.kwargs["input_tensor"]
    return Cost(flops=FLOPS_PER_ELEMENT * x.numel(), bytes=float(numel_bytes(x) + numel_bytes(output)))


def reference(input_tensor, out_tensor=None):
    return torch.tanh(input_tensor, out=out_tensor)


def cases(g: Inputs):
    # exp(2|x|) overflows for |x| > ~44; tanh rounds to ±1 for |x| > ~9.
    edges = [0.0, -0.0, 1.0, -1.0, 1e-6, -1e-6, 0.3, -0.3, 0.625, -0.625, 2.0, -2.0, 9.0, -9.0,
             45.0, -45.0, 1e30, -1e30, float("inf"), float("-inf"), float("nan")]
    yield Case("edge-values", g.tensor(edges))
    yield Case("edge-values-out", g.tensor(edges), out_tensor=g.randn(len(edges)))
    yield Case("single", g.randn(1))
    yield Case("empty", g.randn(0, 4))
    yield Case("odd-1d", g.randn(1003))
    yield Case("small-magnitude", g.randn(2000, std=1e-3))
    yield Case("outliers-3d", g.heavy_tailed(3, 37, 129, scale=2.0))
    yield Case("uniform-wide", g.uniform(4099, low=-6.0, high=6.0))
    yield Case("strided", g.strided(g.randn(33, 65)))
    yield Case("transposed", g.transposed(g.randn(97, 48)))
    yield Case("out-2d", g.randn(64, 300, std=2.0), out_tensor=g.randn(64, 300))
    yield Case("out-strided", g.uniform(17, 129, low=-4.0, high=4.0),
               out_tensor=g.strided(g.randn(17, 129)))
    yield Case("out-none-explicit", g.heavy_tailed(2049), out_tensor=None)


def perf_cases(g: Inputs):
    yield Case("16M", g.randn(1 << 24))
    yield Case("64M-out", g.randn(1 << 26), out_tensor=g.randn(1 << 26))
    yield Case("128M", g.randn(1 << 27))
