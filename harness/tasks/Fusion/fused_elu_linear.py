"""ELU of a linear layer, elu(input @ weight^T + bias, alpha), on float16 with float32 accumulation."""

import math

import torch
import torch.nn.functional as F

from harness.checks import bind_arguments, check_bounded, product_bound, unit_roundoff
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "fused_elu_linear"
SIGNATURE = "fused_elu_linear(input, weight, bias=None, alpha=1.0, inplace=False)"
DTYPES = ["float16"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float16"]
CORE_KWARGS = ["alpha", "inplace"]
DIFFICULTY = 4
DESCRIPTION = """
A linear layer followed by the exponential linear unit, like
torch.nn.functional.elu(torch.nn.functional.linear(input, weight, bias), alpha=alpha). `input` is a
float16 tensor of shape (*, in_features) (any number of leading dimensions, possibly none of them
and possibly empty), `weight` a float16 (out_features, in_features) matrix and `bias` an optional
float16 (out_features,) vector (None: no bias). With z = input @ weight^T + bias, the result is
z where z > 0 and alpha * (exp(z) - 1) where z <= 0; `alpha` is a Python float (default 1.0, may be
any real number). `inplace` (default False) only says that the activation may overwrite the
intermediate linear result: the inputs themselves are never modified, whatever its value. Return a
new float16 tensor of shape (*, out_features). Any tensor may be non-contiguous (a transposed
weight, a strided input). in_features may be 0 (then z = bias, or 0 without bias). Accumulate the
products in float32 (float16 values multiply exactly in float32) and round to float16 at the end
(rounding z to float16 before the activation is tolerated too); a float16 accumulator loses too
much on the deep in_features cases and fails the check.
"""

F16 = torch.float16
F32 = torch.float32
U16 = unit_roundoff(F16)
U32 = unit_roundoff(F32)


def reference(input, weight, bias=None, alpha=1.0, inplace=False):
    return F.elu(F.linear(input, weight, bias), alpha=alpha, inplace=inplace)


# -- checking ----------------------------------------------------------------------------------------
# z = input @ weight^T + bias is judged through harness/checks.py's product bound for float32
# accumulation (8 * sqrt(K) * u32 * (|x| @ |w|^T)), whose u16 * |z| term also covers a kernel that
# rounds z to float16 before the activation (as the unfused PyTorch pair does); 4 * u32 * |bias| +
# u16 * |x @ w^T| covers the bias addition, also after rounding the product to float16 (as
# torch.matmul(x, w^T) + bias does). ELU is Lipschitz with constant max(1, |alpha|), so that error
# reaches the output at most multiplied by it; then the float32 evaluation of exp (a few u32) and the final
# rounding to float16 (u16 * |out|). A float16 accumulator (errors ~ sqrt(K / BLOCK_K) * u16 times
# the partial sums), a missing bias or a wrong alpha exceed the bound by far.
CHECK_NOTE = (
    "Compared with the float64 value of elu(x @ w^T + b), each element allowed max(1,|alpha|) * "
    "(8*sqrt(K)*u32*(|x|@|w|^T) + u16*(|z| + |x@w^T|) + 4*u32*|b|) + 8*u32*|exact| + u16*|exact| + the smallest "
    "float16 normal (harness/checks.py product_bound for the linear part, float16 rounding of z "
    "tolerated)."
)


def _exact(x, w, b, alpha):
    x2 = x.reshape(math.prod(x.shape[:-1]), x.shape[-1]).double()
    z = x2 @ w.double().T
    if b is not None:
        z = z + b.double()
    y = torch.where(z > 0, z, alpha * torch.expm1(torch.clamp(z, max=0.0)))
    return x2, z, y


def check(case, output, expected):
    args = bind_arguments(reference, case)
    x, w, b, alpha = args["input"], args["weight"], args["bias"], float(args["alpha"])
    x2, z, y = _exact(x, w, b, alpha)
    bound_z = product_bound(x2, w.double().T, out_dtype=F16, accumulate=F32, exact=z)
    if b is not None:  # the bias addition, possibly after rounding the product to float16
        bound_z = bound_z + 4 * U32 * b.double().abs() + U16 * (z - b.double()).abs()
    bound = max(1.0, abs(alpha)) * bound_z + (8 * U32 + U16) * y.abs() + torch.finfo(F16).tiny
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
    """A weight with std 1/sqrt(k): z stays of order 1, where ELU is not linear."""
    return g.randn(n, k, dtype=F16, std=1.0 / max(k, 1) ** 0.5)


def cases(g: Inputs):
    r = lambda *s, **kw: g.randn(*s, dtype=F16, **kw)  # noqa: E731
    yield Case("32x64-to-48", r(32, 64), _weight(g, 48, 64), r(48))
    yield Case("odd-37x53-to-29-alpha2", r(37, 53), _weight(g, 29, 53), r(29), alpha=2.0)
    yield Case("multi-tile-130x96-to-140", r(130, 96), _weight(g, 140, 96), r(140), alpha=0.5)
    yield Case("inplace-flag", r(40, 80), _weight(g, 24, 80), r(24), alpha=1.5, inplace=True)
    yield Case("no-bias", r(33, 70), _weight(g, 20, 70))
    yield Case("deep-K-4096", r(32, 4096), _weight(g, 48, 4096), r(48), alpha=0.75)
    yield Case("batched-3d", r(3, 17, 64), _weight(g, 36, 64), r(36), alpha=1.25)
    yield Case("negative-alpha", r(20, 40), _weight(g, 30, 40), r(30), alpha=-0.5)
    yield Case("single-row", r(1, 256), _weight(g, 64, 256), r(64))
    yield Case("1d-input", r(48), _weight(g, 25, 48), r(25), alpha=3.0)
    # Layouts.
    yield Case("transposed-weight", r(30, 50), g.transposed(_weight(g, 41, 50)), r(41))
    yield Case("strided-input", g.strided(r(26, 72)), _weight(g, 33, 72), g.strided(r(33)), alpha=2.0)
    yield Case("permuted-3d-input", r(18, 4, 32).permute(1, 0, 2), _weight(g, 21, 32), r(21))
    # Empty sizes.
    yield Case("empty-K", r(5, 0), r(7, 0), r(7), alpha=2.0)
    yield Case("empty-rows", r(0, 16), _weight(g, 9, 16), r(9))


# "inplace" concerns the intermediate only: it is a core keyword, not an in-place case.
TIERS = {"inplace-flag": "core"}


def perf_cases(g: Inputs):
    r = lambda *s: g.randn(*s, dtype=F16)  # noqa: E731
    w = lambda n, k: g.randn(n, k, dtype=F16, std=1.0 / k ** 0.5)  # noqa: E731
    yield Case("1024x16384-to-256", r(1024, 16384), w(256, 16384), r(256))
    yield Case("4096x4096-to-4096", r(4096, 4096), w(4096, 4096), r(4096))
    yield Case("8x1024x4096-to-11008-alpha", r(8, 1024, 4096), w(11008, 4096), r(11008), alpha=0.5)
    yield Case("8192x8192-to-8192", r(8192, 8192), w(8192, 8192), r(8192))
