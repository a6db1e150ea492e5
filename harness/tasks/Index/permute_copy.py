"""Permute the dimensions of a float32 tensor into a freshly allocated contiguous tensor."""

import torch

from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "permute_copy"
SIGNATURE = "permute_copy(input, dims)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = []
DIFFICULTY = 4
# The rearrangement is the work: the wrapper may copy an argument only as it is given (to make it
# dense), not from a view that rearranges it, and may not join tensors (sandbox/integrity.py).
DATA_MOVEMENT = True
DESCRIPTION = """
Reorder the dimensions of `input` and materialise the result, like torch.permute_copy(input, dims).
`input` is a float32 tensor of any rank (0-d included), possibly non-contiguous. `dims` is a tuple or
list holding a permutation of the dimension numbers (negative values count from the end). The result
is a NEW contiguous tensor (never a view of `input`) of shape [input.shape[d] for d in dims] with
out[i_0, ..., i_{n-1}] = input[j] where j[dims[k]] = i_k, values copied exactly (NaN and infinities
included). An identity permutation still returns a fresh copy. The input must not be modified.
"""


def reference(input, dims):
    return torch.permute_copy(input, dims)


def cases(g: Inputs):
    yield Case("transpose-2d", g.randn(33, 65), (1, 0))
    yield Case("3d-rotate", g.randn(4, 37, 129), (2, 0, 1))
    yield Case("3d-negative-dims", g.uniform(6, 19, 23, low=-5.0, high=5.0), (-1, -3, -2))
    yield Case("4d-last-to-middle", g.randn(3, 5, 7, 11), (0, 3, 1, 2))
    yield Case("4d-reverse", g.heavy_tailed(6, 5, 7, 11, scale=2.0), (3, 2, 1, 0))
    yield Case("4d-swap-middle", g.randn(2, 33, 17, 8), [0, 2, 1, 3])
    yield Case("5d", g.randn(2, 3, 4, 5, 6), (4, 1, 3, 0, 2))
    yield Case("identity", g.randn(5, 7, 9), (0, 1, 2))
    yield Case("list-dims", g.randn(9, 1001), [1, 0])
    yield Case("size-1-dims", g.randn(1, 17, 1, 33), (3, 2, 0, 1))
    yield Case("1d", g.randn(1000), (0,))
    yield Case("scalar", g.tensor(2.5), ())
    yield Case("strided", g.strided(g.randn(33, 65)), (1, 0))
    yield Case("strided-3d", g.strided(g.randn(7, 9, 20), step=3), (1, 2, 0))
    yield Case("transposed", g.transposed(g.randn(40, 50)), (1, 0))
    yield Case("transposed-keep", g.transposed(g.randn(3, 40, 50)), (0, 1, 2))
    special = [0.0, -0.0, 1.0, float("inf"), float("-inf"), float("nan"), -2.5, -1e-30, 7.0]
    yield Case("special-values", g.tensor([special, special[::-1], special[2:] + special[:2]]), (1, 0))
    # Values near the float32 limit in a case of their own: beside ordinary ones they would widen the
    # tolerance's absolute part (scaled by the output's RMS) past the ordinary values.
    huge = [3e38, -1e38, 2.5e38, -3.3e38, 1e38, -2e38, 3.4e38, -5e37, 1.5e38]
    yield Case("huge-values", g.tensor([huge, huge[::-1], huge[2:] + huge[:2]]), (1, 0))


def perf_cases(g: Inputs):
    yield Case("64^4-(0,2,3,1)", g.randn(64, 64, 64, 64), (0, 2, 3, 1))
    yield Case("8192x8192-transpose", g.randn(8192, 8192), (1, 0))
    yield Case("128^4-(0,2,3,1)", g.randn(128, 128, 128, 128), (0, 2, 3, 1))
    yield Case("128^4-reverse", g.randn(128, 128, 128, 128), (3, 2, 1, 0))


def cost(case: Case, output) -> Cost:
    return Cost(flops=0.0, bytes=float(numel_bytes(case.args[0]) + numel_bytes(output)))
