"""ReLU activation on float32, returning a new tensor or writing in place."""

import torch.nn.functional as F

from harness.taskdef import Case, Inputs

ENTRY = "relu"
SIGNATURE = "relu(input, inplace=False)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["inplace"]
DIFFICULTY = 2
DESCRIPTION = """
Apply the rectified linear unit elementwise to a float32 tensor of any shape (possibly
non-contiguous, possibly empty): every element x becomes max(0, x). NaN inputs stay NaN, +inf stays
+inf and -inf becomes 0. With inplace=False (the default) return a new tensor with the input's shape
and dtype and leave the input unchanged. With inplace=True overwrite `input` itself with the result
(also when it is a strided view) and return that very tensor object.
"""

# One compare/select per element.
FLOPS_PER_ELEMENT = 1


def reference(input, inplace=False):
    return F.relu(input, inplace=inplace)


def cases(g: Inputs):
    # NaN must propagate (torch clamps with NaN propagation on CPU and CUDA), a plain
    # max(x, 0) that drops NaN is wrong.
    edges = [0.0, -0.0, 1.0, -1.0, 1e-30, -1e-30, 2.5, -2.5, -3.0e38,
             float("inf"), float("-inf"), float("nan")]
    yield Case("edge-values", g.tensor(edges))
    yield Case("edge-values-inplace", g.tensor(edges), inplace=True)
    # Large outputs in cases of their own (one magnitude each): beside ordinary ones they would widen
    # the tolerance's absolute part, scaled by the output's RMS, past the ordinary values.
    yield Case("huge-values", g.tensor([3.0e38, 1.5e38, 3.4e38]))
    yield Case("huge-values-inplace", g.tensor([3.0e38, 1.5e38, 3.4e38]), inplace=True)
    yield Case("single", g.randn(1))
    yield Case("empty", g.randn(0, 7))
    yield Case("odd-1d", g.randn(1003))
    yield Case("outliers-3d", g.heavy_tailed(3, 37, 129, scale=2.0))
    yield Case("uniform-wide", g.uniform(4099, low=-6.0, high=6.0))
    yield Case("strided", g.strided(g.randn(33, 65)))
    yield Case("transposed", g.transposed(g.randn(97, 48)))
    yield Case("inplace-2d", g.randn(64, 300), inplace=True)
    yield Case("inplace-strided", g.strided(g.uniform(17, 129, low=-3.0, high=3.0)), inplace=True)
    yield Case("inplace-false-explicit", g.heavy_tailed(2049), inplace=False)


def perf_cases(g: Inputs):
    yield Case("16M", g.randn(1 << 24))
    yield Case("64M-inplace", g.randn(1 << 26), inplace=True)
    yield Case("128M", g.randn(1 << 27))
