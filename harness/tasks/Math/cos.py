"""Elementwise cosine of a float32 tensor."""

import torch

from harness.taskdef import Case, Inputs

ENTRY = "cos"
SIGNATURE = "cos(input_tensor)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = []
# Edge although the tier rule cannot see it: arguments up to 1e5 need an accurate range reduction; the published test draws standard normal inputs.
TIERS = {"large-arguments": "edge"}
DIFFICULTY = 1
DESCRIPTION = """
Return the cosine (argument in radians) of every element of `input_tensor`, a float32 tensor of
any shape (possibly non-contiguous, possibly empty), as torch.cos does: a new float32 tensor of the
same shape. The result must be accurate for large arguments too (|x| up to 1e6 and beyond: the
cosine of the float32 value itself, which needs a correct argument reduction). ±inf and NaN give
NaN. The input is never modified.
"""

# Argument reduction plus a polynomial: ~20 operations per element.
FLOPS_PER_ELEMENT = 20


def reference(input_tensor):
    return torch.cos(input_tensor)


def cases(g: Inputs):
    inf, nan = float("inf"), float("nan")
    pi = 3.141592653589793
    edges = [0.0, -0.0, 1.0, -1.0, pi / 2, -pi / 2, pi, -pi, 2 * pi, 1e-6, -1e-30, 10.0, -100.0,
             1000.0, 12345.678, -1e5, 1e6, -3.3e7, 1e10, 1e30, -3.4e38, inf, -inf, nan]
    yield Case("edge-values", g.tensor(edges))
    yield Case("single", g.tensor([0.5]))
    yield Case("empty", g.randn(0, 3))
    yield Case("odd-1d", g.randn(1003))
    yield Case("uniform-few-periods", g.uniform(4099, low=-20.0, high=20.0))
    yield Case("outliers-3d", g.heavy_tailed(3, 37, 129, scale=3.0, outlier_scale=1000.0))
    # Large arguments: a naive reduction (x mod 2*pi in float32) loses every digit here.
    yield Case("large-arguments", g.uniform(2000, low=-1e5, high=1e5))
    yield Case("strided", g.strided(g.randn(33, 65, std=4.0)))
    yield Case("transposed", g.transposed(g.uniform(97, 48, low=-10.0, high=10.0)))


def perf_cases(g: Inputs):
    yield Case("16M", g.randn(1 << 24, std=4.0))
    yield Case("64M", g.randn(1 << 26, std=4.0))
    yield Case("128M", g.randn(1 << 27, std=4.0))
