"""Select slices of a float32/int64 tensor along one dimension with a 1-D index (gather of rows/columns)."""

import torch

from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "index_select"
SIGNATURE = "index_select(input, dim, index)"
DTYPES = ["float32", "int64"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32", "int64"]
CORE_KWARGS = []
DIFFICULTY = 3
DESCRIPTION = """
Pick slices of `input` along dimension `dim`, like torch.index_select(input, dim, index).
`input` is a float32 or int64 tensor with at least one dimension, possibly non-contiguous. `dim` is
an int; negative values count from the end. `index` is an int64 (or int32) tensor with one element
per selected slice: 1-D, or 0-dimensional for a single slice; it may be non-contiguous, may repeat
values and need not be sorted; every value lies in [0, input.size(dim)). The result is a new
contiguous tensor with the dtype of `input` and the shape of `input` except that size `dim` becomes
index.numel(); its k-th slice along `dim` is input's slice number index[k] along `dim`, copied
exactly (NaN and infinities included, int64 values bit-exact). The arguments must not be modified.
"""


def reference(input, dim, index):
    return torch.index_select(input, dim, index)


def cases(g: Inputs):
    yield Case("rows-dim0", g.randn(50, 64), 0, g.randint(0, 50, 23))
    yield Case("cols-dim1", g.randn(33, 65), 1, g.randint(0, 65, 17))
    yield Case("last-dim-negative", g.uniform(4, 7, 129, low=-3.0, high=3.0), -1, g.randint(0, 129, 70))
    # More indices than the dimension has: repeats are required.
    yield Case("middle-dim-repeats", g.heavy_tailed(5, 31, 9, scale=2.0), 1, g.randint(0, 31, 45))
    yield Case("middle-dim-negative", g.randn(3, 12, 5, 7), -3, g.permutation(12))
    yield Case("1d", g.randn(1001), 0, g.randint(0, 1001, 333))
    yield Case("int32-index", g.randn(40, 24), 0, g.randint(0, 40, 19, dtype=torch.int32))
    # int64 values beyond 2**24 and 2**31: a kernel that moves them through float32/int32 loses bits.
    yield Case("int64-rows", g.randint(-(1 << 40), 1 << 40, 64, 37), 0, g.randint(0, 64, 50))
    yield Case("int64-cols", g.randint(-(1 << 62), 1 << 62, 9, 301), 1, g.randint(0, 301, 100))
    yield Case("scalar-index", g.randn(6, 11), 1, g.tensor(7, dtype=torch.int64))
    yield Case("strided-input", g.strided(g.randn(40, 30)), 0, g.randint(0, 40, 25))
    yield Case("transposed-input", g.transposed(g.randn(30, 40)), 1, g.randint(0, 40, 33))
    yield Case("strided-index", g.randn(20, 50), 0, g.strided(g.randint(0, 20, 1, 16))[0])
    yield Case("size-1-dim", g.randn(1, 5, 3), 0, g.tensor([0, 0, 0], dtype=torch.int64))
    special = [0.0, -0.0, 1.0, float("inf"), float("-inf"), float("nan"), -2.5, -1e-30]
    yield Case("special-values", g.tensor([special, special[::-1]]), 1, g.tensor([5, 1, 3, 4, 2, 7, 0, 6, 5], dtype=torch.int64))
    # Values near the float32 limit in a case of their own: beside ordinary ones they would widen the
    # tolerance's absolute part (scaled by the output's RMS) past the ordinary values.
    huge = [3e38, -1e38, 2.5e38, -3.3e38, 1e38, -2e38, 3.4e38, -5e37]
    yield Case("huge-values", g.tensor([huge, huge[::-1]]), 1,
               g.tensor([5, 1, 3, 4, 2, 7, 0, 6, 5], dtype=torch.int64))


def perf_cases(g: Inputs):
    yield Case("rows-32768x256", g.randn(32768, 256), 0, g.randint(0, 32768, 4096))
    yield Case("rows-131072x256", g.randn(131072, 256), 0, g.randint(0, 131072, 65536))
    yield Case("rows-262144x256", g.randn(262144, 256), 0, g.randint(0, 262144, 262144))
    yield Case("cols-8192x8192", g.randn(8192, 8192), 1, g.randint(0, 8192, 4096))


def cost(case: Case, output) -> Cost:
    input, index = case.args[0], case.args[2]
    # Read the index once and each selected slice once (a repeated index reads it again only if it
    # is not cached, so no more than the whole input), write the output once.
    read = min(numel_bytes(input), numel_bytes(output))
    return Cost(flops=0.0, bytes=float(numel_bytes(index) + read + numel_bytes(output)))
