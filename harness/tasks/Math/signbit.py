"""Test the sign bit of every float32 element (True for -0.0 and negative NaN), into bool."""

import torch

from harness.taskdef import Case, Inputs

ENTRY = "signbit"
SIGNATURE = "signbit(input, out=None)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = []
DIFFICULTY = 2
DESCRIPTION = """
For every element of a float32 tensor report whether its IEEE sign bit is set, like
torch.signbit(input, out=out). The result is a bool tensor of the input's shape: True for negative
numbers and -inf, and also for -0.0 and for a NaN whose sign bit is set; False for +0.0, positive
numbers, +inf and a NaN with a clear sign bit. This is a test of the bit, not a comparison x < 0.
`input` has any shape (possibly 0-d, empty or non-contiguous). If `out` is None return a new bool
tensor; otherwise `out` is a bool tensor of the input's shape (possibly a strided view): write the
result into it and return `out` itself. The input must not be modified.
"""

# One bit test per element.
FLOPS_PER_ELEMENT = 1


def reference(input, out=None):
    return torch.signbit(input, out=out)


def cases(g: Inputs):
    nan = float("nan")
    # -0.0 and -NaN have the sign bit set although they do not compare below 0; torch's CPU and
    # CUDA kernels both test the bit (std::signbit).
    edges = [-0.0, 0.0, -nan, nan, float("-inf"), float("inf"), -1e-45, 1e-45, -1e-38, -1.0, 1.0,
             -3.0e38, 3.0e38, -0.5]
    yield Case("edge-values", g.tensor(edges))
    yield Case("zeros-both-signs", g.tensor([0.0, -0.0] * 50 + [-0.0]))
    yield Case("single-0d", g.tensor(-0.0))
    yield Case("empty", g.randn(0, 4))
    yield Case("randn-odd", g.randn(4099))
    yield Case("uniform-3d", g.uniform(3, 37, 129, low=-1.0, high=1.0))
    yield Case("outliers", g.heavy_tailed(2049, scale=2.0))
    yield Case("strided", g.strided(g.randn(33, 65)))
    yield Case("transposed", g.transposed(g.randn(97, 48)))
    yield Case("out", g.randn(64, 300), out=g.randint(0, 2, 64, 300, dtype=torch.bool))
    yield Case("out-strided", g.randn(31, 67),
               out=g.strided(g.randint(0, 2, 31, 67, dtype=torch.bool)))


def perf_cases(g: Inputs):
    yield Case("16M", g.randn(1 << 24))
    yield Case("64M-out", g.randn(1 << 26), out=g.randint(0, 2, 1 << 26, dtype=torch.bool))
    yield Case("128M", g.randn(1 << 27))
