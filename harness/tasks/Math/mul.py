"""Elementwise product of a float32 tensor with a broadcastable tensor or a number, optional out=."""

import torch

from harness.taskdef import Case, Cost, Inputs, numel_bytes, tensor_leaves

ENTRY = "mul"
SIGNATURE = "mul(input, other, out=None)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = []
DIFFICULTY = 3
DESCRIPTION = """
Multiply a float32 tensor `input` elementwise by `other`, like torch.mul(input, other, out=out).
`other` is either a float32 tensor whose shape broadcasts with input's under the usual rules (align
trailing dimensions; a dimension of size 1, or a missing leading dimension, is repeated; `other` may
have more dimensions than `input`, or be 0-d), or a Python number (int or float, converted to
float32). The result is a float32 tensor of the broadcast shape. Either tensor may be
non-contiguous, and any of them may be empty. IEEE rules apply: 0 * inf is NaN, NaN propagates,
overflow gives ±inf. When `out` is None return a new tensor. When `out` is given (a float32 tensor of
the broadcast shape, possibly non-contiguous) write the result into it and return `out` itself. The
inputs are never modified.
"""


def cost(case: Case, output) -> Cost:
    # Each input tensor is read once, the result written once (a given `out` is only written).
    ins = tensor_leaves(list(case.args[:2]))
    return Cost(flops=float(output.numel()),
                bytes=float(sum(numel_bytes(t) for t in ins) + numel_bytes(output)))


def reference(input, other, out=None):
    return torch.mul(input, other, out=out)


def cases(g: Inputs):
    # IEEE edges pairwise: 0 * inf, inf * -inf, NaN, signed zeros, overflow and underflow.
    a = [0.0, -0.0, 1.0, -2.5, float("inf"), float("-inf"), float("nan"), 3.0, 1e20, -1e20, 1e-20,
         0.5, 7.0]
    b = [float("inf"), 5.0, float("-inf"), float("-inf"), 2.0, -3.0, 1.0, float("nan"), 1e20, 1e20,
         1e-20, -0.0, -0.25]
    yield Case("edge-values", g.tensor(a), g.tensor(b))
    yield Case("single", g.randn(1), g.randn(1))
    yield Case("empty", g.randn(0, 4), g.randn(0, 4))
    yield Case("same-shape-odd", g.randn(1003), g.randn(1003))
    yield Case("same-shape-3d", g.uniform(3, 37, 129, low=-2.0, high=2.0), g.heavy_tailed(3, 37, 129))
    # Broadcasting: row and column vectors, both sides expanding, more dims in other, 0-d other.
    yield Case("bcast-row", g.randn(64, 300), g.randn(300))
    yield Case("bcast-col", g.randn(64, 300), g.randn(64, 1))
    yield Case("bcast-outer", g.randn(45, 1), g.randn(1, 77))
    yield Case("bcast-middle", g.randn(6, 1, 65), g.randn(5, 1))
    yield Case("bcast-other-more-dims", g.randn(129), g.uniform(3, 7, 129, low=-4.0, high=4.0))
    yield Case("bcast-size-1", g.randn(1), g.randn(31, 33))
    yield Case("zero-dim-other", g.randn(40, 50), g.tensor(-1.75))
    # Python numbers: float, negative int, zero (0 * inf = NaN).
    yield Case("scalar-float", g.randn(2049), 2.5)
    yield Case("scalar-int", g.heavy_tailed(37, 41), -3)
    yield Case("scalar-zero", g.tensor([1.0, -2.0, float("inf"), float("nan"), 0.0, -7.5]), 0.0)
    # Non-contiguous operands.
    yield Case("strided", g.strided(g.randn(33, 65)), g.randn(33, 65))
    yield Case("transposed", g.transposed(g.randn(97, 48)), g.strided(g.randn(97, 48)))
    yield Case("transposed-bcast", g.transposed(g.randn(40, 70)), g.randn(40, 1))
    yield Case("strided-scalar", g.strided(g.randn(21, 30)), 0.3)
    # out=: dense, non-contiguous, broadcast result, explicit None.
    yield Case("out", g.randn(64, 300), g.randn(64, 300), out=g.randn(64, 300))
    yield Case("out-strided-bcast", g.randn(17, 1), g.randn(129), out=g.strided(g.randn(17, 129)))
    yield Case("out-scalar", g.randn(500), -0.5, out=g.randn(500))
    yield Case("out-none-explicit", g.randn(2, 300), g.randn(2, 300), out=None)


def perf_cases(g: Inputs):
    # Two float32 inputs plus the output: 2**25 elements move 384 MB.
    yield Case("same-16M", g.randn(1 << 24), g.randn(1 << 24))
    yield Case("same-32M-out", g.randn(1 << 25), g.randn(1 << 25), out=g.randn(1 << 25))
    yield Case("bcast-row-8192x8192", g.randn(8192, 8192), g.randn(8192))
    yield Case("scalar-64M", g.randn(1 << 26), 1.5)
