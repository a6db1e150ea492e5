"""ReLU activation on bfloat16 tensors (bfloat16 in, bfloat16 out)."""

import torch
import torch.nn.functional as F

from harness.taskdef import Case, Inputs

ENTRY = "relu_bf16"
SIGNATURE = "relu_bf16(input)"
DTYPES = ["bfloat16"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["bfloat16"]
CORE_KWARGS = []
# Edge although the tier rule cannot see it: outputs beyond 1e4 (large-values), where bfloat16's
# values lie 64 or more apart.
TIERS = {"large-values": "edge"}
DIFFICULTY = None
DESCRIPTION = """
Apply the rectified linear unit elementwise to a bfloat16 tensor of any shape (possibly
non-contiguous, possibly empty): each element x becomes max(0, x); NaN stays NaN, +inf stays +inf,
-inf becomes 0. Return a new bfloat16 tensor of the input's shape; the input is not modified.
"""

DT = torch.bfloat16

FLOPS_PER_ELEMENT = 1


def reference(input):
    return F.relu(input)


def cases(g: Inputs):
    # NaN must propagate, as torch's relu does on CPU and CUDA.
    edges = [0.0, -0.0, 1.0, -1.0, 1e-30, -1e-30, 2.5, -2.5, -1e4, -3e38,
             float("inf"), float("-inf"), float("nan")]
    yield Case("edge-values", g.tensor(edges, dtype=DT))
    # Large outputs in cases of their own (one magnitude each): beside ordinary ones they would widen
    # the tolerance's absolute part, scaled by the output's RMS, past the ordinary values.
    yield Case("large-values", g.tensor([1e4, 2.5e4], dtype=DT))
    yield Case("huge-values", g.tensor([3e38, 1e38], dtype=DT))
    yield Case("odd-1d", g.randn(1003, dtype=DT, std=1.0))
    yield Case("outliers-3d", g.heavy_tailed(3, 37, 129, dtype=DT, scale=1.0))
    yield Case("uniform-wide", g.uniform(4099, low=-6.0, high=6.0, dtype=DT))
    yield Case("strided", g.strided(g.randn(33, 65, dtype=DT, std=1.0)))
    yield Case("transposed", g.transposed(g.randn(97, 48, dtype=DT, std=1.0)))
    yield Case("single", g.randn(1, dtype=DT))
    yield Case("empty", g.randn(0, 9, dtype=DT))
    yield Case("2d", g.randn(64, 300, dtype=DT, std=1.0))


def perf_cases(g: Inputs):
    # 2 bytes per element: 2**27 elements in + out move 512 MB.
    yield Case("16M", g.randn(1 << 24, dtype=DT, std=1.0))
    yield Case("64M", g.randn(1 << 26, dtype=DT, std=1.0))
    yield Case("128M", g.randn(1 << 27, dtype=DT, std=1.0))
