"""Mean of input + alpha * other over all or some dimensions, without storing the sum."""

import torch

from harness.taskdef import Case, Cost, Inputs, Tolerance, numel_bytes, tensor_leaves

ENTRY = "fused_add_mean"
SIGNATURE = "fused_add_mean(input, other, dim=None, alpha=1, keepdim=False, dtype=None, out=None)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["alpha", "dim", "keepdim"]
DIFFICULTY = 4
DESCRIPTION = """
Compute the mean of input + alpha * other over the given dimension(s), like
torch.mean(torch.add(input, other, alpha=alpha), dim=dim, keepdim=keepdim, dtype=dtype, out=out),
without storing the elementwise sum. `input` is a float32 tensor of any shape (possibly
non-contiguous); `other` is a float32 tensor or a Python number; tensors broadcast against each
other with the usual rules, and the reduction runs over the broadcast shape. `alpha` (a Python
number, default 1) scales `other` only; each sum input + alpha * other is a float32 value. `dim` is
None (the default: average every element of the broadcast shape, giving a 0-d result), an int
(negative values count from the end) or a tuple of ints (need not be adjacent). With keepdim=False
the reduced dimensions are removed; with keepdim=True they are kept with size 1 (with dim=None
every dimension is kept with size 1). `dtype`: None keeps float32; torch.float64 means the float32
sums are converted to float64 before they are averaged and the result is float64. NaN and inf
follow IEEE rules; a mean over an empty dimension is NaN. If `out` is given (a tensor of the
result's shape and dtype) the result is written into it and `out` itself is returned; otherwise a
new tensor is returned. The inputs must not be modified.
"""

# float64 results average float32 sums: their accuracy is float32's (input + alpha * other may be
# rounded once or twice, with or without a fused multiply-add), not float64's.
TOLERANCE = {torch.float64: Tolerance(atol=1e-5, rtol=1e-4)}


def reference(input, other, dim=None, alpha=1, keepdim=False, dtype=None, out=None):
    total = torch.add(input, other, alpha=alpha)
    return torch.mean(total, dim=dim, keepdim=keepdim, dtype=dtype, out=out)


def cases(g: Inputs):
    f64 = torch.float64
    inf, nan = float("inf"), float("nan")
    # All-element means sit on data with a mean away from 0, so that the reference is not a
    # near-zero number dominated by rounding. 4099 and 20000 exceed one tile, so kernels loop or
    # split the axis over several programs.
    yield Case("all-1d", g.randn(4096, mean=1.0), g.randn(4096))
    yield Case("all-2d-alpha", g.randn(17, 301), g.randn(17, 301, mean=2.0), alpha=0.5)
    yield Case("all-keepdim", g.randn(9, 33, mean=-1.0), g.randn(9, 33), keepdim=True)
    yield Case("last-dim-4099", g.randn(6, 4099), g.randn(6, 4099), dim=1, alpha=2)
    yield Case("last-dim-keepdim", g.uniform(37, 1000, low=-2.0, high=5.0), g.randn(37, 1000), dim=1,
               keepdim=True, alpha=-1.5)
    yield Case("middle-dim", g.randn(8, 515, 5), g.randn(8, 515, 5), dim=1, alpha=0.25)
    yield Case("first-dim", g.randn(3000, 6), g.randn(3000, 6), dim=0)
    yield Case("long-1d-dim0", g.randn(20000, mean=3.0), g.randn(20000), dim=0, alpha=-1)
    yield Case("negative-dim", g.randn(4, 33, 65), g.randn(4, 33, 65), dim=-2, alpha=3)
    yield Case("tuple-apart", g.randn(6, 7, 8, 9), g.randn(6, 7, 8, 9), dim=(0, 2))
    yield Case("tuple-negative-keepdim", g.randn(4, 33, 65), g.randn(4, 33, 65), dim=(-2, -1), keepdim=True)
    yield Case("large-mean-rows", g.randn(9, 2500, mean=1000.0), g.randn(9, 2500, mean=-500.0), dim=1)
    yield Case("scalar-other", g.randn(16, 1000), 2.5, dim=1, alpha=-0.5)
    yield Case("scalar-other-all", g.randn(3001), 1.5, alpha=2)
    yield Case("broadcast-row", g.randn(40, 129), g.randn(129), dim=1, alpha=2.0)
    yield Case("broadcast-both", g.randn(37, 1), g.randn(1, 129), dim=0, alpha=-0.5)
    yield Case("broadcast-input-smaller-all", g.randn(129, mean=1.0), g.randn(17, 129, mean=1.0))
    yield Case("zero-dim-other", g.randn(31, 70), g.tensor(0.75), dim=1)
    x = g.randn(5, 300)
    x[1, 17] = nan
    y = g.randn(5, 300)
    y[3, 299] = inf
    yield Case("nan-inf-propagate", x, y, dim=1)
    yield Case("strided-transposed", g.strided(g.randn(48, 97)), g.transposed(g.randn(48, 97)), dim=1, alpha=1.25)
    yield Case("size-1-dim", g.randn(7, 1, 5), g.randn(7, 1, 5), dim=1)
    yield Case("single", g.randn(1), g.randn(1))
    yield Case("zero-dim-both", g.tensor(1.5), g.tensor(-0.25), alpha=2)
    yield Case("empty-reduction", g.randn(0, 7), g.randn(0, 7), dim=0)
    yield Case("dtype-f64-rows", g.uniform(5, 3001, low=-10.0, high=10.0), g.randn(5, 3001), dim=-1, dtype=f64)
    yield Case("dtype-f64-all", g.randn(2049, mean=1.0), g.randn(2049), alpha=0.5, dtype=f64)
    yield Case("out", g.randn(12, 345), g.randn(12, 345), dim=1, alpha=2, out=g.strided(g.randn(12)))
    yield Case("out-all", g.randn(31, 67, mean=1.0), g.randn(31, 67), out=g.randn())
    yield Case("out-f64-keepdim", g.randn(10, 513), g.randn(10, 513), dim=0, keepdim=True, dtype=f64,
               out=g.randn(1, 513, dtype=f64))


def perf_cases(g: Inputs):
    yield Case("all-64M", g.randn(1 << 26), g.randn(1 << 26))
    yield Case("all-128M-alpha", g.randn(1 << 27), g.randn(1 << 27), alpha=0.5)
    yield Case("rows-8192x8192", g.randn(8192, 8192), g.randn(8192, 8192), dim=1)
    yield Case("cols-8192x8192-keepdim", g.randn(8192, 8192), g.randn(8192, 8192), dim=0, keepdim=True)


def cost(case: Case, output) -> Cost:
    read = tensor_leaves([list(case.args), [v for k, v in case.kwargs.items() if k != "out"]])
    moved = sum(numel_bytes(t) for t in read) + sum(numel_bytes(t) for t in tensor_leaves(output))
    # Each element of the broadcast shape: a multiply-add for the sum and an add for the mean.
    n = max(t.numel() for t in read)
    return Cost(flops=3.0 * n, bytes=float(moved))
