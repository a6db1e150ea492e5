"""Repeat the elements of a tensor along a dimension (repeat_interleave), then take log_softmax
along that dimension of the repeated tensor."""

import torch
import torch.nn.functional as F

from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "fused_repeat_interleave_log_softmax"
SIGNATURE = "fused_repeat_interleave_log_softmax(input, repeats, dim=None, *, output_size=None, dtype=None, out=None)"
DTYPES = ["float32", "float64", "int64"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32", "float64", "int64"]
CORE_KWARGS = ["dim", "dtype"]
# Zero repeats (elements that vanish from the result) are beyond the upstream test.
TIERS = {"zero-repeats": "edge", "zero-repeats-hide-nan": "edge", "all-repeats-zero": "edge",
         "dtype-float32-from-f64": "core"}  # dim=-1 like the upstream test's
DIFFICULTY = 3
DESCRIPTION = """
Repeat each element of `input` along dimension `dim` like torch.repeat_interleave(input, repeats,
dim=dim, output_size=output_size), then apply log_softmax along the same dimension of the repeated
tensor like torch.nn.functional.log_softmax(repeated, dim=dim, dtype=dtype). `input` is float32 or
float64 (or int64 when `dtype` is given) of any shape, possibly 0-d or non-contiguous. `repeats` is
a non-negative int, or an int64 tensor with one entry (applied to every element) or with one entry
per element along `dim` (entry k = how many consecutive copies of slice k; 0 drops it), possibly
non-contiguous. dim=None (default) flattens the input first: the result is 1-D and log_softmax runs
over all of it; otherwise
`dim` is an int (negative counts from the end) and the result has input's shape except size
sum(repeats) along `dim`. `output_size`, if given, is that total length (a hint; it equals the sum).
`dtype` (torch.float32 or torch.float64), if given, converts the repeated values before the
log_softmax and is the result's dtype; otherwise the result has input's dtype. Each output entry is
x_k - log(sum over the slice's kept elements of r_k * exp(x_k)), computed stably (subtract the slice
maximum); logits may be large (about 1000). IEEE cases as in PyTorch: a slice containing +inf or NaN
among its kept elements, or with all kept elements -inf, is all NaN. Do not materialize the
repeated tensor: read each input element once and write each output element once. If `out` (a
tensor of the result's shape and dtype, possibly non-contiguous) is given, write the result into it
and return `out`; otherwise return a new tensor. The inputs must not be modified.
"""


def reference(input, repeats, dim=None, *, output_size=None, dtype=None, out=None):
    repeated = torch.repeat_interleave(input, repeats, dim=dim, output_size=output_size)
    # dim=None: the repeated tensor is 1-D, normalized over its only dimension.
    result = F.log_softmax(repeated, dim=0 if dim is None else dim, dtype=dtype)
    if out is not None:
        out.copy_(result)
        return out
    return result


def cost(case: Case, output) -> Cost:
    x = case.args[0]
    repeats = case.args[1] if len(case.args) > 1 else case.kwargs.get("repeats")
    rep_bytes = numel_bytes(repeats) if isinstance(repeats, torch.Tensor) else 0
    # exp and a weighted add per input element, a subtraction per output element; the input and
    # repeats read once, the result written once.
    return Cost(flops=float(3 * x.numel() + output.numel()),
                bytes=float(numel_bytes(x) + rep_bytes + numel_bytes(output)))


def _reps(g: Inputs, n: int, high: int = 4, low: int = 1):
    return g.randint(low, high, n)


def cases(g: Inputs):
    f64 = torch.float64
    yield Case("example-1d", g.tensor([1.0, 2.0, 3.0]), 2)
    yield Case("1d-dim0", g.randn(1003), 3, dim=0)
    yield Case("1d-long-none", g.randn(20000, std=2.0), 2)
    yield Case("2d-flatten", g.randn(7, 9), 2)
    yield Case("2d-dim1-int", g.randn(37, 129), 2, dim=1)
    yield Case("2d-dim0-int", g.randn(300, 6), 3, dim=0)
    yield Case("2d-dim1-tensor", g.randn(20, 50), _reps(g, 50), dim=1)
    yield Case("3d-middle-tensor", g.randn(4, 60, 5), _reps(g, 60), dim=1)
    yield Case("long-slices-tensor", g.randn(3, 3000), _reps(g, 3000), dim=1)
    yield Case("float64-dim1", g.randn(9, 700, dtype=f64), 2, dim=1)
    yield Case("float64-tensor-repeats", g.randn(600, 4, dtype=f64), _reps(g, 600), dim=0)
    yield Case("dtype-float64", g.randn(16, 257), 3, dim=1, dtype=f64)
    yield Case("dtype-float32-from-f64", g.randn(16, 257, dtype=f64), _reps(g, 257), dim=-1, dtype=torch.float32)
    yield Case("int64-input-dtype", g.randint(-5, 6, 12, 40), 2, dim=1, dtype=torch.float32)
    yield Case("large-logits", g.randn(8, 500, mean=1000.0, std=5.0), _reps(g, 500), dim=1)
    yield Case("repeats-one", g.randn(30, 41), 1, dim=1)
    # Edge: zero repeats, output_size, one-entry repeats tensor, special values, layouts, empty, 0-d, out=.
    yield Case("zero-repeats", g.randn(10, 80), _reps(g, 80, low=0), dim=1)
    x = g.randn(3, 6)
    x[1, 2] = float("nan")
    x[2, 4] = float("inf")
    yield Case("zero-repeats-hide-nan", x, g.tensor([1, 2, 0, 1, 0, 3], dtype=torch.int64), dim=1)
    x = g.randn(6, 30)
    x[1, 7] = float("nan")
    x[3, 0] = float("inf")
    x[4, :] = float("-inf")
    x[5, 3] = float("-inf")
    yield Case("nan-inf-rows", x, 2, dim=1)
    r = _reps(g, 40)
    yield Case("output-size-given", g.randn(40, 9), r, dim=0, output_size=int(r.sum().item()))
    yield Case("one-entry-tensor", g.randn(15, 22), g.tensor([3], dtype=torch.int64), dim=1)
    yield Case("strided", g.strided(g.randn(33, 65)), 2, dim=1)
    yield Case("transposed", g.transposed(g.randn(40, 50)), _reps(g, 40), dim=0)
    yield Case("all-repeats-zero", g.randn(4, 5), g.tensor([0] * 5, dtype=torch.int64), dim=1)
    yield Case("empty-input", g.randn(0, 5), 2, dim=1)
    yield Case("0d-input", g.tensor(2.5), 3)
    yield Case("out", g.randn(12, 30), 2, dim=1, out=g.randn(12, 60))
    r = _reps(g, 25)
    yield Case("out-flatten", g.randn(25), r, out=g.randn(int(r.sum().item())))
    # repeats read as dense (stride 1) take the gaps' zeros and other slices' counts; out written
    # as dense misses its view
    r = _reps(g, 40)
    yield Case("strided-repeats-out", g.randn(12, 40), g.strided(r), dim=1,
               out=g.strided(g.randn(12, int(r.sum().item()))))


def perf_cases(g: Inputs):
    yield Case("1d-8M-x2-none", g.randn(1 << 23), 2)
    yield Case("2d-4096x4096-x2-rows", g.randn(4096, 4096), 2, dim=1)
    yield Case("2d-8192x2048-tensor-rows", g.randn(8192, 2048), g.randint(1, 4, 2048), dim=1)
    yield Case("2d-4096x4096-x2-cols", g.randn(4096, 4096), 2, dim=0)
