"""Standard deviation of a float32 tensor over all or some dimensions, with a correction term."""

import torch

from harness.taskdef import Case, Cost, Inputs, numel_bytes, tensor_leaves

ENTRY = "std"
SIGNATURE = "std(input, dim=None, correction=1, keepdim=False, out=None)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["correction", "dim", "keepdim"]
DIFFICULTY = 2
DESCRIPTION = """
Compute the standard deviation of a float32 tensor over the given dimension(s), like
torch.std(input, dim=dim, correction=correction, keepdim=keepdim, out=out):
sqrt(sum((x - mean)^2) / max(0, N - correction)), where N is the number of elements reduced into
each output and mean is their average. `input` has any shape and may be non-contiguous. `dim` is
None (reduce over every element, the default), an int (negative values count from the end) or a
tuple of ints (reduce over all of them; they need not be adjacent). `correction` is the
degrees-of-freedom correction (default 1, Bessel's; 0 gives the population std); when
N - correction <= 0 the division is by 0, giving inf (or NaN when the sum is also 0, e.g. N = 1).
With keepdim=False the reduced dimensions are removed; with keepdim=True they are kept with size 1.
The result is float32. Data may have a mean far larger than its spread (e.g. 1000 + noise), so use
a numerically stable algorithm (two-pass or Welford-style), not E[x^2] - E[x]^2. NaN inputs give
NaN. If `out` is given (a float32 tensor of the result's shape) the result is written into it and
`out` itself is returned; otherwise a new tensor is returned. The input must not be modified.
"""


def reference(input, dim=None, correction=1, keepdim=False, out=None):
    return torch.std(input, dim=dim, correction=correction, keepdim=keepdim, out=out)


def cases(g: Inputs):
    # Reduced axes of various lengths and positions; 4099 and 20000 exceed one tile, so kernels loop
    # or split the axis over several programs.
    yield Case("default-all", g.randn(1000, std=2.0))
    yield Case("last-dim-4099", g.randn(6, 4099), -1)
    yield Case("last-dim-keepdim-corr0", g.uniform(37, 1000, low=-2.0, high=5.0), 1,
               correction=0, keepdim=True)
    yield Case("middle-dim-corr2", g.randn(8, 515, 5), 1, correction=2)
    yield Case("first-dim", g.randn(3000, 6), 0)
    yield Case("tuple-apart", g.randn(6, 7, 8, 9), (0, 2))
    yield Case("tuple-negative-keepdim", g.randn(4, 33, 65), (-2, -1), keepdim=True)
    yield Case("outliers", g.heavy_tailed(16, 1000, scale=3.0), -1)
    # Means far from zero: E[x^2] - E[x]^2 in float32 cancels catastrophically here.
    yield Case("large-mean-all", g.randn(20000, mean=1000.0))
    yield Case("large-mean-rows", g.randn(9, 2500, mean=1000.0, std=0.5), 1)
    yield Case("large-mean-cols", g.randn(2000, 4, mean=-3000.0, std=2.0), 0, correction=0)
    yield Case("strided", g.strided(g.randn(33, 65)), 1)
    yield Case("transposed", g.transposed(g.randn(40, 50)), 0)
    x = g.randn(5, 300)
    x[2, 123] = float("nan")
    yield Case("nan-propagates", x, 1)
    # N = 1 with correction = 1 is 0 / 0 = NaN; N <= correction with spread is x / 0 = inf.
    yield Case("single-element-rows", g.randn(5, 1), 1)
    yield Case("correction-equals-n", g.randn(3, 2), 1, correction=2)
    yield Case("empty-reduction", g.randn(0, 7), 0)
    # out= must receive the result and be returned.
    yield Case("out", g.randn(12, 345), 1, out=g.strided(g.randn(12)))
    yield Case("out-all", g.randn(31, 67), None, correction=0, out=g.randn())


def perf_cases(g: Inputs):
    yield Case("rows-4096x4096", g.randn(4096, 4096), 1)
    yield Case("all-64M", g.randn(1 << 26))
    yield Case("rows-8192x8192", g.randn(8192, 8192), -1)
    yield Case("cols-8192x8192", g.randn(8192, 8192), 0, correction=0)


def cost(case: Case, output) -> Cost:
    x = case.args[0]
    moved = numel_bytes(x) + sum(numel_bytes(t) for t in tensor_leaves(output))
    # Welford: a subtract, a divide and ~4 multiply-adds per element.
    return Cost(flops=8.0 * x.numel(), bytes=float(moved))
