"""Tanh of a linear layer, tanh(input @ weight^T + bias), on float16 with float32 accumulation."""

import math

import torch
import torch.nn.functional as F

from harness.checks import bind_arguments, check_bounded, product_bound, unit_roundoff
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "fused_tanh_linear"
SIGNATURE = "fused_tanh_linear(input, weight, bias=None)"
DTYPES = ["float16"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float16"]
CORE_KWARGS = []
DIFFICULTY = 3
DESCRIPTION = """
A linear layer followed by the hyperbolic tangent, like
torch.tanh(torch.nn.functional.linear(input, weight, bias)). `input` is a float16 tensor of shape
(*, in_features) (any number of leading dimensions, possibly none of them and possibly empty),
`weight` a float16 (out_features, in_features) matrix and `bias` an optional float16
(out_features,) vector (None: no bias). With z = input @ weight^T + bias, return tanh(z) elementwise
as a new float16 tensor of shape (*, out_features). z may be large (hundreds): tanh saturates to
+-1 there and must not turn into NaN. Any tensor may be non-contiguous (a transposed weight, a
strided input). in_features may be 0 (then z = bias, or 0 without bias). Accumulate the products in
float32 (float16 values multiply exactly in float32) and round to float16 at the end (rounding z to
float16 before the activation is tolerated too); a float16 accumulator loses too much on the deep
in_features cases and fails the check. The inputs must not be modified.
"""

F16 = torch.float16
F32 = torch.float32
U16 = unit_roundoff(F16)
U32 = unit_roundoff(F32)


def reference(input, weight, bias=None):
    return torch.tanh(F.linear(input, weight, bias))


# -- checking ----------------------------------------------------------------------------------------
# z = input @ weight^T + bias is judged through harness/checks.py's product bound for float32
# accumulation (8 * sqrt(K) * u32 * (|x| @ |w|^T)), whose u16 * |z| term also covers a kernel that
# rounds z to float16 before the activation (as the unfused PyTorch pair does); 4 * u32 * |bias| +
# u16 * |x @ w^T| covers the bias addition, also after rounding the product to float16 (as
# torch.matmul(x, w^T) + bias does). tanh' = 1 - tanh^2 <= 1, so that error reaches the output
# multiplied by at most the largest slope over the error interval (taken as 1 - tanh(|z| - dz)^2); then the float32
# evaluation of tanh (a few u32 of its magnitude, or about u32 absolute for exp-based forms near 0,
# which the smallest float16 normal covers) and the final rounding to float16 (u16 * |out|). A
# float16 accumulator (errors ~ sqrt(K / BLOCK_K) * u16 times the partial sums) or a missing bias
# exceed the bound by far.
CHECK_NOTE = (
    "Compared with the float64 value of tanh(x @ w^T + b), each element allowed tanh'(z) * "
    "(8*sqrt(K)*u32*(|x|@|w|^T) + u16*(|z| + |x@w^T|) + 4*u32*|b|) + 8*u32*|exact| + u16*|exact| + the smallest "
    "float16 normal (harness/checks.py product_bound for the linear part, float16 rounding of z "
    "tolerated)."
)


def _exact(x, w, b):
    x2 = x.reshape(math.prod(x.shape[:-1]), x.shape[-1]).double()
    z = x2 @ w.double().T
    if b is not None:
        z = z + b.double()
    y = torch.tanh(z)
    return x2, z, y


def check(case, output, expected):
    args = bind_arguments(reference, case)
    x, w, b = args["input"], args["weight"], args["bias"]
    x2, z, y = _exact(x, w, b)
    bound_z = product_bound(x2, w.double().T, out_dtype=F16, accumulate=F32, exact=z)
    if b is not None:  # the bias addition, possibly after rounding the product to float16
        bound_z = bound_z + 4 * U32 * b.double().abs() + U16 * (z - b.double()).abs()
    slope = 1.0 - torch.tanh((z.abs() - bound_z).clamp(min=0.0)) ** 2
    bound = slope * bound_z + (8 * U32 + U16) * y.abs() + torch.finfo(F16).tiny
    shape = tuple(x.shape[:-1]) + (w.shape[0],)
    return check_bounded(output, y.reshape(shape), bound.reshape(shape), dtype=F16)


def cost(case: Case, output) -> Cost:
    args = bind_arguments(reference, case)
    x, w, b = args["input"], args["weight"], args["bias"]
    m, k, n = math.prod(x.shape[:-1]), x.shape[-1], w.shape[0]
    # the product's multiply-adds, the bias add and ~3 for the activation per output; every input
    # read once, the result written once
    moved = numel_bytes(x) + numel_bytes(w) + numel_bytes(output) + (numel_bytes(b) if b is not None else 0)
    return Cost(flops=2.0 * m * n * k + 4.0 * output.numel(), bytes=float(moved))


def _weight(g: Inputs, n: int, k: int):
    """A weight with std 1/sqrt(k): z stays of order 1, where tanh is not saturated."""
    return g.randn(n, k, dtype=F16, std=1.0 / max(k, 1) ** 0.5)


def cases(g: Inputs):
    r = lambda *s, **kw: g.randn(*s, dtype=F16, **kw)  # noqa: E731
    yield Case("4x32-to-8", r(4, 32), _weight(g, 8, 32), r(8))
    yield Case("32x256-to-64", r(32, 256), _weight(g, 64, 256), r(64))
    yield Case("odd-37x53-to-29", r(37, 53), _weight(g, 29, 53), r(29))
    yield Case("multi-tile-130x96-to-140", r(130, 96), _weight(g, 140, 96), r(140))
    yield Case("no-bias", r(33, 70), _weight(g, 20, 70))
    yield Case("deep-K-4096", r(32, 4096), _weight(g, 48, 4096), r(48))
    yield Case("batched-3d", r(3, 17, 64), _weight(g, 36, 64), r(36))
    yield Case("1d-input", r(48), _weight(g, 25, 48), r(25))
    # Large pre-activations (|z| up to a few hundred): tanh saturates, exp(2z) overflows.
    yield Case("saturating", r(20, 64, std=8.0), r(24, 64), r(24, std=10.0))
    # Layouts.
    yield Case("transposed-weight", r(30, 50), g.transposed(_weight(g, 41, 50)), r(41))
    yield Case("strided-input", g.strided(r(26, 72)), _weight(g, 33, 72), g.strided(r(33)))
    yield Case("permuted-3d-input", r(18, 4, 32).permute(1, 0, 2), _weight(g, 21, 32), r(21))
    # Empty sizes.
    yield Case("empty-K", r(5, 0), r(7, 0), r(7))
    yield Case("empty-rows", r(0, 16), _weight(g, 9, 16), r(9))


def perf_cases(g: Inputs):
    r = lambda *s: g.randn(*s, dtype=F16)  # noqa: E731
    w = lambda n, k: g.randn(n, k, dtype=F16, std=1.0 / k ** 0.5)  # noqa: E731
    yield Case("1024x8192-to-2048", r(1024, 8192), w(2048, 8192), r(2048))
    yield Case("4096x4096-to-4096", r(4096, 4096), w(4096, 4096), r(4096))
    yield Case("4096x16384-to-4096", r(4096, 16384), w(4096, 16384), r(4096))
    yield Case("8x1024x4096-to-8192", r(8, 1024, 4096), w(8192, 4096), r(8192))
