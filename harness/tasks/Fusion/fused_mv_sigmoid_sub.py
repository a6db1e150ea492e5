"""sigmoid(input @ vec) - alpha * other for a float32 matrix and vector, other broadcast, optionally into out=."""

import torch

from harness.checks import bind_arguments, check_bounded, product_bound, unit_roundoff
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "fused_mv_sigmoid_sub"
SIGNATURE = "fused_mv_sigmoid_sub(input, vec, other, alpha=1, *, out=None)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["alpha", "out"]
DIFFICULTY = 2
DESCRIPTION = """
Matrix-vector product, sigmoid and subtraction in one: y = sigmoid(input @ vec) - alpha * other,
like torch.sub(torch.sigmoid(torch.mv(input, vec)), other, alpha=alpha). `input` is a float32 (n, m)
matrix and `vec` a float32 (m,) vector; sigmoid(z) = 1 / (1 + exp(-z)) elementwise on the (n,)
product. `other` is either a Python number or a float32 tensor broadcastable with (n,) under
PyTorch's broadcasting rules (a 0-d scalar, a (1,) or (n,) vector, or a tensor with more leading
dimensions such as (k, n) or (k, 1), in which case the result takes the broadcast shape, e.g.
(k, n)). `alpha` is a Python number (int or float, default 1). The product may be large in
magnitude: sigmoid must saturate to 0 or 1 without overflow or NaN. If `out` is None, return a new
float32 tensor of the broadcast shape; otherwise `out` is a float32 tensor of that shape (possibly a
non-contiguous view): write the result into it and return `out` itself. Any input may be
non-contiguous; n or m may be 0 (with m = 0 the product is 0 and sigmoid gives 0.5). The inputs must
not be modified. Accumulate the product in float32.
"""

F32 = torch.float32
U32 = unit_roundoff(F32)


def reference(input, vec, other, alpha=1, *, out=None):
    y = torch.sub(torch.sigmoid(torch.mv(input, vec)), other, alpha=alpha)
    if out is not None:
        out.copy_(y)
        return out
    return y


# -- checking ----------------------------------------------------------------------------------------
# The product is judged through harness/checks.py's product bound for float32 accumulation,
# dz = 8 * sqrt(m) * u32 * (|A| @ |v|) + u32 * |z|; sigmoid's slope s (1 - s) <= 1/4 carries it to
# the output (taken at |z| - dz, the steepest point of the interval). Then sigmoid's float32
# evaluation (4 * u32 * s) and the subtraction: 2 * u32 * (|s| + |alpha * other|) for rounding
# alpha * other and the difference. A missing alpha, other not broadcast, A^T v in place of A v or an
# ignored out= are off by far more.
CHECK_NOTE = (
    "Compared with the float64 value: each element allowed sigmoid'(|z| - dz) * dz + 4*u32*s + "
    "2*u32*(s + |alpha*other|) + the smallest float32 normal, dz = 8*sqrt(m)*u32*(|A|@|v|) + u32*|z| "
    "(harness/checks.py product_bound)."
)


def check(case, output, expected):
    args = bind_arguments(reference, case)
    a, v, other, alpha = args["input"], args["vec"], args["other"], args["alpha"]
    z = a.double() @ v.double()
    dz = product_bound(a.double(), v.double(), out_dtype=F32, exact=z)
    s = torch.sigmoid(z)
    steep = torch.sigmoid((z.abs() - dz).clamp(min=0.0))
    slope = steep * (1 - steep)
    o = other.double() if isinstance(other, torch.Tensor) else torch.tensor(float(other), dtype=torch.float64)
    scaled = alpha * o.to(z.device)
    y = s - scaled
    bound = slope * dz + 4 * U32 * s + 2 * U32 * (s + scaled.abs()) + torch.finfo(F32).tiny
    return check_bounded(output, y, bound.expand(y.shape), dtype=F32)


def cost(case: Case, output) -> Cost:
    args = bind_arguments(reference, case)
    a, v, other = args["input"], args["vec"], args["other"]
    n, m = a.shape
    # the product's multiply-adds, then ~4 per output (exp, add, divide, subtract) and the scaled
    # subtraction; every input read once, the result written once
    moved = numel_bytes(a) + numel_bytes(v) + numel_bytes(output)
    if isinstance(other, torch.Tensor):
        moved += numel_bytes(other)
    return Cost(flops=2.0 * n * m + 6.0 * output.numel(), bytes=float(moved))


def cases(g: Inputs):
    r = g.randn
    s = lambda n, m: g.randn(n, m, std=1.0 / max(m, 1) ** 0.5)  # noqa: E731 - products of order 1
    yield Case("square-64", s(64, 64), r(64), r(64), alpha=0.5)
    yield Case("odd-37x53", s(37, 53), r(53), r(37))
    yield Case("number-other", s(50, 70), r(70), 0.25, alpha=2)
    yield Case("broadcast-1", s(40, 33), r(33), r(1), alpha=-1.5)
    yield Case("broadcast-rows-3xn", s(29, 48), r(48), r(3, 29), alpha=0.75)
    yield Case("broadcast-column-4x1", s(20, 24), r(24), r(4, 1))
    yield Case("deep-m-4096", s(24, 4096), r(4096), r(24), alpha=1.0)
    yield Case("single-row", s(1, 300), r(300), r(1))
    yield Case("int-alpha", s(33, 17), r(17), r(33), alpha=3)
    yield Case("out", s(45, 60), r(60), r(45), alpha=0.5, out=r(45))
    # Large products: sigmoid saturates (exp(-z) overflows for z < -88 in a naive form).
    yield Case("saturating", r(40, 64, std=20.0), r(64), r(40))
    # Layouts, 0-d other, out= views, empty sizes.
    yield Case("transposed-input", g.transposed(s(30, 50)), r(50), r(30), alpha=2.0)
    yield Case("strided", g.strided(s(26, 41)), g.strided(r(41)), g.strided(r(26)), alpha=0.5)
    yield Case("scalar-other-0d", s(20, 30), r(30), g.tensor(0.75), alpha=1.5)
    yield Case("out-strided", s(31, 27), r(27), r(31), out=g.strided(r(31)))
    yield Case("out-broadcast-3d", s(12, 20), r(20), r(2, 3, 1), alpha=0.5, out=r(2, 3, 12))
    yield Case("empty-m", r(5, 0), r(0), r(5), alpha=2.0)
    yield Case("empty-n", r(0, 8), r(8), r(0))


def perf_cases(g: Inputs):
    r = g.randn
    s = lambda n, m: g.randn(n, m, std=1.0 / m ** 0.5)  # noqa: E731
    yield Case("4096^2", s(4096, 4096), r(4096), r(4096), alpha=0.5)
    yield Case("16384^2", s(16384, 16384), r(16384), r(16384), alpha=0.5)
    yield Case("32768x16384-out", s(32768, 16384), r(16384), r(32768), alpha=0.5, out=r(32768))
    yield Case("8192x65536-number", s(8192, 65536), r(65536), 0.5)
