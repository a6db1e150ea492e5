"""Logistic sigmoid on bfloat16 tensors (bfloat16 in, bfloat16 out)."""

import torch

from harness.taskdef import Case, Inputs

ENTRY = "sigmoid_bf16"
SIGNATURE = "sigmoid_bf16(input)"
DTYPES = ["bfloat16"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["bfloat16"]
CORE_KWARGS = []
DIFFICULTY = None
DESCRIPTION = """
Compute the logistic sigmoid 1 / (1 + exp(-x)) elementwise over a bfloat16 tensor of any shape
(possibly non-contiguous, possibly empty) and return a new bfloat16 tensor of the input's shape.
Compute in a wider type internally and round once: results lie in [0, 1], +inf maps to 1, -inf to
0, NaN stays NaN, and large |x| saturates without overflow or NaN. The input is not modified.
"""

DT = torch.bfloat16

FLOPS_PER_ELEMENT = 4


def reference(input):
    return torch.sigmoid(input)


def cases(g: Inputs):
    # Both saturation sides (|x| >= 8 already rounds to 1 in bfloat16) and the format's extremes.
    edges = [0.0, -0.0, 1.0, -1.0, 1e-4, -1e-4, 4.0, -4.0, 8.0, -8.0, 12.0, -12.0, 17.0, -17.0,
             100.0, -100.0, 3e38, -3e38, float("inf"), float("-inf"), float("nan")]
    yield Case("edge-values", g.tensor(edges, dtype=DT))
    yield Case("odd-1d", g.randn(1003, dtype=DT, std=4.0))
    yield Case("outliers-3d", g.heavy_tailed(3, 37, 129, dtype=DT, scale=4.0))
    yield Case("uniform-wide", g.uniform(4099, low=-20.0, high=20.0, dtype=DT))
    yield Case("strided", g.strided(g.randn(33, 65, dtype=DT, std=4.0)))
    yield Case("transposed", g.transposed(g.randn(97, 48, dtype=DT, std=4.0)))
    yield Case("single", g.randn(1, dtype=DT))
    yield Case("empty", g.randn(0, 9, dtype=DT))
    yield Case("2d", g.randn(64, 300, dtype=DT, std=4.0))


def perf_cases(g: Inputs):
    # 2 bytes per element: 2**27 elements in + out move 512 MB.
    yield Case("16M", g.randn(1 << 24, dtype=DT, std=4.0))
    yield Case("64M", g.randn(1 << 26, dtype=DT, std=4.0))
    yield Case("128M", g.randn(1 << 27, dtype=DT, std=4.0))
