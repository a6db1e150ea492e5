"""exp(sqrt(x)) elementwise on a float32 tensor, optionally written into an out= tensor."""

import torch

from harness.taskdef import Case, Inputs

ENTRY = "sqrt_exp"
SIGNATURE = "sqrt_exp(input, out=None)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["out"]
DIFFICULTY = 2
DESCRIPTION = """
For every element x of a float32 tensor compute exp(sqrt(x)) (first the square root, then the
natural exponential of it), like torch.exp(torch.sqrt(input), out=out). Negative inputs (and
-inf) give NaN because their square root is NaN; sqrt(+-0) = +-0 gives 1; +inf gives +inf; NaN
stays NaN. The float32 result overflows to +inf once sqrt(x) exceeds about 88.72 (x above about
7871). `input` has any shape (possibly 0-d, empty or non-contiguous). If `out` is None return a new
float32 tensor of the input's shape; otherwise `out` is a float32 tensor of that shape (possibly a
strided view): write the result into it and return `out` itself. The input must not be modified.
"""

# A square root and an exponential per element.
FLOPS_PER_ELEMENT = 2


def reference(input, out=None):
    sqrt_result = torch.sqrt(input)
    return torch.exp(sqrt_result, out=out)


def cases(g: Inputs):
    nan, inf = float("nan"), float("inf")
    # Magnitudes are grouped: the tolerance scales with the RMS of the reference.
    yield Case("edge-values", g.tensor([0.0, -0.0, 0.25, 1.0, 2.0, 4.0, 9.0, 16.0, -1.0, -1e-30,
                                        float("-inf"), nan, 1e-8]))
    # Near float32 overflow: exp(sqrt(7800)) = 2.3e38 is finite, sqrt(7900) = 88.9 is not. Values
    # are kept clear of the threshold itself (about 7871.5), where rounding decides.
    yield Case("near-overflow", g.tensor([6000.0, 7000.0, 7500.0, 7800.0, 7900.0, 1e10, inf, 3e38]))
    yield Case("tiny-inputs", g.tensor([1e-30, 1e-20, 1e-12, 1e-8, 1e-6, 1e-4]))
    yield Case("single-0d", g.tensor(2.25))
    yield Case("empty", g.randn(0, 3))
    yield Case("uniform-odd", g.uniform(4099, low=0.0, high=25.0))
    yield Case("uniform-wide-3d", g.uniform(3, 37, 129, low=0.0, high=400.0))
    # Half of these are negative (NaN).
    yield Case("randn-mixed-sign", g.randn(2049, std=3.0))
    yield Case("outliers-abs", g.heavy_tailed(33, 65, scale=2.0, outlier_scale=20.0).abs())
    yield Case("strided", g.strided(g.uniform(33, 65, low=0.0, high=9.0)))
    yield Case("transposed", g.transposed(g.uniform(97, 48, low=0.0, high=16.0)))
    yield Case("out", g.uniform(64, 300, low=0.0, high=30.0), out=g.randn(64, 300))
    yield Case("out-strided", g.uniform(31, 67, low=0.0, high=4.0), out=g.strided(g.randn(31, 67)))


def perf_cases(g: Inputs):
    yield Case("16M", g.uniform(1 << 24, low=0.0, high=100.0))
    yield Case("64M-out", g.uniform(1 << 26, low=0.0, high=100.0), out=g.randn(1 << 26))
    yield Case("128M", g.uniform(1 << 27, low=0.0, high=100.0))
