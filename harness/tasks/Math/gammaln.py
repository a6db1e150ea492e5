"""Log of the absolute value of the gamma function, ln|Gamma(x)|, of a float32 tensor, optional out=."""

import torch

from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "gammaln"
SIGNATURE = "gammaln(input, out=None)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = []
# Edge although the tier rule cannot see it: arguments next to the poles at the non-positive integers.
# (huge: arguments beyond 1e3 in magnitude)
TIERS = {"near-poles": "edge", "huge": "edge"}
DIFFICULTY = 1
DESCRIPTION = """
Compute ln|Gamma(x)|, the natural log of the absolute value of the gamma function, for every element
of a float32 tensor (any shape, possibly non-contiguous, possibly empty), like
torch.special.gammaln (torch.lgamma). It is defined for negative non-integers too (through |Gamma|),
is 0 at x = 1 and x = 2, grows like x ln x for large x (still finite at x = 1e36) and is +inf at the
poles x = 0, -0 and every negative integer (every float32 below -2**23 is one), and at +inf and
-inf; NaN stays NaN. Results must be float32-accurate across the whole range, including next to the
zeros at 1 and 2 and next to the poles. When `out` is None return a new float32 tensor of the
input's shape. When `out` is given (a float32 tensor of the input's shape, possibly non-contiguous)
write the result into it and return `out` itself. The input is never modified.
"""

# A few dozen multiply-adds, two logs and a sine per element.
FLOPS_PER_ELEMENT = 40


def cost(case: Case, output) -> Cost:
    # Read the input once and write the result once; a given `out` is only written.
    x = case.args[0] if case.args else case.kwargs["input"]
    return Cost(flops=FLOPS_PER_ELEMENT * x.numel(), bytes=float(numel_bytes(x) + numel_bytes(output)))


def reference(input, out=None):
    return torch.special.gammaln(input, out=out)


def cases(g: Inputs):
    # The comparison's absolute term scales with the RMS of the reference, so magnitudes are grouped:
    # moderate values (zeros at 1 and 2, negative non-integers, poles), tiny arguments, huge ones.
    # Values past ~4e36, where ln Gamma itself overflows float32, are left out: whether the last
    # finite value rounds to inf there depends on the formula.
    edges = [1.0, 2.0, 0.5, 1.5, 2.5, 3.0, 0.1, 4.5, 10.0, -0.5, -1.5, -2.5, -0.1, -3.7, -7.25,
             0.0, -0.0, -1.0, -2.0, -3.0, float("inf"), float("-inf"), float("nan")]
    yield Case("edge-values", g.tensor(edges))
    yield Case("edge-values-out", g.tensor(edges), out=g.randn(len(edges)))
    yield Case("tiny", g.tensor([1e-30, 1e-20, 1e-10, 1e-5, 1e-38, -1e-30, -1e-10, -1e-5]))
    # Large arguments, results within four decades of each other per case (the comparison's
    # absolute term scales with the RMS of the reference)
    yield Case("huge", g.tensor([1e3, 1e5, -1000.5, -12345.25, 123456.7]))
    yield Case("huge-1e10", g.tensor([1e10, -1e10, -3e7, 3e10]))
    yield Case("huge-1e20", g.tensor([1e20, 3e20]))
    yield Case("huge-1e30", g.tensor([1e30, 3e30]))
    yield Case("huge-1e36", g.tensor([1e36, 3e36]))
    # Next to the poles: x = -n +- small, ln|Gamma| ~ -ln|x + n| - ln n!.
    near_poles = [-n + d for n in (0, 1, 2, 5, 9) for d in (1e-6, -1e-6, 1e-3, -1e-3)]
    yield Case("near-poles", g.tensor(near_poles))
    yield Case("single", g.uniform(1, low=3.0, high=4.0))
    yield Case("empty", g.randn(0, 4))
    yield Case("around-zeros", g.uniform(1003, low=0.25, high=3.0))
    yield Case("positive", g.uniform(4099, low=0.0, high=30.0))
    yield Case("negative", g.uniform(2000, low=-12.0, high=0.0))
    yield Case("randn-3d", g.randn(3, 37, 129, std=4.0))
    yield Case("outliers", g.heavy_tailed(1500, scale=3.0, outlier_scale=50.0))
    yield Case("strided", g.strided(g.uniform(33, 65, low=0.1, high=15.0)))
    yield Case("transposed", g.transposed(g.uniform(97, 48, low=-6.0, high=6.0)))
    yield Case("out-2d", g.uniform(64, 300, low=0.01, high=8.0), out=g.randn(64, 300))
    yield Case("out-strided", g.randn(17, 129, std=3.0), out=g.strided(g.randn(17, 129)))
    yield Case("out-none-explicit", g.uniform(2049, low=1.0, high=200.0), out=None)


def perf_cases(g: Inputs):
    yield Case("16M", g.uniform(1 << 24, low=-20.0, high=50.0))
    yield Case("64M-out", g.uniform(1 << 26, low=0.0, high=50.0), out=g.randn(1 << 26))
    yield Case("128M", g.uniform(1 << 27, low=-20.0, high=50.0))
