"""Tile a float32 tensor (torch.tile) and take the exponential of every element of the result."""

import torch

from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "fused_tile_exp"
SIGNATURE = "fused_tile_exp(input, dims, *, out=None)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["out"]
# A 0 in dims leaves the output empty (the rule sees only non-empty inputs).
# (near-overflow: exponentials near float32's largest value)
TIERS = {"zero-reps": "edge", "near-overflow": "edge"}
DIFFICULTY = 3
DESCRIPTION = """
Repeat `input` along each dimension like torch.tile(input, dims), then apply exp elementwise:
out = exp(tile(input, dims)). `input` is a float32 tensor of any shape (possibly 0-d, empty or
non-contiguous); `dims` is a tuple (or list) of non-negative ints, the number of copies along each
dimension. If `dims` has fewer entries than input has dimensions, ones are prepended to `dims`; if it
has more, input is treated as having extra leading dimensions of size 1. The result has size
input.shape[d] * dims[d] along each (aligned) dimension d, and element [i_0, ..., i_{n-1}] is
exp(input[i_0 % input.shape[0], ..., i_{n-1} % input.shape[n-1]]); a 0 in dims gives an empty result.
Produce it in one pass (no tiled intermediate). exp follows IEEE: exp(-inf) = 0, exp(inf) = inf,
overflow gives inf, NaN stays NaN. If `out` (a float32 tensor of the result's shape) is given, write
the result into it and return `out`; otherwise return a new contiguous tensor. The input must not be
modified.
"""


def reference(input, dims, *, out=None):
    result = torch.exp(torch.tile(input, dims))
    if out is not None:
        out.copy_(result)
        return out
    return result


def cost(case: Case, output) -> Cost:
    x = case.args[0]
    # One exp per output element; the input read once, the output written once.
    return Cost(flops=float(output.numel()), bytes=float(numel_bytes(x) + numel_bytes(output)))


def cases(g: Inputs):
    yield Case("1d-twice", g.randn(1003), (2,))
    yield Case("2d-both", g.randn(37, 65), (2, 3))
    yield Case("2d-rows-only", g.randn(40, 129), (3, 1))
    yield Case("2d-cols-only", g.randn(33, 50), (1, 4))
    yield Case("3d-mixed", g.uniform(3, 5, 7, low=-5.0, high=5.0), (2, 1, 3))
    # Fewer dims than the input (ones prepended) and more (input gets leading size-1 dims).
    yield Case("short-dims", g.randn(4, 6, 9), (2,))
    yield Case("long-dims", g.randn(17), (3, 2))
    yield Case("long-dims-2d", g.randn(5, 8), (2, 1, 3))
    yield Case("identity", g.randn(30, 41), (1, 1))
    yield Case("many-copies", g.randn(3, 2), (50, 70))
    yield Case("4d", g.randn(2, 3, 4, 5), (2, 2, 2, 2))
    # More alternating repeat axes than a fixed-rank kernel would hold.
    yield Case("6d", g.randn(2, 3, 2, 3, 2, 3), (2, 1, 3, 2, 2, 2))
    yield Case("list-dims", g.randn(20, 30), [2, 2])
    yield Case("out", g.randn(25, 40), (2, 3), out=g.randn(50, 120))
    yield Case("out-1d", g.randn(500), (4,), out=g.randn(2000))
    # Edge: non-contiguous input and out, special values and overflow, empty and 0-d.
    yield Case("strided", g.strided(g.randn(33, 65)), (2, 2))
    yield Case("transposed", g.transposed(g.randn(40, 50)), (3, 2))
    yield Case("out-strided", g.randn(10, 20), (2, 2), out=g.strided(g.randn(20, 40)))
    special = [0.0, -0.0, 1.0, -1.0, 89.0, -103.0, -110.0, 1000.0, float("inf"), float("-inf"), float("nan")]
    yield Case("special-values", g.tensor(special), (3,))
    # exp near float32's largest value in a case of its own (beside ordinary results its size would
    # widen the tolerance's absolute part, scaled by the output's RMS, past them)
    yield Case("near-overflow", g.tensor([88.0, 87.5, 86.0]), (3,))
    yield Case("zero-reps", g.randn(5, 6), (0, 2))
    yield Case("empty-input", g.randn(0, 6), (3, 2))
    yield Case("0d-input", g.tensor(0.5), (4,))
    yield Case("0d-no-dims", g.tensor(-1.5), ())


def perf_cases(g: Inputs):
    yield Case("2d-4096x4096-x2x2", g.randn(4096, 4096), (2, 2))
    yield Case("1d-16M-x4", g.randn(1 << 24), (4,))
    yield Case("3d-64x512x512-rows", g.randn(64, 512, 512), (1, 4, 1))
    yield Case("2d-8192x1024-cols", g.randn(8192, 1024), (1, 8))
