"""Index of the first maximum of a float32 tensor along a dimension, or of the flattened tensor."""

import torch

from harness.taskdef import Case, Cost, Inputs, numel_bytes, tensor_leaves

ENTRY = "argmax"
SIGNATURE = "argmax(input_tensor, dim, keepdim=False)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["dim", "keepdim"]
DIFFICULTY = 3
PERF_MIX = "gaussian"  # standard-normal inputs, an order statistic: timed values no call has seen
DESCRIPTION = """
Return the indices of the maximum values of a float32 tensor, like
torch.argmax(input_tensor, dim=dim, keepdim=keepdim), as an int64 tensor. `input_tensor` has any
shape and may be non-contiguous. `dim` is an int (negative values count from the end): the result
holds, for every slice along `dim`, the position of its maximum within the slice; with
keepdim=False `dim` is removed from the result shape, with keepdim=True it is kept with size 1.
`dim` may also be None: then the result is the index of the maximum in the flattened (row-major)
tensor, a 0-d tensor, or a tensor of shape [1, 1, ...] (one 1 per input dimension) when
keepdim=True. When the maximum occurs several times the FIRST index is returned. NaN counts as
larger than every number (the index of the first NaN is returned). The input must not be modified.
"""


def reference(input_tensor, dim, keepdim=False):
    return torch.argmax(input_tensor, dim=dim, keepdim=keepdim)


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
    yield Case("3d-last", g.randn(8, 16, 32), 2)
    yield Case("outliers", g.heavy_tailed(16, 1000, scale=3.0), -1)
    # dim=None: flat index into the (row-major) flattened tensor, also for non-contiguous inputs.
    yield Case("flat", g.randn(17, 301), None)
    yield Case("flat-keepdim", g.randn(5, 6, 7), None, keepdim=True)
    yield Case("flat-transposed-long", g.transposed(g.heavy_tailed(150, 140)), None)
    # Small integers stored as floats: the maximum repeats many times in each slice, and the first
    # index is required (documented by torch), also across chunk boundaries of long slices.
    yield Case("ties-rows", g.randint(-1, 2, 16, 3000, dtype=f32), 1)
    yield Case("ties-short-rows", g.randint(-3, 4, 40, 300, dtype=f32), 1)
    yield Case("ties-cols", g.randint(0, 4, 2500, 7, dtype=f32), 0)
    yield Case("ties-flat", g.randint(0, 4, 100, 200, dtype=f32), None)
    x = g.randn(6, 500)
    x[1, 77] = float("nan")
    x[3, 10] = float("nan")
    x[3, 400] = float("nan")
    x[4, 5] = float("inf")
    x[4, 450] = float("inf")
    x[5, :] = float("-inf")
    yield Case("nan-inf", x, 1)
    yield Case("strided", g.strided(g.randn(33, 65)), 1)
    yield Case("transposed", g.transposed(g.randn(40, 50)), 0)
    yield Case("size-1-dim", g.randn(7, 1, 5), 1, keepdim=True)
    yield Case("single", g.randn(1), 0)


def perf_cases(g: Inputs):
    yield Case("rows-4096x4096", g.randn(4096, 4096), 1)
    yield Case("flat-64M", g.randn(1 << 26), None)
    yield Case("rows-8192x8192", g.randn(8192, 8192), -1)
    yield Case("cols-8192x8192", g.randn(8192, 8192), 0)


def cost(case: Case, output) -> Cost:
    x = case.args[0]
    moved = numel_bytes(x) + sum(numel_bytes(t) for t in tensor_leaves(output))
    return Cost(flops=float(x.numel()), bytes=float(moved))
