"""Digamma (psi) function, the logarithmic derivative of Gamma, elementwise on float32."""

import torch

from harness.taskdef import Case, Inputs

ENTRY = "digamma"
SIGNATURE = "digamma(input_tensor)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = []
# Edge although the tier rule cannot see it: arguments up to 1e4 and next to the poles at the non-positive integers, outside the published test's standard normal inputs.
# (extreme-values: arguments next to the pole at 0 and to negative poles)
TIERS = {"large-positive": "edge", "near-poles": "edge", "extreme-values": "edge"}
DIFFICULTY = 2
DESCRIPTION = """
Compute psi(x) = d/dx ln Gamma(x) for every element of `input_tensor`, a float32 tensor of any
shape (possibly non-contiguous, possibly empty), as torch.special.digamma does, returning a new
float32 tensor of the same shape. psi has poles at 0 and the negative integers: psi(+0) = -inf,
psi(-0) = +inf, a negative integer (and -inf) gives NaN, and just beside a pole the value is huge
(~ -1/(x - n)) and must keep float32 relative accuracy; negative non-integers follow the reflection
formula psi(x) = psi(1 - x) - pi / tan(pi x). psi(+inf) = +inf, NaN stays NaN, psi(x) ~ ln(x) for
large x and psi(x) ~ -1/x for tiny x. The input is never modified.
"""

# Up to ten reciprocals, a log, a short series and a sin/cos for the reflection.
FLOPS_PER_ELEMENT = 40


def reference(input_tensor):
    # Evaluated in float64 and rounded, so that the target does not carry the ~1e-7 absolute
    # error of a float32 evaluation (PyTorch's float32 path cancels ~2.3 against ~2.3 near the
    # positive root 1.4616).
    return torch.special.digamma(input_tensor.double()).to(input_tensor.dtype)


def cases(g: Inputs):
    inf, nan = float("inf"), float("nan")
    # Grouped by magnitude: the comparison scale is the RMS of the reference in each case.
    edges = [1.0, 0.5, 2.0, 1.4616321, 3.0, 9.999999, 10.0, 10.000001, 100.0, 0.1, -0.5, -1.5, -2.5,
             -1.25, -0.1, -7.75, 0.0, -0.0, -1.0, -2.0, -100.0, -3e7, inf, -inf, nan]
    yield Case("edge-values", g.tensor(edges))
    # (one magnitude of result per case: the poles' ~1e30 beside ~1e6 would hide any error there)
    yield Case("extreme-values", g.tensor([1e-6, -1e-6, -3.9999998, -7.0000005]))
    yield Case("pole-1e-30", g.tensor([1e-30, -1e-30, 3e-30]))
    yield Case("pole-1e-20", g.tensor([1e-20, -1e-20]))
    yield Case("large-arguments", g.tensor([1e30, 3e38, 100.0]))
    yield Case("single", g.tensor([4.5]))
    yield Case("empty", g.randn(0, 5))
    yield Case("positive-uniform", g.uniform(4099, low=0.01, high=20.0))
    # psi crosses zero at 1.4616...: absolute accuracy of a few float32 roundings is needed.
    yield Case("around-root", g.uniform(1000, low=1.0, high=2.0))
    yield Case("large-positive", g.uniform(2000, low=10.0, high=1e4))
    yield Case("negative-uniform", g.uniform(2000, low=-20.0, high=0.0))
    # Next to the poles -1..-20: offsets of 1e-4..1e-2 on either side.
    k = g.randint(-20, 0, 1000).to(torch.float32)
    off = g.uniform(1000, low=1e-4, high=1e-2) * (g.randint(0, 2, 1000).to(torch.float32) * 2 - 1)
    yield Case("near-poles", k + off)
    yield Case("outliers-3d", g.heavy_tailed(3, 37, 129, scale=3.0, outlier_scale=30.0))
    yield Case("strided", g.strided(g.uniform(33, 65, low=0.1, high=30.0)))
    yield Case("transposed", g.transposed(g.uniform(97, 48, low=-5.0, high=5.0)))


def perf_cases(g: Inputs):
    yield Case("16M", g.uniform(1 << 24, low=0.01, high=50.0))
    yield Case("64M", g.uniform(1 << 26, low=0.01, high=50.0))
    yield Case("128M-mixed-sign", g.uniform(1 << 27, low=-50.0, high=50.0))
