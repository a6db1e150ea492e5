"""Elementwise absolute value of a float32 tensor, with an optional preallocated output."""

from dataclasses import replace

import torch

from harness.taskdef import DEFAULT_TOLERANCES, Case, Cost, Inputs, numel_bytes

ENTRY = "abs"
SIGNATURE = "abs(input_tensor, out=None)"
DTYPES = ["float32"]
# the sign of a zero is the task's (abs(-0.0) is +0.0), beyond any bound on |out - ref|
TOLERANCE = {torch.float32: replace(DEFAULT_TOLERANCES[torch.float32], signed_zero=True)}
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = []
DIFFICULTY = 1
DESCRIPTION = """
Return |x| for every element of `input_tensor`, a float32 tensor of any shape (possibly
non-contiguous, possibly empty), as torch.abs does. -0.0 maps to 0.0, ±inf to +inf and NaN stays
NaN. When `out` is None return a new float32 tensor of the input's shape. When `out` is given (a
float32 tensor of the input's shape, possibly non-contiguous) write the result into it and return
`out` itself. The input is never modified.
"""

FLOPS_PER_ELEMENT = 1


def cost(case: Case, output) -> Cost:
    # Read the input once, write the result once (a given `out` is written, not read).
    x = case.args[0]
    return Cost(flops=float(x.numel()), bytes=float(numel_bytes(x) + numel_bytes(output)))


def reference(input_tensor, out=None):
    return torch.abs(input_tensor, out=out)


def cases(g: Inputs):
    inf, nan = float("inf"), float("nan")
    # Edge lists are grouped by magnitude: the comparison scale is the RMS of the reference.
    edges = [0.0, -0.0, 1.0, -1.0, -2.5, 3.75, -0.001, 0.5, -7.0, 12.0, -inf, inf, nan]
    yield Case("edge-values", g.tensor(edges))
    yield Case("edge-values-out", g.tensor(edges), out=g.randn(len(edges)))
    yield Case("large-values", g.tensor([-1e10, 1e10, 4e9]))
    yield Case("huge-values", g.tensor([-3.4e38, 3.4e38, 2e37, -1e37, 1e35]))
    yield Case("tiny-values", g.tensor([-1e-10, 1e-10, -3e-12, -1e-40, 1e-40, 0.0]))
    yield Case("single-negative", g.tensor([-7.5]))
    yield Case("empty", g.randn(0, 3))
    yield Case("odd-1d", g.randn(1003))
    yield Case("outliers-3d", g.heavy_tailed(3, 37, 129, scale=3.0))
    yield Case("uniform-negative-heavy", g.uniform(4099, low=-100.0, high=10.0))
    yield Case("strided", g.strided(g.randn(33, 65)))
    yield Case("transposed", g.transposed(g.randn(97, 48)))
    yield Case("out-2d", g.randn(64, 300), out=g.randn(64, 300))
    yield Case("out-strided", g.uniform(17, 129, low=-5.0, high=5.0), out=g.strided(g.randn(17, 129)))
    yield Case("out-none-explicit", g.randn(2049), out=None)


def perf_cases(g: Inputs):
    yield Case("16M", g.randn(1 << 24))
    yield Case("64M-out", g.randn(1 << 26), out=g.randn(1 << 26))
    yield Case("128M", g.randn(1 << 27))
