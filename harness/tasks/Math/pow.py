"""Elementwise power x ** exponent of a float32 tensor, with a scalar or broadcast tensor exponent."""

import torch

from harness.taskdef import Case, Inputs

ENTRY = "pow"
SIGNATURE = "pow(input_tensor, exponent, out=None)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = []
DIFFICULTY = 3
DESCRIPTION = """
Raise every element of a float32 tensor to a power, like torch.pow(input_tensor, exponent,
out=out). `exponent` is either a Python number (int or float; out_i = x_i ** exponent) or a
float32 tensor whose shape broadcasts with input_tensor's (out_i = x_i ** e_i; the result has the
broadcast shape, which may be larger than both; a 0-d tensor acts as a scalar). Either tensor may
be non-contiguous. Values follow C's powf: a negative base with an integer exponent gives a signed
result ((-2)**3 = -8, (-2)**-3 = -0.125); a finite negative base with a non-integer exponent gives
NaN; x**0 = 1 for every x (also NaN); 1**y = 1 for every y (also NaN); (-1)**(+-inf) = 1;
0**y is +inf for y < 0 (-inf for -0.0 and an odd integer y) and 0 for y > 0; |x| < 1 gives 0 for
y = +inf and +inf for y = -inf, |x| > 1 the reverse; (+-inf)**y follows the same sign rules as
+-0 with the roles of 0 and inf swapped; NaN propagates otherwise. Results beyond the float32 range
become +-inf. The result must be float32-accurate (relative error well below 1e-4) for exponents of
magnitude up to about 30. If `out` is None return a new float32 tensor; otherwise `out` is a
float32 tensor of the result's shape (possibly a strided view): write the result into it and return
`out` itself. The inputs must not be modified.
"""

# log2, exp2 and a few compares/multiplies per element.
FLOPS_PER_ELEMENT = 10


def reference(input_tensor, exponent, out=None):
    return torch.pow(input_tensor, exponent, out=out)


def _signed(g: Inputs, *shape, low: float, high: float):
    """Magnitudes uniform in [low, high) with random signs."""
    mag = g.uniform(*shape, low=low, high=high)
    sign = g.randint(0, 2, *shape).to(mag.dtype) * 2 - 1
    return mag * sign


def cases(g: Inputs):
    nan, inf = float("nan"), float("inf")
    # The C99 special cases, elementwise base/exponent pairs (torch's CPU and CUDA kernels both
    # follow powf here). Grouped apart from ordinary values: the tolerance scales with the RMS of
    # the finite reference values.
    pairs = [(0.0, 0.0), (nan, 0.0), (1.0, nan), (-1.0, inf), (-1.0, -inf), (0.0, -1.0),
             (-0.0, -1.0), (-0.0, -2.0), (0.0, 3.0), (-0.0, 3.0), (-0.0, 0.5), (0.5, inf),
             (0.5, -inf), (2.0, inf), (2.0, -inf), (inf, -2.0), (inf, 0.5), (-inf, 3.0),
             (-inf, 2.0), (-inf, -3.0), (-inf, 0.5), (-2.0, 0.5), (-8.0, 1.0 / 3.0), (-2.0, 3.0),
             (-2.0, -3.0), (nan, 1.0), (2.0, nan), (-2.0, inf), (-0.5, inf), (3.0, 4.0),
             (-0.0, -0.5), (-0.0, 0.0), (inf, 0.0), (-inf, -2.5), (-0.0, -3.0), (-3.0, 2.0),
             (-1.0, 7.0), (-1.0, 1e10), (3.0, 100.0), (0.1, 50.0)]
    yield Case("edge-c99-pairs", g.tensor([p[0] for p in pairs]), g.tensor([p[1] for p in pairs]))
    # Scalar exponents. torch computes 2, 3, 0.5, -0.5, -1, -2 with x*x, sqrt, rsqrt, ... so
    # inputs where those disagree with powf (-inf ** 0.5, -0.0 ** -0.5) are left out.
    yield Case("scalar-2", g.randn(4099, std=3.0), 2.0)
    yield Case("scalar-int-3", g.randn(37, 129, std=2.0), 3)
    yield Case("scalar-0.5-mixed-sign", g.randn(2049, std=10.0), 0.5)
    yield Case("scalar-neg-0.5", g.uniform(1000, low=0.01, high=10.0), -0.5)
    yield Case("scalar-neg-1", _signed(g, 1000, low=0.1, high=10.0), -1.0)
    yield Case("scalar-int-neg-2", _signed(g, 1000, low=0.5, high=10.0), -2)
    yield Case("scalar-2.5-mixed-sign", g.randn(33, 65, std=3.0), 2.5)
    yield Case("scalar-neg-1.7", g.uniform(1000, low=0.1, high=5.0), -1.7)
    yield Case("scalar-int-7-negative-base", _signed(g, 1000, low=0.5, high=3.0), 7)
    yield Case("scalar-30", g.uniform(1000, low=0.5, high=2.0), 30.0)
    yield Case("scalar-0-specials", g.tensor([nan, inf, -inf, 0.0, -0.0, 2.0, -3.5]), 0.0)
    yield Case("scalar-1-heavy", g.heavy_tailed(1000, scale=2.0), 1.0)
    # Tensor exponents.
    yield Case("tensor-same-shape", g.uniform(3, 37, 129, low=0.5, high=4.0),
               g.uniform(3, 37, 129, low=-3.0, high=3.0))
    yield Case("tensor-negative-base-int-exp", _signed(g, 2049, low=0.5, high=3.0),
               g.randint(-5, 6, 2049).to(torch.float32))
    yield Case("tensor-negative-base-frac-exp", g.randn(1000), g.uniform(1000, low=-2.0, high=2.0))
    yield Case("tensor-broadcast-row", g.uniform(37, 129, low=0.1, high=3.0),
               g.uniform(129, low=-2.0, high=4.0))
    # The result (33, 65) is larger than either operand.
    yield Case("tensor-broadcast-both-ways", g.uniform(33, 1, low=0.5, high=2.0),
               g.uniform(1, 65, low=-5.0, high=5.0))
    yield Case("tensor-broadcast-4d", _signed(g, 2, 3, 1, 17, low=0.5, high=2.0),
               g.randint(-3, 4, 3, 5, 1).to(torch.float32))
    yield Case("tensor-0d-exponent", g.uniform(500, low=0.0, high=5.0), g.tensor(1.5))
    yield Case("strided-base", g.strided(g.uniform(33, 65, low=0.1, high=3.0)), g.uniform(33, 65, low=-2.0, high=2.0))
    yield Case("transposed-exponent", g.uniform(97, 48, low=0.2, high=2.0),
               g.transposed(g.uniform(97, 48, low=-3.0, high=3.0)))
    yield Case("single-0d", g.tensor(-1.5), 3)
    yield Case("empty", g.randn(0, 4), 2.0)
    yield Case("out-scalar", g.uniform(64, 300, low=0.1, high=3.0), 1.3, out=g.randn(64, 300))
    yield Case("out-tensor-strided", g.uniform(31, 67, low=0.5, high=2.0), g.uniform(67, low=-2.0, high=2.0),
               out=g.strided(g.randn(31, 67)))


def perf_cases(g: Inputs):
    yield Case("16M-scalar", g.uniform(1 << 24, low=0.1, high=4.0), 2.5)
    yield Case("64M-tensor", g.uniform(1 << 26, low=0.1, high=4.0), g.uniform(1 << 26, low=-2.0, high=2.0))
    yield Case("128M-scalar-out", g.uniform(1 << 27, low=0.1, high=4.0), 1.7, out=g.randn(1 << 27))
