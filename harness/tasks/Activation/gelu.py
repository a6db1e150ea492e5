"""GELU activation on float32, exact (erf) or tanh-approximated."""

import torch
import torch.nn.functional as F

from harness.taskdef import Case, Inputs

ENTRY = "gelu"
SIGNATURE = "gelu(input, approximate='none')"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["approximate"]
DIFFICULTY = 4
DESCRIPTION = """
Apply the Gaussian Error Linear Unit elementwise to a float32 tensor of any shape and return a new
tensor of the same shape and dtype. With approximate='none' compute x * Phi(x), where Phi is the
standard normal CDF, 0.5 * (1 + erf(x / sqrt(2))). With approximate='tanh' use the tanh form
0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3))). The input must not be modified.
"""

# erf/tanh plus a handful of multiply-adds per element.
FLOPS_PER_ELEMENT = 10


def reference(input, approximate="none"):
    return F.gelu(input, approximate=approximate)


def cases(g: Inputs):
    # No ±inf: PyTorch's own CPU and CUDA kernels disagree there (NaN vs inf), so it is not a fair test.
    edges = [0.0, -0.0, 1.0, -1.0, 3.0, -3.0, 10.0, -10.0, 1e-6, -1e-6, 30.0, -30.0, float("nan")]
    for approximate in ("none", "tanh"):
        yield Case("edge-values", g.tensor(edges), approximate=approximate)
        yield Case("odd-1d", g.randn(1003), approximate=approximate)
        yield Case("outliers-3d", g.heavy_tailed(3, 37, 129, scale=2.0), approximate=approximate)
        yield Case("uniform-wide", g.uniform(4099, low=-8.0, high=8.0), approximate=approximate)
        yield Case("strided", g.strided(g.randn(33, 65)), approximate=approximate)
    yield Case("single", g.randn(1))
    yield Case("default-arg-2d", g.randn(64, 300))


def perf_cases(g: Inputs):
    yield Case("16M", g.randn(1 << 24))
    yield Case("128M-tanh", g.randn(1 << 27), approximate="tanh")
    yield Case("128M", g.randn(1 << 27))
