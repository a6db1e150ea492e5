"""Fused pair: complementary error function and square root of the same float32 tensor."""

import torch

from harness.taskdef import Case, Inputs

ENTRY = "erfc_sqrt"
SIGNATURE = "erfc_sqrt(input)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = []
DIFFICULTY = 2
DESCRIPTION = """
For a float32 tensor `input` of any shape (possibly non-contiguous, possibly empty) return a tuple
of two new float32 tensors of the same shape: (erfc(input), sqrt(input)), as torch.erfc and
torch.sqrt compute them. erfc(x) = 1 - erf(x) = 2/sqrt(pi) * integral from x to inf of exp(-t^2)
dt, with values in [0, 2]: erfc(-inf) = 2, erfc(+inf) = 0, and for large positive x it is tiny but
must keep float32 *relative* accuracy (erfc(5) ~ 1.5e-12, erfc(9) ~ 4e-37), so computing 1 - erf(x)
in float32 is not good enough. sqrt of a negative number (or -inf) is NaN, sqrt(-0.0) = -0.0,
sqrt(inf) = inf. NaN propagates to both outputs. The input is never modified.
"""

# One exp, a degree-11 polynomial, a division and a square root per element.
FLOPS_PER_ELEMENT = 30


def reference(input):
    return torch.erfc(input), torch.sqrt(input)


def cases(g: Inputs):
    inf, nan = float("inf"), float("nan")
    edges = [0.0, -0.0, 0.25, -0.25, 0.5, 1.0, -1.0, 2.0, -2.0, 3.5, 5.0, 9.0, 10.0, 12.0, -6.0,
             1e-6, inf, -inf, nan]
    yield Case("edge-values", g.tensor(edges))
    # Kept apart: sqrt(1e30) = 1e15 would set the comparison scale (the RMS of the reference).
    # (and one magnitude of root per case; the tiny arguments beside ordinary ones)
    yield Case("extreme-values", g.tensor([1e30, -1e30, 2e30]))
    yield Case("near-max", g.tensor([3.4e38, 1e38]))
    yield Case("large-values", g.tensor([2e20, 5e20]))
    yield Case("tiny-values", g.tensor([1e-30, 1e-40, 1.0, 4.0]))
    yield Case("single", g.tensor([0.75]))
    yield Case("empty", g.randn(0, 5))
    yield Case("odd-1d", g.randn(1003, std=2.0))
    yield Case("positive-uniform", g.uniform(4099, low=0.0, high=4.0))
    # Tails: the reference scale is that of the largest values in the case, so relative accuracy
    # is checked over a range of magnitudes in each one.
    yield Case("tail-3-to-5", g.uniform(2000, low=3.0, high=5.0))
    yield Case("tail-5-to-9", g.uniform(2000, low=5.0, high=9.0))
    yield Case("negative", g.uniform(1000, low=-6.0, high=0.0))
    yield Case("outliers-3d", g.heavy_tailed(3, 37, 129, scale=2.0))
    yield Case("strided", g.strided(g.uniform(33, 65, low=-1.0, high=6.0)))
    yield Case("transposed", g.transposed(g.uniform(97, 48, low=0.0, high=3.0)))


def perf_cases(g: Inputs):
    yield Case("16M", g.uniform(1 << 24, low=-1.0, high=5.0))
    yield Case("64M", g.uniform(1 << 26, low=-1.0, high=5.0))
    yield Case("128M", g.uniform(1 << 27, low=-1.0, high=5.0))
