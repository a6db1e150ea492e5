"""Mean of a float32 (or int32 with a float dtype) tensor over one or more dimensions."""

import torch

from harness.taskdef import Case, Cost, Inputs, numel_bytes, tensor_leaves

ENTRY = "mean"
SIGNATURE = "mean(input_tensor, dim, keepdim=False, dtype=None, out=None)"
DTYPES = ["float32", "int32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32", "int32"]
CORE_KWARGS = ["dim", "dtype", "keepdim"]
DIFFICULTY = 1
# Timed perf inputs mix integer and bool tensors too (perf/server.py RotatingCase): here they are
# values drawn alike at every position (indices may repeat), so any mix of two sets is an input.
PERF_MIX_INTEGERS = True
DESCRIPTION = """
Average the elements of a tensor over the given dimension(s), like torch.mean(input_tensor, dim,
keepdim=keepdim, dtype=dtype, out=out). `input_tensor` is float32 or int32, of any shape, possibly
non-contiguous. `dim` is an int (negative values count from the end), a tuple of ints (reduce over
all of them; they need not be adjacent) or None (average every element). With keepdim=False the
reduced dimensions are removed; with keepdim=True they are kept with size 1. If `dtype` is given
(a floating dtype such as torch.float32 or torch.float64) the input is converted to it before the
reduction and the result has that dtype, which is how int32 inputs are averaged; without `dtype` the
result has the input's dtype, and an integer input without `dtype` is an error (raise, as torch
does). A mean over an empty dimension is NaN, and NaN inputs propagate. If `out` is given (a tensor
of the result's shape and dtype) the result is written into it and `out` itself is returned;
otherwise a new tensor is returned. The input must not be modified.
"""


def reference(input_tensor, dim, keepdim=False, dtype=None, out=None):
    return torch.mean(input_tensor, dim, keepdim=keepdim, dtype=dtype, out=out)


def cases(g: Inputs):
    i32, f32, f64 = torch.int32, torch.float32, torch.float64
    # Reduced axes of various lengths and positions; 4099 and 20000 exceed one tile, so kernels loop
    # or split the axis over several programs.
    yield Case("last-dim-4099", g.randn(6, 4099), -1)
    yield Case("last-dim-keepdim", g.uniform(37, 1000, low=-2.0, high=5.0), 1, keepdim=True)
    yield Case("middle-dim", g.randn(8, 515, 5), 1)
    yield Case("first-dim", g.randn(3000, 6), 0)
    yield Case("long-1d", g.randn(20000, mean=3.0), 0)
    yield Case("dim-none", g.randn(17, 301), None)
    yield Case("tuple-apart", g.randn(6, 7, 8, 9), (0, 2))
    yield Case("tuple-negative-keepdim", g.randn(4, 33, 65), (-2, -1), keepdim=True)
    yield Case("outliers", g.heavy_tailed(16, 1000, scale=3.0), -1)
    yield Case("large-mean", g.randn(9, 2500, mean=1000.0), 1)
    yield Case("strided", g.strided(g.randn(33, 65)), 1)
    yield Case("transposed", g.transposed(g.randn(40, 50)), 0)
    yield Case("size-1-dim", g.randn(7, 1, 5), 1)
    yield Case("single", g.randn(1), 0)
    x = g.randn(5, 300)
    x[1, 17] = float("nan")
    x[3, 299] = float("nan")
    yield Case("nan-propagates", x, 1)
    yield Case("empty-reduction", g.randn(0, 7), 0)
    # int32 inputs need a floating dtype= (torch.mean refuses integer results).
    yield Case("int32-rows-dtype-f32", g.randint(-1000, 1000, 16, 999, dtype=i32), 1, dtype=f32)
    yield Case("int32-cols-dtype-f64", g.randint(-50, 51, 2000, 5, dtype=i32), 0, dtype=f64)
    yield Case("int32-strided-tuple", g.strided(g.randint(0, 100, 6, 10, 40, dtype=i32)), (0, 2),
               dtype=f32)
    yield Case("float32-dtype-f64", g.uniform(5, 3001, low=-1000.0, high=1000.0), -1, dtype=f64)
    # out= must receive the result and be returned.
    yield Case("out", g.randn(12, 345), 1, out=g.strided(g.randn(12)))
    yield Case("out-keepdim-int32", g.randint(-7, 8, 10, 513, dtype=i32), -1, keepdim=True,
               dtype=f32, out=g.randn(10, 1))


def perf_cases(g: Inputs):
    yield Case("rows-4096x4096", g.randn(4096, 4096), 1)
    yield Case("1d-64M", g.randn(1 << 26), 0)
    yield Case("cols-8192x8192", g.randn(8192, 8192), 0)
    yield Case("int32-rows-8192x8192", g.randint(-1000, 1000, 8192, 8192, dtype=torch.int32), -1,
               dtype=torch.float32)


def cost(case: Case, output) -> Cost:
    x = case.args[0]
    moved = numel_bytes(x) + sum(numel_bytes(t) for t in tensor_leaves(output))
    return Cost(flops=float(x.numel()), bytes=float(moved))
