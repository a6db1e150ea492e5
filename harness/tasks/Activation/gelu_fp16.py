"""GELU activation on float16 tensors (float16 in, float16 out), exact or tanh-approximated."""

import torch
import torch.nn.functional as F

from harness.taskdef import Case, Inputs

ENTRY = "gelu_fp16"
SIGNATURE = "gelu_fp16(input, approximate='none')"
DTYPES = ["float16"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float16"]
CORE_KWARGS = ["approximate"]
# Edge although the tier rule cannot see it: outputs near float16's largest value (large-values).
TIERS = {"large-values": "edge"}
DIFFICULTY = 1
DESCRIPTION = """
Apply the Gaussian Error Linear Unit elementwise to a float16 tensor of any shape (possibly
non-contiguous, possibly empty) and return a new float16 tensor of the input's shape. With
approximate='none' (the default) compute x * Phi(x), where Phi(x) = 0.5 * (1 + erf(x / sqrt(2))) is
the standard normal CDF. With approximate='tanh' compute
0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3))). Compute in float32 internally and round
once to float16; NaN stays NaN, large positive x gives x, large negative x gives 0. The input is not
modified.
"""

DT = torch.float16

FLOPS_PER_ELEMENT = 10


def reference(input, approximate="none"):
    return F.gelu(input, approximate=approximate)


def cases(g: Inputs):
    # No ±inf: PyTorch's CPU and CUDA GELU disagree there (NaN vs inf), so it is not a fair test.
    edges = [0.0, -0.0, 1.0, -1.0, 6e-8, -6e-8, 0.5, -0.5, 3.0, -3.0, 6.0, -6.0, 10.0, -10.0,
             -1e4, -65504.0, float("nan")]
    # Large outputs in cases of their own (one magnitude each): beside ordinary ones they would widen
    # the tolerance's absolute part, scaled by the output's RMS, past the ordinary values.
    large = [("large-values", [1e4, 65504.0])]
    yield Case("edge-values", g.tensor(edges, dtype=DT), approximate="none")
    for label, values in large:
        yield Case(label, g.tensor(values, dtype=DT), approximate="none")
    yield Case("odd-1d", g.randn(1003, dtype=DT, std=2.0), approximate="none")
    yield Case("outliers-3d", g.heavy_tailed(3, 37, 129, dtype=DT, scale=2.0), approximate="none")
    yield Case("uniform-wide", g.uniform(4099, low=-8.0, high=8.0, dtype=DT), approximate="none")
    yield Case("strided", g.strided(g.randn(33, 65, dtype=DT, std=2.0)), approximate="none")
    yield Case("edge-values", g.tensor(edges, dtype=DT), approximate="tanh")
    for label, values in large:
        yield Case(label, g.tensor(values, dtype=DT), approximate="tanh")
    yield Case("odd-1d", g.randn(1003, dtype=DT, std=2.0), approximate="tanh")
    yield Case("outliers-3d", g.heavy_tailed(3, 37, 129, dtype=DT, scale=2.0), approximate="tanh")
    yield Case("uniform-wide", g.uniform(4099, low=-8.0, high=8.0, dtype=DT), approximate="tanh")
    yield Case("strided", g.strided(g.randn(33, 65, dtype=DT, std=2.0)), approximate="tanh")
    yield Case("transposed", g.transposed(g.randn(97, 48, dtype=DT, std=2.0)))
    yield Case("single", g.randn(1, dtype=DT))
    yield Case("empty", g.randn(0, 9, dtype=DT))
    yield Case("2d", g.randn(64, 300, dtype=DT, std=2.0))


def perf_cases(g: Inputs):
    # 2 bytes per element: 2**27 elements in + out move 512 MB.
    yield Case("16M", g.randn(1 << 24, dtype=DT, std=2.0))
    yield Case("64M", g.randn(1 << 26, dtype=DT, std=2.0))
    yield Case("128M-tanh", g.randn(1 << 27, dtype=DT, std=2.0), approximate="tanh")
    yield Case("128M", g.randn(1 << 27, dtype=DT, std=2.0))
