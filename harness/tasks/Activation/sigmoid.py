"""Logistic sigmoid on float32, with an optional preallocated output tensor."""

import torch

from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "sigmoid"
SIGNATURE = "sigmoid(input, out=None)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = []
DIFFICULTY = 2
DESCRIPTION = """
Compute the logistic sigmoid 1 / (1 + exp(-x)) elementwise over a float32 tensor of any shape
(possibly non-contiguous, possibly empty). Results lie in [0, 1]: +inf maps to 1, -inf to 0, NaN
stays NaN, and very negative inputs must give tiny non-negative values rather than NaN or garbage.
When `out` is None return a new float32 tensor of the input's shape. When `out` is given (a float32
tensor of the input's shape, possibly non-contiguous) write the result into it and return `out`
itself. The input is never modified.
"""

# exp, add, divide and a select per element.
FLOPS_PER_ELEMENT = 4


def cost(case: Case, output) -> Cost:
    # The input is read and the result written once; a given `out` is only written, so it is not
    # counted as an input as the default elementwise model would.
    x = case.args[0] if case.args else case.kwargs["input"]
    return Cost(flops=FLOPS_PER_ELEMENT * x.numel(), bytes=float(numel_bytes(x) + numel_bytes(output)))


def reference(input, out=None):
    return torch.special.expit(input, out=out)


def cases(g: Inputs):
    # Saturation on both sides (|x| >= 17 rounds to 0/1-ish), exp overflow for x < -88.7.
    edges = [0.0, -0.0, 1.0, -1.0, 1e-6, -1e-6, 4.0, -4.0, 17.0, -17.0, 40.0, -40.0, 88.0,
             -88.0, -100.0, 1e30, -1e30, float("inf"), float("-inf"), float("nan")]
    yield Case("edge-values", g.tensor(edges))
    yield Case("edge-values-out", g.tensor(edges), out=g.randn(len(edges)))
    yield Case("single", g.randn(1))
    yield Case("empty", g.randn(0, 4))
    yield Case("odd-1d", g.randn(1003))
    yield Case("outliers-3d", g.heavy_tailed(3, 37, 129, scale=3.0))
    yield Case("uniform-wide", g.uniform(4099, low=-20.0, high=20.0))
    yield Case("strided", g.strided(g.randn(33, 65, std=4.0)))
    yield Case("transposed", g.transposed(g.randn(97, 48, std=2.0)))
    yield Case("out-2d", g.randn(64, 300, std=3.0), out=g.randn(64, 300))
    yield Case("out-strided", g.uniform(17, 129, low=-12.0, high=12.0),
               out=g.strided(g.randn(17, 129)))
    yield Case("out-none-explicit", g.heavy_tailed(2049), out=None)


def perf_cases(g: Inputs):
    yield Case("16M", g.randn(1 << 24, std=4.0))
    yield Case("64M-out", g.randn(1 << 26, std=4.0), out=g.randn(1 << 26))
    yield Case("128M", g.randn(1 << 27, std=4.0))
