"""Standard deviation of GELU(input) over all or some dimensions, without storing the activations."""

import torch
import torch.nn.functional as F

from harness.taskdef import Case, Cost, Inputs, numel_bytes, tensor_leaves

ENTRY = "fused_gelu_std"
SIGNATURE = "fused_gelu_std(input, dim=None, keepdim=False, correction=1, approximate='none', out=None)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["approximate", "correction", "dim", "keepdim"]
# Edge although the tier rule cannot see it: a mean of 1000 is far outside the published test's data.
TIERS = {"large-mean-rows": "edge", "large-mean-all": "edge"}
DIFFICULTY = 3
DESCRIPTION = """
Apply GELU elementwise to a float32 tensor `input` and return the standard deviation of the
activations over the given dimension(s), like torch.std(F.gelu(input, approximate=approximate),
dim=dim, correction=correction, keepdim=keepdim), without storing the activations. GELU:
approximate='none' (default) is 0.5 * x * (1 + erf(x / sqrt(2))), approximate='tanh' is
0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3))). The std of values g over N elements is
sqrt(sum((g - mean(g))^2) / max(0, N - correction)); `correction` (default 1) is the
degrees-of-freedom correction (0 gives the population std); when N - correction <= 0 the division
is by 0, giving inf (or NaN when the sum is also 0, e.g. N = 1). `dim` is None (the default: all
elements, a 0-d result), an int (negative values count from the end) or a tuple of ints (need not
be adjacent). With keepdim=False the reduced dimensions are removed; with keepdim=True they are
kept with size 1. `input` has any shape and may be non-contiguous. The activations may have a mean
far larger than their spread (inputs like 1000 + noise), so use a numerically stable algorithm
(two-pass or Welford-style), not E[g^2] - E[g]^2. NaN inputs give NaN. The result is float32. If
`out` is given (a float32 tensor of the result's shape) the result is written into it and `out`
itself is returned; otherwise a new tensor is returned. The input must not be modified.
"""


def reference(input, dim=None, keepdim=False, correction=1, approximate='none', out=None):
    activations = F.gelu(input, approximate=approximate)
    return torch.std(activations, dim=dim, keepdim=keepdim, correction=correction, out=out)


def cases(g: Inputs):
    for approximate in ("none", "tanh"):
        yield Case("all-1d", g.randn(4096), approximate=approximate)
        yield Case("rows-keepdim", g.randn(64, 256), dim=1, keepdim=True, approximate=approximate)
        yield Case("middle-dim-corr2", g.randn(8, 515, 5), dim=1, correction=2, approximate=approximate)
        yield Case("first-dim-corr0", g.randn(3000, 6), dim=0, correction=0, approximate=approximate)
        yield Case("long-1d-dim0", g.uniform(20000, low=-3.0, high=3.0), dim=0, approximate=approximate)
        yield Case("outliers-rows", g.heavy_tailed(16, 1000, scale=2.0), dim=-1, approximate=approximate)
        # The negative tail, where the erf and tanh forms differ by up to ~1% of the spread.
        yield Case("negative-tail-rows", g.uniform(16, 1000, low=-3.5, high=-2.0), dim=1,
                   approximate=approximate)
    yield Case("last-dim-4099", g.randn(6, 4099), dim=-1)
    yield Case("tuple-apart", g.randn(6, 7, 8, 9), dim=(0, 2))
    yield Case("tuple-negative-keepdim-tanh", g.randn(4, 33, 65), dim=(-2, -1), keepdim=True, approximate="tanh")
    # Means far from zero (GELU is the identity there): E[g^2] - E[g]^2 cancels catastrophically.
    yield Case("large-mean-rows", g.randn(9, 2500, mean=1000.0, std=0.5), dim=1)
    yield Case("large-mean-all", g.randn(20000, mean=1000.0), approximate="tanh")
    yield Case("strided", g.strided(g.randn(33, 65)), dim=1)
    yield Case("transposed-all", g.transposed(g.randn(40, 50)), approximate="tanh")
    x = g.randn(5, 300)
    x[2, 123] = float("nan")
    yield Case("nan-propagates", x, dim=1)
    # N = 1 with correction = 1 is 0 / 0 = NaN; N <= correction with spread is x / 0 = inf.
    yield Case("single-element-rows", g.randn(5, 1), dim=1)
    yield Case("correction-equals-n", g.randn(3, 2), dim=1, correction=2)
    yield Case("empty-reduction", g.randn(0, 7), dim=0)
    yield Case("out", g.randn(12, 345), dim=1, out=g.strided(g.randn(12)))
    yield Case("out-all-tanh", g.randn(31, 67), correction=0, approximate="tanh", out=g.randn())


def perf_cases(g: Inputs):
    yield Case("all-64M", g.randn(1 << 26))
    yield Case("rows-8192x8192", g.randn(8192, 8192), dim=-1)
    yield Case("rows-16384x4096-tanh", g.randn(16384, 4096), dim=1, approximate="tanh")
    yield Case("cols-8192x8192-corr0", g.randn(8192, 8192), dim=0, correction=0)


def cost(case: Case, output) -> Cost:
    x = case.args[0]
    moved = numel_bytes(x) + sum(numel_bytes(t) for t in tensor_leaves(output))
    # GELU (erf or sigmoid plus ~6 multiply-adds), then a Welford update (~6 operations).
    return Cost(flops=14.0 * x.numel(), bytes=float(moved))
