"""Two outputs from one float32 tensor: the angles converted to degrees, and the square roots."""

import math

import torch

from harness.taskdef import Case, Inputs

ENTRY = "rad2deg_sqrt"
SIGNATURE = "rad2deg_sqrt(input)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = []
DIFFICULTY = 2
DESCRIPTION = """
Given a float32 tensor of angles in radians (any shape, possibly 0-d, empty or non-contiguous),
return a tuple of two new float32 tensors of the same shape, in this order:
(1) the angles in degrees, x * (180 / pi), like torch.rad2deg(input) (it overflows to +-inf for
|x| above about 5.9e36; inf and NaN pass through);
(2) the elementwise square root, like torch.sqrt(input): NaN for negative inputs and -inf,
sqrt(+-0) = +-0, sqrt(+inf) = +inf.
The input must not be modified.
"""

# A multiply and a square root per element.
FLOPS_PER_ELEMENT = 2


def reference(input):
    return torch.rad2deg(input), torch.sqrt(input)


def cases(g: Inputs):
    pi = math.pi
    nan, inf = float("nan"), float("inf")
    yield Case("edge-values", g.tensor([0.0, -0.0, pi, -pi, pi / 2, 2 * pi, pi / 4, 1.0, -1.0, 0.5,
                                        3.142, 1.570, 0.785, nan]))
    yield Case("infinities", g.tensor([inf, -inf, nan, 2.0, -3.0, 10.0]))
    # rad2deg overflows float32 above ~5.9e36 in magnitude.
    yield Case("overflow", g.tensor([1e37, -1e37, 3e38, 5e36, 4e36]))
    # (apart from the overflow: the comparison's absolute term scales with the RMS of the reference)
    yield Case("large-values", g.tensor([1e30, 2e30, -4e30]))
    yield Case("tiny", g.tensor([1e-30, 4e-30, 2.5e-31, 1e-29, 7e-30]))
    yield Case("single-0d", g.tensor(1.25))
    yield Case("empty", g.randn(0, 3))
    yield Case("uniform-odd", g.uniform(4099, low=0.0, high=2 * pi))
    # Half negative: degrees negative, square roots NaN.
    yield Case("uniform-signed-3d", g.uniform(3, 37, 129, low=-4 * pi, high=4 * pi))
    yield Case("randn", g.randn(2049, std=3.0))
    yield Case("outliers", g.heavy_tailed(33, 65, scale=2.0))
    yield Case("strided", g.strided(g.uniform(33, 65, low=0.0, high=10.0)))
    yield Case("transposed", g.transposed(g.uniform(97, 48, low=0.0, high=100.0)))


def perf_cases(g: Inputs):
    yield Case("16M", g.uniform(1 << 24, low=0.0, high=2 * math.pi))
    yield Case("64M", g.uniform(1 << 26, low=0.0, high=2 * math.pi))
    yield Case("128M", g.uniform(1 << 27, low=0.0, high=2 * math.pi))
