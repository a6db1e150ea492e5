"""Gather entries of a tensor along a dimension (torch.gather), then overwrite those where a boolean
mask is True with a value (masked_fill)."""

import torch

from harness.checks import bind_arguments
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "fused_gather_masked_fill"
SIGNATURE = "fused_gather_masked_fill(input, dim, index, mask, value, *, sparse_grad=False, out=None)"
DTYPES = ["float32", "int64"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32", "int64"]
CORE_KWARGS = ["sparse_grad", "value"]
# A mask with more dimensions than the index makes the result larger than the gather (broadcast).
# Non-finite fill values and a negative dim (positional) are beyond the upstream test as well.
TIERS = {"mask-adds-dims": "edge", "mask-expands-result": "edge", "mask-expands-result-dim1": "edge",
         "value-nan": "edge", "value-inf": "edge", "negative-dim": "edge"}
DIFFICULTY = 4
# Timed perf inputs mix integer and bool tensors too (perf/server.py RotatingCase): here they are
# values drawn alike at every position (indices may repeat), so any mix of two sets is an input.
PERF_MIX_INTEGERS = True
DESCRIPTION = """
Gather like torch.gather(input, dim, index), then fill like .masked_fill(mask, value), and return the
result. Gather: `index` is an int64 tensor with as many dimensions as `input` (possibly 0-d for a
0-d input), each of its sizes at most input's except along `dim`, with entries in
[0, input.shape[dim]); the gathered tensor has index's shape and element [i_0, ..., i_n] equal to
input at the same position except that coordinate `dim` is index[i_0, ..., i_n]. `dim` is an int
(negative counts from the end). Fill: `mask` is a bool tensor broadcast against the gathered shape
(PyTorch's out-of-place masked_fill broadcasts both, so a mask with extra leading dimensions or
larger sizes where the gathered size is 1 enlarges the result accordingly); where it is True the
result holds `value` (a Python number or a 0-d tensor, converted to input's dtype as PyTorch does,
e.g. 0.5 becomes 0 for an int64 input), elsewhere the gathered entry. `input` is float32 or int64;
the result has input's dtype. `sparse_grad` only concerns autograd and does not change the values.
Any argument may be non-contiguous. Fuse both steps in one pass (no gathered intermediate). If
`out` (a tensor of the result's shape and dtype) is given, write the result into it and return `out`;
otherwise return a new tensor. The inputs must not be modified.
"""


def reference(input, dim, index, mask, value, *, sparse_grad=False, out=None):
    result = torch.gather(input, dim, index, sparse_grad=sparse_grad).masked_fill(mask, value)
    if out is not None:
        out.copy_(result)
        return out
    return result


def cost(case: Case, output) -> Cost:
    args = bind_arguments(reference, case)
    x, index, mask = args["input"], args["index"], args["mask"]
    # Only the gathered entries need reading (each at most once); index, mask and result once each.
    gathered = min(index.numel(), x.numel()) * x.element_size()
    return Cost(flops=float(output.numel()),
                bytes=float(gathered + numel_bytes(index) + numel_bytes(mask) + numel_bytes(output)))


def _mask(g: Inputs, *shape: int, p: float = 0.3):
    return g.uniform(*shape) < p


def cases(g: Inputs):
    yield Case("example-int64", g.tensor([[1, 2], [3, 4]], dtype=torch.int64), 1,
               g.tensor([[0, 0], [1, 0]], dtype=torch.int64), g.tensor([[True, False], [False, True]], dtype=torch.bool), -1)
    yield Case("dim0-float", g.randn(50, 64), 0, g.randint(0, 50, 50, 64), _mask(g, 50, 64), 0.5)
    yield Case("dim1-float", g.randn(33, 70), 1, g.randint(0, 70, 33, 41), _mask(g, 33, 41), -2.0)
    yield Case("smaller-index", g.randn(40, 60), 0, g.randint(0, 40, 100, 37), _mask(g, 100, 37), 3.0,
               sparse_grad=True)
    yield Case("sparse-grad-false", g.randn(20, 30), 1, g.randint(0, 30, 20, 30), _mask(g, 20, 30), 0.0,
               sparse_grad=False)
    yield Case("int64-input", g.randint(-1000, 1000, 30, 45), 1, g.randint(0, 45, 30, 45), _mask(g, 30, 45), 7)
    yield Case("int64-float-value", g.randint(-1000, 1000, 30, 45), 0, g.randint(0, 30, 30, 45), _mask(g, 30, 45), 0.5)
    yield Case("3d-middle", g.randn(4, 20, 6), 1, g.randint(0, 20, 4, 25, 6), _mask(g, 4, 25, 6), 1.5)
    yield Case("3d-last", g.randn(5, 6, 300), 2, g.randint(0, 300, 5, 6, 257), _mask(g, 5, 6, 257), -7.25)
    yield Case("mask-row-broadcast", g.randn(40, 33), 0, g.randint(0, 40, 40, 33), _mask(g, 1, 33, p=0.5), 9.0)
    yield Case("mask-col-broadcast", g.randn(40, 33), 1, g.randint(0, 33, 40, 20), _mask(g, 40, 1, p=0.5), 9.0)
    yield Case("all-masked", g.randn(12, 13), 1, g.randint(0, 13, 12, 13), g.tensor([[True] * 13] * 12, dtype=torch.bool), 4.0)
    yield Case("none-masked", g.randn(12, 13), 0, g.randint(0, 12, 12, 13), g.tensor([[False] * 13] * 12, dtype=torch.bool), 4.0)
    yield Case("1d", g.randn(1000), 0, g.randint(0, 1000, 3000), _mask(g, 3000), -1.0)
    yield Case("4d", g.randn(3, 4, 5, 6), 2, g.randint(0, 5, 3, 4, 7, 6), _mask(g, 3, 4, 7, 6), 2.0)
    yield Case("6d", g.randn(2, 3, 2, 3, 2, 3), 3, g.randint(0, 3, 2, 3, 2, 4, 2, 3), _mask(g, 2, 3, 2, 4, 2, 3), 2.0)
    # Edge: value as a 0-d tensor, special values, negative dim, layouts, broadcast results, 0-d, empty, out=.
    yield Case("value-0d-tensor", g.randn(20, 30), 1, g.randint(0, 30, 20, 30), _mask(g, 20, 30), g.tensor(-3.5))
    yield Case("value-nan", g.randn(20, 30), 1, g.randint(0, 30, 20, 10), _mask(g, 20, 10), float("nan"))
    yield Case("value-inf", g.randn(20, 30), 0, g.randint(0, 20, 5, 30), _mask(g, 5, 30), float("-inf"))
    x = g.randn(30, 8)
    x[3, :] = float("nan")
    x[5, :] = float("inf")
    yield Case("input-nan-inf", x, 0, g.randint(0, 30, 30, 8), _mask(g, 30, 8), 0.0)
    yield Case("negative-dim", g.randn(6, 40), -1, g.randint(0, 40, 6, 17), _mask(g, 6, 17), 1.0)
    yield Case("strided-input", g.strided(g.randn(30, 41)), 1, g.randint(0, 41, 30, 20), _mask(g, 30, 20), 1.0)
    yield Case("transposed-input", g.transposed(g.randn(40, 50)), 0, g.randint(0, 40, 60, 50), _mask(g, 60, 50), 1.0)
    yield Case("strided-index-and-mask", g.randn(50, 12), 0, g.strided(g.randint(0, 50, 25, 12)),
               g.strided(_mask(g, 25, 12)), 1.0)
    yield Case("mask-adds-dims", g.randn(10, 12), 1, g.randint(0, 12, 10, 5), _mask(g, 3, 10, 5), -4.0)
    yield Case("mask-expands-result", g.randn(10, 12), 0, g.randint(0, 10, 1, 12), _mask(g, 7, 12), -4.0)
    yield Case("mask-expands-result-dim1", g.randn(10, 12), 0, g.randint(0, 10, 5, 1), _mask(g, 5, 9), -4.0)
    yield Case("0d", g.tensor(2.5), 0, g.tensor(0, dtype=torch.int64), g.tensor(False, dtype=torch.bool), 1.0)
    yield Case("empty-index", g.randn(10, 7), 1, g.randint(0, 7, 10, 0), _mask(g, 10, 0), 1.0)
    yield Case("out", g.randn(30, 40), 0, g.randint(0, 30, 45, 40), _mask(g, 45, 40), 8.0, out=g.randn(45, 40))
    yield Case("out-strided-int64", g.randint(0, 100, 30, 40), 1, g.randint(0, 40, 30, 20), _mask(g, 30, 20), -5,
               out=g.strided(g.randint(0, 1, 30, 20)))


def perf_cases(g: Inputs):
    yield Case("dim0-16384x2048", g.randn(16384, 2048), 0, g.randint(0, 16384, 16384, 2048),
               _mask(g, 16384, 2048, p=0.5), 0.5)
    yield Case("dim1-8192x4096", g.randn(8192, 4096), 1, g.randint(0, 4096, 8192, 4096),
               _mask(g, 8192, 4096, p=0.5), -1.0, sparse_grad=True)
    yield Case("int64-dim1-4096x4096-row-mask", g.randint(-1000, 1000, 4096, 4096), 1,
               g.randint(0, 4096, 4096, 4096), _mask(g, 1, 4096, p=0.5), 0)
