"""SELU activation on float32, built from the scaled exponential linear unit formula."""

import torch

from harness.taskdef import Case, Inputs

ENTRY = "selu"
SIGNATURE = "selu(input, inplace=False)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = []
DIFFICULTY = 1
DESCRIPTION = """
Apply the scaled exponential linear unit elementwise to a float32 tensor of any shape (possibly
non-contiguous, possibly empty):
selu(x) = scale * (max(0, x) + min(0, alpha * (exp(x) - 1))),
with alpha = 1.6732632423543772848170429916717 and scale = 1.0507009873554804934193349852946.
Positive inputs are scaled by `scale`; negative inputs saturate towards -scale * alpha; NaN stays
NaN, +inf gives +inf and -inf gives -scale * alpha. With inplace=False (the default) return a new
tensor with the input's shape and dtype and leave the input unchanged. With inplace=True overwrite
`input` itself with the result (also when it is a strided view) and return that very tensor object.
"""

ALPHA = 1.6732632423543772848170429916717
SCALE = 1.0507009873554804934193349852946

# exp plus a handful of compares, adds and multiplies.
FLOPS_PER_ELEMENT = 6


def reference(input, inplace=False):
    zero = torch.zeros_like(input)
    y = SCALE * (torch.maximum(zero, input) + torch.minimum(zero, ALPHA * (torch.exp(input) - 1)))
    if inplace:
        # Same contract as torch.nn.functional.selu(inplace=True): the input holds the result.
        input.copy_(y)
        return input
    return y


def cases(g: Inputs):
    # exp overflows to inf above ~88.7 (harmless in the formula: min(0, inf) = 0) and underflows
    # to 0 below ~-103 (saturation at -scale*alpha).
    edges = [0.0, -0.0, 1.0, -1.0, 1e-6, -1e-6, 0.5, -0.5, 5.0, -5.0, 20.0, -20.0, 89.0,
             -120.0, -1e30, float("inf"), float("-inf"), float("nan")]
    yield Case("edge-values", g.tensor(edges))
    yield Case("edge-values-inplace", g.tensor(edges), inplace=True)
    # Large outputs in cases of their own (one magnitude each): beside ordinary ones they would widen
    # the tolerance's absolute part, scaled by the output's RMS, past the ordinary values.
    yield Case("huge-values", g.tensor([1e30, 3e30, 2e30]))
    yield Case("huge-values-inplace", g.tensor([1e30, 3e30, 2e30]), inplace=True)
    yield Case("single", g.randn(1))
    yield Case("empty", g.randn(0, 3))
    yield Case("odd-1d", g.randn(1003))
    yield Case("outliers-3d", g.heavy_tailed(3, 37, 129, scale=2.0))
    yield Case("uniform-wide", g.uniform(4099, low=-10.0, high=4.0))
    yield Case("strided", g.strided(g.randn(33, 65)))
    yield Case("transposed", g.transposed(g.randn(97, 48)))
    yield Case("inplace-2d", g.randn(64, 300), inplace=True)
    yield Case("inplace-strided", g.strided(g.uniform(17, 129, low=-6.0, high=3.0)), inplace=True)
    yield Case("inplace-false-explicit", g.heavy_tailed(2049, scale=3.0), inplace=False)


def perf_cases(g: Inputs):
    yield Case("16M", g.randn(1 << 24))
    yield Case("64M-inplace", g.randn(1 << 26), inplace=True)
    yield Case("128M", g.randn(1 << 27))
