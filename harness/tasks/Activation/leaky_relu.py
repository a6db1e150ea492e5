"""Leaky ReLU activation on float32 with a configurable negative slope, optionally in place."""

import torch.nn.functional as F

from harness.taskdef import Case, Inputs

ENTRY = "leaky_relu"
SIGNATURE = "leaky_relu(input, negative_slope=0.01, inplace=False)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["inplace", "negative_slope"]
DIFFICULTY = 2
DESCRIPTION = """
Apply the leaky rectified linear unit elementwise to a float32 tensor of any shape (possibly
non-contiguous, possibly empty): an element x > 0 is kept as is, any other element becomes
negative_slope * x (so NaN stays NaN and -inf becomes negative_slope * -inf). negative_slope is a
Python float, default 0.01; it may be any value, including values above 1. With inplace=False (the
default) return a new tensor with the input's shape and dtype and leave the input unchanged. With
inplace=True overwrite `input` itself with the result (also when it is a strided view) and return
that very tensor object.
"""

# A compare, a multiply and a select per element.
FLOPS_PER_ELEMENT = 2


def reference(input, negative_slope=0.01, inplace=False):
    return F.leaky_relu(input, negative_slope=negative_slope, inplace=inplace)


def cases(g: Inputs):
    # No slope of 0 together with -inf: 0 * -inf is NaN, a corner no caller relies on.
    edges = [0.0, -0.0, 1.0, -1.0, 1e-30, -1e-30, 7.5, -7.5,
             float("inf"), float("-inf"), float("nan")]
    yield Case("edge-values", g.tensor(edges))
    yield Case("edge-values-slope", g.tensor(edges), negative_slope=0.2)
    # Large outputs in cases of their own (one magnitude each): beside ordinary ones they would widen
    # the tolerance's absolute part, scaled by the output's RMS, past the ordinary values.
    yield Case("huge-values", g.tensor([1e30, -1e30, 3e30]))
    yield Case("huge-values-slope", g.tensor([1e30, -1e30, 3e30]), negative_slope=0.2)
    yield Case("single", g.randn(1), negative_slope=0.3)
    yield Case("empty", g.randn(0, 5))
    yield Case("odd-1d", g.randn(1003))
    yield Case("outliers-3d", g.heavy_tailed(3, 37, 129, scale=2.0), negative_slope=0.1)
    yield Case("uniform-wide", g.uniform(4099, low=-8.0, high=8.0), negative_slope=1.5)
    yield Case("negative-slope-value", g.randn(31, 67), negative_slope=-0.25)
    yield Case("strided", g.strided(g.randn(33, 65)), negative_slope=0.05)
    yield Case("transposed", g.transposed(g.randn(97, 48)))
    yield Case("inplace-2d", g.randn(64, 300), inplace=True)
    yield Case("inplace-strided-slope", g.strided(g.uniform(17, 129, low=-4.0, high=4.0)),
               negative_slope=0.2, inplace=True)
    yield Case("positional-args", g.heavy_tailed(2049), 0.02, False)


def perf_cases(g: Inputs):
    yield Case("16M", g.randn(1 << 24))
    yield Case("64M-inplace", g.randn(1 << 26), negative_slope=0.2, inplace=True)
    yield Case("128M", g.randn(1 << 27), negative_slope=0.1)
