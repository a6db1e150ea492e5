"""Elementwise reciprocal square root 1/sqrt(x) of a float32 tensor, optionally into out=."""

import torch

from harness.taskdef import Case, Inputs

ENTRY = "rsqrt"
SIGNATURE = "rsqrt(input, out=None)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = []
DIFFICULTY = 1
DESCRIPTION = """
Compute 1 / sqrt(x) for every element of a float32 tensor, like torch.rsqrt(input, out=out).
Negative inputs (including -inf) give NaN, +0 gives +inf, -0 gives -inf, +inf gives +0 and NaN
stays NaN. The result is float32 with float32 accuracy over the whole normal float32 range (inputs
from about 1e-37 to 3e38). `input` has any shape (possibly 0-d, empty or non-contiguous). If `out`
is None return a new float32 tensor of the input's shape; otherwise `out` is a float32 tensor of
that shape (possibly a strided view): write the result into it and return `out` itself. The input
must not be modified.
"""

# A square root and a division per element.
FLOPS_PER_ELEMENT = 2


def reference(input, out=None):
    return torch.rsqrt(input, out=out)


def cases(g: Inputs):
    # Magnitudes are grouped: the tolerance scales with the RMS of the reference. No subnormal
    # inputs (GPU kernels may flush them to zero).
    yield Case("edge-values", g.tensor([0.0, -0.0, float("inf"), float("-inf"), float("nan"), -1.0,
                                        -1e-30, -3e38, 4.0, 0.25, 1.0, 2.0, 9.0]))
    yield Case("tiny-inputs", g.tensor([1e-30, 3e-30, 2e-30, 1.5e-30, 5e-30, 1.2e-30, 4e-30]))
    yield Case("near-min-normal", g.tensor([2e-38, 3e-38, 5e-38, 1.5e-37, 4e-38]))
    yield Case("huge-inputs", g.tensor([1e30, 3e30, 2e30, 1.5e30, 5e30, 1.2e30]))
    yield Case("near-max", g.tensor([3.0e38, 2.0e38, 1.0e38, 5.0e37, 3.4e38]))
    yield Case("single-0d", g.tensor(6.25))
    yield Case("empty", g.randn(0, 3))
    yield Case("uniform-odd", g.uniform(4099, low=0.25, high=16.0))
    yield Case("uniform-wide-3d", g.uniform(3, 37, 129, low=1.0, high=1e4))
    # Half of the values are negative (NaN).
    yield Case("randn-mixed-sign", g.randn(2049, std=3.0))
    yield Case("outliers-abs", g.heavy_tailed(33, 65, scale=3.0).abs())
    yield Case("strided", g.strided(g.uniform(33, 65, low=0.5, high=8.0)))
    yield Case("transposed", g.transposed(g.uniform(97, 48, low=0.1, high=2.0)))
    yield Case("out", g.uniform(64, 300, low=0.2, high=50.0), out=g.randn(64, 300))
    yield Case("out-strided", g.randn(31, 67), out=g.strided(g.randn(31, 67)))


def perf_cases(g: Inputs):
    yield Case("16M", g.uniform(1 << 24, low=0.01, high=100.0))
    yield Case("64M-out", g.uniform(1 << 26, low=0.01, high=100.0), out=g.randn(1 << 26))
    yield Case("128M", g.uniform(1 << 27, low=0.01, high=100.0))
