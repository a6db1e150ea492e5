"""In-place fill of the slices of a float32/int64 tensor chosen by an index along one dimension."""

import torch

from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "index_fill_"
SIGNATURE = "index_fill_(dim, x, index, value)"
DTYPES = ["float32", "int64"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32", "int64"]
CORE_KWARGS = []
DIFFICULTY = 2
DESCRIPTION = """
Fill, in place, every slice of `x` along dimension `dim` whose position appears in `index` with the
scalar `value`, like x.index_fill_(dim, index, value); note that `dim` comes FIRST in this
signature. `x` is a float32 or int64 tensor, possibly non-contiguous; it must be modified in place
(through its own strides) and returned (the very same tensor object). `dim` is an int; negative
values count from the end. `index` is an int64 tensor, 1-D or 0-d, possibly non-contiguous; its
values may repeat, need not be sorted, and lie in [-x.size(dim), x.size(dim)): negative values count
from the end. `value` is a Python number (it may be NaN or infinite for float32 x); it is converted to
x's dtype, and int64 values must be stored exactly (e.g. 2**40 + 3). Elements of x outside the
selected slices are left unchanged.
"""


def reference(dim, x, index, value):
    return x.index_fill_(dim, index, value)


def cases(g: Inputs):
    yield Case("cols-dim1", 1, g.randn(33, 65), g.randint(0, 65, 20), -1.0)
    yield Case("rows-dim0-repeats", 0, g.randn(50, 64), g.randint(0, 50, 40), 2.5)
    yield Case("last-dim-negative", -1, g.uniform(4, 7, 129, low=-3, high=3), g.randint(0, 129, 31), 0.0)
    yield Case("middle-dim-inf", 1, g.heavy_tailed(5, 31, 9, scale=2.0), g.randint(0, 31, 12), float("inf"))
    yield Case("nan-value", -2, g.randn(6, 10, 11), g.tensor([9, 0, 4], dtype=torch.int64), float("nan"))
    yield Case("1d", 0, g.randn(4099), g.randint(0, 4099, 2000), 1.0)
    # int64 fills beyond 2**24 / 2**31: a kernel that moves the value through float32/int32 loses bits.
    yield Case("int64-big-value", 1, g.randint(-1000, 1000, 17, 40), g.randint(0, 40, 9), (1 << 40) + 3)
    yield Case("int64-negative-value", 0, g.randint(0, 1 << 50, 300), g.randint(0, 300, 77), -7)
    # x is a view that starts 8 rows into its buffer: a kernel that does not wrap negative
    # indices writes to rows before the view instead of its last rows.
    yield Case("negative-indices", 0, g.randn(40, 30)[8:], g.tensor([-1, -8, 3, -5], dtype=torch.int64), -3.5)
    yield Case("scalar-index", 1, g.randn(8, 12), g.tensor(5, dtype=torch.int64), 7.0)
    yield Case("strided-x", 0, g.strided(g.randn(33, 65)), g.randint(0, 33, 10), -2.0)
    yield Case("transposed-x", 1, g.transposed(g.randn(30, 40)), g.randint(0, 40, 15), 4.0)
    yield Case("strided-index", 0, g.randn(20, 50), g.strided(g.randint(0, 20, 1, 9))[0], 9.0)
    yield Case("size-1-dim", 0, g.randn(1, 5, 3), g.tensor([0, 0], dtype=torch.int64), -1.0)
    yield Case("4d-dim2", 2, g.randn(3, 4, 5, 6), g.randint(0, 5, 3), 100.0)


def perf_cases(g: Inputs):
    yield Case("1d-8M", 0, g.randn(1 << 23), g.randint(0, 1 << 23, 1 << 22), 1.0)
    yield Case("1d-32M", 0, g.randn(1 << 25), g.randint(0, 1 << 25, 1 << 24), 1.0)
    yield Case("1d-128M", 0, g.randn(1 << 27), g.randint(0, 1 << 27, 1 << 26), 1.0)
    yield Case("cols-8192x8192", 1, g.randn(8192, 8192), g.randint(0, 8192, 4096), -1.0)


def cost(case: Case, output) -> Cost:
    dim, x, index = case.args[0], case.args[1], case.args[2]
    slice_elems = x.numel() // max(1, x.shape[dim]) if x.dim() else 1
    # Read the index once, write every selected slice once.
    return Cost(flops=0.0, bytes=float(numel_bytes(index) + index.numel() * slice_elems * x.element_size()))
