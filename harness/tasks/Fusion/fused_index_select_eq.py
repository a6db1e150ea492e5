"""Select slices of an int64 tensor by index along a dimension and compare them elementwise with
another tensor or a number (index_select, then eq)."""

import torch

from harness.checks import bind_arguments
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "fused_index_select_eq"
SIGNATURE = "fused_index_select_eq(input, dim, index, other, *, out=None)"
DTYPES = ["int64"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["int64"]
CORE_KWARGS = []
# Beyond the upstream test's small integers: float inputs (NaN), int64 values beyond 2**53, and
# the float32 promotion of an int64 input compared with a Python float; a negative dim (positional).
TIERS = {"float-input-nan": "edge", "float-input-scalar": "edge", "int64-beyond-2^53": "edge",
         "int-vs-float-scalar-promotion": "edge", "negative-dim": "edge"}
DIFFICULTY = 4
# Timed perf inputs mix integer and bool tensors too (perf/server.py RotatingCase): here they are
# values drawn alike at every position (indices may repeat), so any mix of two sets is an input.
PERF_MIX_INTEGERS = True
DESCRIPTION = """
Select entries of `input` along dimension `dim` at the positions in `index`, like
torch.index_select(input, dim, index), then compare the selection elementwise with `other`, like
torch.eq(selected, other), and return the boolean result. `input` is an int64 tensor (float32 also
accepted) of any shape, possibly 0-d or non-contiguous; `dim` is an int (negative counts from the
end); `index` is a 1-D (or 0-d) int64 or int32 tensor of valid positions in [0, input.shape[dim]),
possibly empty, repeated or unsorted. The selection has input's shape with dimension `dim` replaced
by len(index) (a 0-d input stays 0-d). `other` is a Python number or a tensor broadcastable to the
selection's shape. The comparison happens in PyTorch's promoted type, torch.result_type(input,
other): int64 with an int compares exactly (values may exceed 2**53, so never through a float);
int64 with a Python float or a float tensor compares after converting both to float32, as PyTorch
does; NaN equals nothing. The result is a torch.bool tensor of the selection's shape. Fuse both
steps: read only the selected entries, never materialize the selection. If `out` (a bool tensor of
that shape) is given, write the result into it and return `out`; otherwise return a new tensor. The
inputs must not be modified.
"""


def reference(input, dim, index, other, *, out=None):
    result = torch.eq(torch.index_select(input, dim, index), other)
    if out is not None:
        out.copy_(result)
        return out
    return result


def cost(case: Case, output) -> Cost:
    args = bind_arguments(reference, case)
    x, index, other = args["input"], args["index"], args["other"]
    # Only the selected entries need reading (each at most once), plus the index, other and the result.
    selected = min(output.numel(), x.numel()) * x.element_size()
    other_bytes = numel_bytes(other) if isinstance(other, torch.Tensor) else 0
    return Cost(flops=float(output.numel()),
                bytes=float(selected + numel_bytes(index) + other_bytes + numel_bytes(output)))


def _ints(g: Inputs, *shape: int, high: int = 4):
    """Small integers, so that a good share of the comparisons is true."""
    return g.randint(0, high, *shape)


def cases(g: Inputs):
    yield Case("example", g.tensor([[1, 2], [3, 4], [5, 6]], dtype=torch.int64), 0,
               g.tensor([0, 2], dtype=torch.int64), g.tensor([[1, 2], [5, 6]], dtype=torch.int64))
    yield Case("dim0-tensor-other", _ints(g, 50, 16), 0, g.randint(0, 50, 30), _ints(g, 30, 16))
    yield Case("dim1-int-scalar", _ints(g, 33, 70), 1, g.randint(0, 70, 41), 2)
    yield Case("dim0-float-scalar", _ints(g, 200, 24), 0, g.randint(0, 200, 129), 0.0)
    yield Case("broadcast-other-row", _ints(g, 40, 33), 0, g.randint(0, 40, 64), _ints(g, 1, 33))
    yield Case("broadcast-other-col", _ints(g, 40, 33), 1, g.randint(0, 33, 20), _ints(g, 40, 1))
    yield Case("3d-middle-dim", _ints(g, 4, 20, 6), 1, g.randint(0, 20, 25), _ints(g, 4, 25, 6))
    yield Case("3d-last-dim", _ints(g, 5, 6, 300), 2, g.randint(0, 300, 257), _ints(g, 5, 6, 257))
    yield Case("1d", _ints(g, 1000), 0, g.randint(0, 1000, 3000), _ints(g, 3000))
    yield Case("int32-index-sorted", _ints(g, 64, 10), 0, g.tensor(list(range(0, 64, 3)), dtype=torch.int32), 1)
    yield Case("permutation-index", _ints(g, 70, 9), 0, g.permutation(70), _ints(g, 70, 9))
    yield Case("0d-other-tensor", _ints(g, 12, 50), 1, g.randint(0, 50, 50), g.tensor(3, dtype=torch.int64))
    # Edge: exact int64 comparison beyond float precision, float promotion, float inputs, layouts,
    # negative dim, 0-d and empty cases, out=.
    big = 2 ** 62 + g.randint(0, 4, 8, 30)
    yield Case("int64-beyond-2^53", big, 1, g.randint(0, 30, 30), 2 ** 62 + g.randint(0, 4, 8, 30))
    near = g.tensor([16777216, 16777217, 16777218, 5, -16777217, 0], dtype=torch.int64)
    yield Case("int-vs-float-scalar-promotion", near, 0, g.tensor([0, 1, 2, 3, 4, 5, 1], dtype=torch.int64), 16777216.0)
    x = g.randint(0, 3, 30, 20).to(torch.float32)
    x[3, 4] = float("nan")
    o = g.randint(0, 3, 30, 20).to(torch.float32)
    o[:, 4] = float("nan")
    yield Case("float-input-nan", x, 0, g.randint(0, 30, 30), o)
    yield Case("float-input-scalar", g.randint(-2, 3, 25, 16).to(torch.float32), 1, g.randint(0, 16, 16), -1.0)
    yield Case("negative-dim", _ints(g, 6, 40), -1, g.randint(0, 40, 17), _ints(g, 6, 17))
    yield Case("strided-input", g.strided(_ints(g, 30, 41)), 1, g.randint(0, 41, 20), _ints(g, 30, 20))
    yield Case("transposed-input", g.transposed(_ints(g, 40, 50)), 0, g.randint(0, 40, 60), _ints(g, 60, 50))
    yield Case("strided-index-and-other", _ints(g, 50, 12), 0, g.strided(g.randint(0, 50, 25)),
               g.strided(_ints(g, 25, 12)))
    yield Case("0d-input", g.tensor(3, dtype=torch.int64), 0, g.tensor([0], dtype=torch.int64), 3)
    yield Case("0d-index", _ints(g, 10, 7), 0, g.tensor(4, dtype=torch.int64), _ints(g, 1, 7))
    yield Case("empty-index", _ints(g, 10, 7), 1, g.tensor([], dtype=torch.int64), 1)
    yield Case("out", _ints(g, 30, 40), 0, g.randint(0, 30, 45), _ints(g, 45, 40),
               out=g.tensor([[True] * 40] * 45, dtype=torch.bool))
    yield Case("out-strided", _ints(g, 30, 40), 1, g.randint(0, 40, 20), 2,
               out=g.strided(g.tensor([[False] * 20] * 30, dtype=torch.bool)))


def perf_cases(g: Inputs):
    yield Case("dim0-65536x512-tensor-other", g.randint(0, 4, 65536, 512), 0, g.randint(0, 65536, 65536),
               g.randint(0, 4, 65536, 512))
    yield Case("dim0-262144x128-scalar", g.randint(0, 4, 262144, 128), 0, g.randint(0, 262144, 131072), 0.0)
    yield Case("dim1-4096x8192-row-other", g.randint(0, 4, 4096, 8192), 1, g.randint(0, 8192, 4096),
               g.randint(0, 4, 1, 4096))
