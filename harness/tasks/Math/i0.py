"""Modified Bessel function of the first kind of order zero, I0(x), of a float32 tensor, optional out=."""

import torch

from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "i0"
SIGNATURE = "i0(input_tensor, out=None)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = []
# Edge although the tier rule cannot see it: arguments far beyond the standard normal inputs of the published test, where i0 grows towards float32 overflow.
TIERS = {"large": "edge", "large-35-40": "edge", "large-45-50": "edge", "very-large": "edge", "wide": "edge"}
DIFFICULTY = 2
DESCRIPTION = """
Compute I0(x), the zeroth-order modified Bessel function of the first kind,
I0(x) = sum_{k>=0} (x^2 / 4)^k / (k!)^2, for every element of a float32 tensor `input_tensor` (any
shape, possibly non-contiguous, possibly empty), like torch.special.i0. I0 is even, I0(0) = 1, and it
grows like e^|x| / sqrt(2 pi |x|): results must keep float32 relative accuracy (about 1e-6) over the
whole range up to |x| = 88, and are +inf for |x| >= 92, where the value exceeds float32. NaN stays
NaN. (Inputs with 88.7 < |x| < 92 and ±inf are not tested: there torch's float32 formula overflows
its intermediate e^|x| or gives NaN, which is not a property of I0.) When `out` is None return a new
float32 tensor of the input's shape. When `out` is given (a float32 tensor of the input's shape,
possibly non-contiguous) write the result into it and return `out` itself. The input is never
modified.
"""

# Two short polynomials, an exp, a sqrt and a division per element.
FLOPS_PER_ELEMENT = 30


def cost(case: Case, output) -> Cost:
    # Read the input once and write the result once; a given `out` is only written.
    x = case.args[0] if case.args else case.kwargs["input_tensor"]
    return Cost(flops=FLOPS_PER_ELEMENT * x.numel(), bytes=float(numel_bytes(x) + numel_bytes(output)))


def reference(input_tensor, out=None):
    return torch.special.i0(input_tensor, out=out)


def cases(g: Inputs):
    # The comparison's absolute term scales with the RMS of the reference, so magnitudes are grouped.
    # Not tested: ±inf (torch's float32 formula gives NaN, exp(inf) / sqrt(inf)) and
    # 88.7 < |x| < 92, where torch's intermediate exp(|x|) overflows although I0 is still finite.
    edges = [0.0, -0.0, 1e-20, 1e-3, -1e-3, 0.5, 1.0, -1.0, 2.0, -2.5, 3.7, 3.75, -3.75, 3.8, 5.0,
             -5.0, 7.5, float("nan")]
    yield Case("edge-values", g.tensor(edges))
    yield Case("edge-values-out", g.tensor(edges), out=g.randn(len(edges)))
    # (results within four decades of each other per case: the comparison's absolute term scales
    # with the RMS of the reference)
    yield Case("large", g.tensor([20.0, -20.0, 25.0, 30.0]))
    yield Case("large-35-40", g.tensor([35.5, -40.0, 38.0]))
    yield Case("large-45-50", g.tensor([45.0, 50.0, -47.5]))
    yield Case("very-large", g.tensor([80.0, -82.5, 85.0, 87.0, 88.0, -88.0, 88.5]))
    yield Case("overflow", g.tensor([92.5, -95.0, 100.0, 1000.0, -1e30, 3.4e38, 2.0, 4.0, float("nan")]))
    yield Case("single", g.uniform(1, low=1.0, high=2.0))
    yield Case("empty", g.randn(0, 4))
    yield Case("polynomial-range", g.uniform(1003, low=-3.75, high=3.75))
    yield Case("asymptotic-range", g.uniform(4099, low=3.75, high=12.0))
    yield Case("randn-3d", g.randn(3, 37, 129, std=3.0))
    yield Case("wide", g.uniform(2000, low=-30.0, high=30.0))
    yield Case("outliers", g.heavy_tailed(1500, scale=2.0, outlier_scale=6.0))
    yield Case("strided", g.strided(g.uniform(33, 65, low=-6.0, high=6.0)))
    yield Case("transposed", g.transposed(g.randn(97, 48, std=2.0)))
    yield Case("out-2d", g.uniform(64, 300, low=-8.0, high=8.0), out=g.randn(64, 300))
    yield Case("out-strided", g.randn(17, 129, std=2.0), out=g.strided(g.randn(17, 129)))
    yield Case("out-none-explicit", g.uniform(2049, low=0.0, high=5.0), out=None)


def perf_cases(g: Inputs):
    yield Case("16M", g.randn(1 << 24, std=5.0))
    yield Case("64M-out", g.randn(1 << 26, std=5.0), out=g.randn(1 << 26))
    yield Case("128M", g.randn(1 << 27, std=5.0))
