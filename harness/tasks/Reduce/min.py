"""Minimum values and their first indices along one dimension of a float32 tensor."""

import torch

from harness.taskdef import Case, Cost, Inputs, numel_bytes, tensor_leaves

ENTRY = "min"
SIGNATURE = "min(input_tensor, dim, keepdim=False)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["dim", "keepdim"]
DIFFICULTY = 2
PERF_MIX = "gaussian"  # standard-normal inputs, an order statistic: timed values no call has seen
DESCRIPTION = """
Find the minimum of a float32 tensor along one dimension and where it occurs, like
torch.min(input_tensor, dim, keepdim). `input_tensor` has any shape (at least one element along
`dim`) and may be non-contiguous; `dim` is an int (negative values count from the end). Return a
pair (values, indices): `values` (float32) holds the minimum of each slice along `dim` and `indices`
(int64) the position of that minimum within the slice. When the minimum occurs several times, the
index of the FIRST occurrence is returned. NaN counts as smaller than every number: a slice that
contains NaN has value NaN and the index of its first NaN. With keepdim=False `dim` is removed from
both outputs; with keepdim=True it is kept with size 1. The input must not be modified.
"""


def reference(input_tensor, dim, keepdim=False):
    (values, indices) = torch.min(input_tensor, dim, keepdim)
    return (values, indices)


def cases(g: Inputs):
    f32 = torch.float32
    # Reduced axes of various lengths and positions; 4099 and 20000 exceed one tile, so kernels loop
    # or split the axis over several programs.
    yield Case("rows", g.randn(64, 256), 1)
    yield Case("cols", g.randn(64, 256), 0)
    yield Case("last-dim-4099", g.randn(6, 4099), -1)
    yield Case("middle-dim-keepdim", g.randn(8, 515, 5), 1, keepdim=True)
    yield Case("middle-dim-negative", g.uniform(4, 300, 9, low=-3.0, high=3.0), -2)
    yield Case("first-dim-long", g.randn(3000, 6), 0)
    yield Case("long-1d", g.uniform(20000, low=-1.0, high=1.0), 0)
    yield Case("3d-last-keepdim", g.randn(8, 16, 32), 2, keepdim=True)
    yield Case("outliers", g.heavy_tailed(16, 1000, scale=3.0), -1)
    # Small integers stored as floats: the minimum repeats many times in each slice, and the first
    # index is required (documented by torch), also across chunk boundaries of long slices.
    yield Case("ties-rows", g.randint(-1, 2, 16, 3000, dtype=f32), 1)
    yield Case("ties-short-rows", g.randint(-3, 4, 40, 300, dtype=f32), 1)
    yield Case("ties-cols", g.randint(0, 4, 2500, 7, dtype=f32), 0)
    yield Case("ties-long-1d", g.randint(0, 4, 20000, dtype=f32), 0)
    x = g.randn(6, 500)
    x[1, 77] = float("nan")
    x[3, 10] = float("nan")
    x[3, 400] = float("nan")
    x[4, 5] = float("-inf")
    x[4, 450] = float("-inf")
    x[5, :] = float("inf")
    yield Case("nan-inf", x, 1)
    yield Case("strided", g.strided(g.randn(33, 65)), 1)
    yield Case("transposed", g.transposed(g.randn(40, 50)), 0)
    yield Case("size-1-dim", g.randn(7, 1, 5), 1)
    yield Case("single", g.randn(1), 0)


def perf_cases(g: Inputs):
    yield Case("rows-16384x1024", g.randn(16384, 1024), 1)
    yield Case("rows-131072x1024", g.randn(131072, 1024), 1)
    yield Case("cols-1024x65536", g.randn(1024, 65536), 0)
    yield Case("1d-64M", g.randn(1 << 26), 0)


def cost(case: Case, output) -> Cost:
    x = case.args[0]
    moved = numel_bytes(x) + sum(numel_bytes(t) for t in tensor_leaves(output))
    return Cost(flops=float(x.numel()), bytes=float(moved))
