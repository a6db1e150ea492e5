"""Hyperbolic tangent on float16 tensors (float16 in, float16 out)."""

import torch

from harness.taskdef import Case, Inputs

ENTRY = "tanh_fp16"
SIGNATURE = "tanh_fp16(input)"
DTYPES = ["float16"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float16"]
CORE_KWARGS = []
DIFFICULTY = None
DESCRIPTION = """
Compute the hyperbolic tangent elementwise over a float16 tensor of any shape (possibly
non-contiguous, possibly empty) and return a new float16 tensor of the input's shape. Compute in a
wider type internally and round once: results lie in [-1, 1], +inf maps to 1, -inf to -1, NaN
stays NaN, large |x| saturates to ±1 without overflow, and tiny |x| keeps tanh(x) ≈ x. The input is
not modified.
"""

DT = torch.float16

FLOPS_PER_ELEMENT = 5


def reference(input):
    return torch.tanh(input)


def cases(g: Inputs):
    # Saturation (|x| >= 4 rounds to ±1 in float16), tiny values where tanh(x) = x, extremes.
    edges = [0.0, -0.0, 1.0, -1.0, 6e-8, -6e-8, 1e-3, -1e-3, 0.5, -0.5, 2.0, -2.0, 4.0, -4.0,
             10.0, -10.0, 65504.0, -65504.0, float("inf"), float("-inf"), float("nan")]
    yield Case("edge-values", g.tensor(edges, dtype=DT))
    yield Case("odd-1d", g.randn(1003, dtype=DT, std=2.0))
    yield Case("outliers-3d", g.heavy_tailed(3, 37, 129, dtype=DT, scale=2.0))
    yield Case("uniform-wide", g.uniform(4099, low=-5.0, high=5.0, dtype=DT))
    yield Case("strided", g.strided(g.randn(33, 65, dtype=DT, std=2.0)))
    yield Case("transposed", g.transposed(g.randn(97, 48, dtype=DT, std=2.0)))
    yield Case("single", g.randn(1, dtype=DT))
    yield Case("empty", g.randn(0, 9, dtype=DT))
    yield Case("2d", g.randn(64, 300, dtype=DT, std=2.0))


def perf_cases(g: Inputs):
    # 2 bytes per element: 2**27 elements in + out move 512 MB.
    yield Case("16M", g.randn(1 << 24, dtype=DT, std=2.0))
    yield Case("64M", g.randn(1 << 26, dtype=DT, std=2.0))
    yield Case("128M", g.randn(1 << 27, dtype=DT, std=2.0))
