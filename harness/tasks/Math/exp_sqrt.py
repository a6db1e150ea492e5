"""Square root of the exponential, sqrt(exp(x)), of a float32 tensor, with an optional output tensor."""

import torch

from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "exp_sqrt"
SIGNATURE = "exp_sqrt(input, out=None)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["out"]
# Edge although the tier rule cannot see it: results beyond 1e8 (large-values).
TIERS = {"large-values": "edge"}
DIFFICULTY = 1
DESCRIPTION = """
For every element x of a float32 tensor (any shape, possibly non-contiguous, possibly empty) compute
exp(x) and then the square root of that, sqrt(exp(x)), in float32, exactly in that order (the
published reference calls torch.exp and then torch.sqrt). Because the intermediate exp(x) is a
float32, it overflows to +inf for x above about 88.72, so the result there is +inf (not the finite
exp(x / 2)); exp(-inf) = 0 gives 0, +inf gives +inf and NaN stays NaN. When `out` is None return a
new float32 tensor of the input's shape. When `out` is given (a float32 tensor of the input's shape,
possibly non-contiguous) write the result into it and return `out` itself. The input is never
modified.
"""

# exp and sqrt per element.
FLOPS_PER_ELEMENT = 2


def cost(case: Case, output) -> Cost:
    # Read the input once and write the result once; a given `out` is only written.
    x = case.args[0] if case.args else case.kwargs["input"]
    return Cost(flops=2.0 * x.numel(), bytes=float(numel_bytes(x) + numel_bytes(output)))


def reference(input, out=None):
    exp_result = torch.exp(input)
    return torch.sqrt(exp_result, out=out)


def cases(g: Inputs):
    # The comparison's absolute term scales with the RMS of the reference, so the huge results near
    # the overflow threshold get their own case. Values are kept well away from the threshold
    # ln(FLT_MAX) = 88.7228 itself, where a last-ulp difference in exp decides between finite and inf.
    edges = [0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 1e-6, -1e-6, 5.0, -5.0, -20.0, -100.0,
             float("-inf"), float("nan")]
    yield Case("edge-values", g.tensor(edges))
    yield Case("edge-values-out", g.tensor(edges), out=g.randn(len(edges)))
    # (results within four decades of each other per case: the comparison's absolute term scales
    # with the RMS of the reference)
    yield Case("near-overflow", g.tensor([70.0, 80.0, 85.0, 88.0, 88.6, 88.9, 89.0, 100.0,
                                          150.0, 1e30, float("inf")]))
    yield Case("large-values", g.tensor([40.0, 50.0, 60.0]))
    yield Case("single", g.randn(1))
    yield Case("empty", g.randn(0, 4))
    yield Case("odd-1d", g.randn(1003, std=2.0))
    yield Case("uniform", g.uniform(4099, low=-10.0, high=10.0))
    yield Case("outliers-3d", g.heavy_tailed(3, 37, 129, outlier_scale=8.0))
    yield Case("strided", g.strided(g.randn(33, 65, std=2.0)))
    yield Case("transposed", g.transposed(g.uniform(97, 48, low=-6.0, high=6.0)))
    yield Case("out-2d", g.randn(64, 300, std=2.0), out=g.randn(64, 300))
    yield Case("out-strided", g.uniform(17, 129, low=-8.0, high=4.0), out=g.strided(g.randn(17, 129)))
    yield Case("out-none-explicit", g.randn(2049), out=None)


def perf_cases(g: Inputs):
    yield Case("16M", g.randn(1 << 24, std=3.0))
    yield Case("64M-out", g.randn(1 << 26, std=3.0), out=g.randn(1 << 26))
    yield Case("128M", g.randn(1 << 27, std=3.0))
