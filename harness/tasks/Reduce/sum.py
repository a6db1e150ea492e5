"""Sum of a float32/float64 tensor over one or more dimensions, with optional dtype and keepdim."""

import torch

from harness.taskdef import Case, Cost, Inputs, numel_bytes, tensor_leaves

ENTRY = "sum"
SIGNATURE = "sum(input, dim, keepdim=False, dtype=None)"
DTYPES = ["float32", "float64"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32", "float64"]
CORE_KWARGS = ["dim", "dtype", "keepdim"]
DIFFICULTY = 2
DESCRIPTION = """
Add up the elements of a tensor over the given dimension(s), like torch.sum(input, dim, keepdim,
dtype=dtype). `input` is a float32 or float64 tensor of any shape, possibly non-contiguous. `dim` is
an int (negative values count from the end), a tuple of ints (reduce over all of them, in any order,
not necessarily adjacent) or None (reduce over every element). With keepdim=False the reduced
dimensions are removed from the result; with keepdim=True they are kept with size 1. If `dtype` is
given, the input is converted to that dtype before summing and the result has that dtype (e.g.
float32 input with dtype=torch.float64 must be accumulated in float64); otherwise the result has the
input's dtype. A sum over an empty dimension is 0. Return a new tensor; the input must not be
modified.
"""


def reference(input, dim, keepdim=False, dtype=None):
    return torch.sum(input, dim, keepdim=keepdim, dtype=dtype)


def cases(g: Inputs):
    f64 = torch.float64
    # Reduced axes of various lengths and positions; 4099 and 20000 exceed one tile, so kernels loop
    # or split the axis over several programs.
    yield Case("last-dim-4099", g.randn(6, 4099), -1)
    yield Case("last-dim-1000", g.uniform(37, 1000, low=-2.0, high=5.0), 1)
    yield Case("middle-dim", g.randn(8, 515, 5), 1)
    yield Case("first-dim", g.randn(3000, 6), 0)
    yield Case("first-dim-keepdim", g.uniform(777, 12, low=-1.0, high=1.0), 0, keepdim=True)
    yield Case("long-1d", g.randn(20000), 0)
    yield Case("dim-none", g.randn(17, 301), None)
    yield Case("tuple-adjacent-keepdim", g.randn(4, 33, 65), (1, 2), keepdim=True)
    yield Case("tuple-apart-negative", g.randn(6, 7, 8, 9), (-1, 1))
    yield Case("tuple-apart", g.randn(6, 7, 8, 9), (2, 0), keepdim=True)
    yield Case("outliers", g.heavy_tailed(16, 1000, scale=3.0), -1)
    yield Case("strided", g.strided(g.randn(33, 65)), 1)
    yield Case("transposed", g.transposed(g.randn(40, 50)), 0)
    yield Case("size-1-dim", g.randn(7, 1, 5), 1)
    yield Case("single", g.randn(1), 0)
    yield Case("empty-reduction", g.randn(0, 7), 0)
    yield Case("float64-rows", g.randn(5, 2049, dtype=f64), 1)
    yield Case("float64-cols", g.heavy_tailed(1500, 4, dtype=f64), 0, keepdim=True)
    # float32 in, float64 out: with heavy cancellation (or a large mean) float32 partial sums lose
    # far more than the float64 tolerance, so only a float64 accumulation passes.
    yield Case("dtype-float64", g.uniform(4, 4099, low=-1000.0, high=1000.0), 1, dtype=f64)
    yield Case("dtype-float64-cols", g.randn(3001, 3, mean=-500.0), 0, dtype=f64)
    yield Case("dtype-float32-from-f64", g.randn(9, 1001, dtype=f64), -1, dtype=torch.float32)


def perf_cases(g: Inputs):
    yield Case("rows-4096x4096", g.randn(4096, 4096), 1)
    yield Case("1d-64M", g.randn(1 << 26), 0)
    yield Case("cols-8192x8192", g.randn(8192, 8192), 0)
    yield Case("f64-rows-8192x4096", g.randn(8192, 4096, dtype=torch.float64), -1)


def cost(case: Case, output) -> Cost:
    x = case.args[0]
    moved = numel_bytes(x) + sum(numel_bytes(t) for t in tensor_leaves(output))
    return Cost(flops=float(x.numel()), bytes=float(moved))
