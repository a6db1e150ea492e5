"""Log-softmax of a linear layer, log_softmax(input @ weight^T + bias, dim, dtype), float16 or float64."""

import math

import torch
import torch.nn.functional as F

from harness.checks import bind_arguments, check_bounded, product_bound, unit_roundoff
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "fused_log_softmax_linear"
SIGNATURE = "fused_log_softmax_linear(input, weight, bias=None, dim=-1, dtype=None)"
DTYPES = ["float16", "float64"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float16", "float64"]
CORE_KWARGS = ["dim", "dtype"]
DIFFICULTY = 3
DESCRIPTION = """
A linear layer followed by log-softmax, like torch.nn.functional.log_softmax(
torch.nn.functional.linear(input, weight, bias), dim=dim, dtype=dtype). `input` is a float16 or
float64 tensor of shape (*, in_features) (any number of leading dimensions, possibly none of them
and possibly empty), `weight` an (out_features, in_features) matrix and `bias` an optional
(out_features,) vector (None: no bias), both of the input's dtype. With z = input @ weight^T + bias
(shape (*, out_features)), return z - log(sum over `dim` of exp(z)), computed along dimension `dim`
of z (default -1, the out_features dimension; any dimension of z, negative values counting from the
end; a leading dimension means that the normalization runs across rows of the batch). `dtype`
(default None) is the dtype of the result: None keeps the input's dtype; torch.float32 or
torch.float64 computes the log-softmax of z in that precision and returns it in that dtype. The
logits may be large (hundreds): subtract the maximum before exponentiating so nothing overflows.
Any tensor may be non-contiguous (a transposed weight, a strided input). in_features may be 0 (then
z = bias, or 0 without bias). Float16 inputs: accumulate the product in float32 (rounding z to
float16 before the log-softmax, as PyTorch does, is tolerated); float64 inputs: compute in float64
throughout. Return a new tensor of shape (*, out_features); the inputs must not be modified.
"""

F16 = torch.float16
F32 = torch.float32
F64 = torch.float64


def reference(input, weight, bias=None, dim=-1, dtype=None):
    return F.log_softmax(F.linear(input, weight, bias), dim=dim, dtype=dtype)


# -- checking ----------------------------------------------------------------------------------------
# z is judged through harness/checks.py's product bound with the accumulator of the input's dtype
# (float32 for float16 inputs, float64 for float64), 8 * sqrt(K) * u_acc * (|x| @ |w|^T) +
# u_in * |z|, where the u_in * |z| term covers rounding z to the input's dtype (as PyTorch does
# before the log-softmax), plus u_in * |x @ w^T| + 4 * u_acc * |bias| for the bias addition. An
# error dz in the logits moves y_i = z_i - lse by at most dz_i + sum_j p_j dz_j (p the softmax).
# The log-sum-exp itself, computed in the result's precision u_c (float32 for a float16 result, else
# the result's), errs by at most u_c * (8 * sqrt(R) + 8) (a sum of R positive terms in any order,
# exp's few ulps) and the subtraction by 4 * u_c * (|z| + |lse|); the result is rounded once
# (u_out * |y|). Exponentiating without subtracting the maximum overflows on the large-logit cases,
# normalizing along the wrong dimension, ignoring `dtype` or combining blocks without rescaling
# their sums is off by far more.
CHECK_NOTE = (
    "Compared with the float64 log-softmax of the float64 logits: each element allowed dz_i + "
    "sum_j p_j dz_j, dz = 8*sqrt(K)*u_acc*(|x|@|w|^T) + u_in*(|z| + |x@w^T|) + 4*u_acc*|b| "
    "(harness/checks.py product_bound), plus u_c*(8*sqrt(R) + 8) + 4*u_c*(|z| + |lse|) for the "
    "log-sum-exp and u_out*|y| for the final rounding."
)


def _unit(dtype):
    return unit_roundoff(dtype)


def check(case, output, expected):
    args = bind_arguments(reference, case)
    x, w, b, dim, dtype = args["input"], args["weight"], args["bias"], args["dim"], args["dtype"]
    out_dtype = dtype if dtype is not None else x.dtype
    acc = F64 if x.dtype == F64 else F32
    u_in, u_acc = _unit(x.dtype), _unit(acc)
    u_c = _unit(F64 if (x.dtype == F64 or out_dtype == F64) else F32)
    u_out = _unit(out_dtype)
    shape = tuple(x.shape[:-1]) + (w.shape[0],)
    if math.prod(shape) == 0:
        return check_bounded(output, torch.zeros(shape, dtype=F64), torch.zeros(shape, dtype=F64), dtype=out_dtype)
    x2 = x.reshape(math.prod(x.shape[:-1]), x.shape[-1]).double()
    prod = x2 @ w.double().T
    z = prod + b.double() if b is not None else prod
    dz = product_bound(x2, w.double().T, out_dtype=x.dtype, accumulate=acc, exact=z)
    if b is not None:
        dz = dz + u_in * prod.abs() + 4 * u_acc * b.double().abs()
    z, dz = z.reshape(shape), dz.reshape(shape)
    y = torch.log_softmax(z, dim=dim)
    p = torch.exp(y)
    lse = z - y
    r = shape[dim]
    bound = (dz + (p * dz).sum(dim=dim, keepdim=True) + u_c * (8 * math.sqrt(r) + 8)
             + 4 * u_c * (z.abs() + lse.abs()) + u_out * y.abs() + torch.finfo(out_dtype).tiny)
    return check_bounded(output, y, bound, dtype=out_dtype)


def cost(case: Case, output) -> Cost:
    args = bind_arguments(reference, case)
    x, w, b = args["input"], args["weight"], args["bias"]
    m, k, n = math.prod(x.shape[:-1]), x.shape[-1], w.shape[0]
    # the product's multiply-adds, the bias add and ~4 per output for the log-softmax (max, exp,
    # sum, subtract); every input read once, the result written once
    moved = numel_bytes(x) + numel_bytes(w) + numel_bytes(output) + (numel_bytes(b) if b is not None else 0)
    return Cost(flops=2.0 * m * n * k + 5.0 * output.numel(), bytes=float(moved))


def _weight(g: Inputs, n: int, k: int, dtype, gain: float = 1.0):
    """A weight with std gain/sqrt(k): logits of order gain."""
    return g.randn(n, k, dtype=dtype, std=gain / max(k, 1) ** 0.5)


def cases(g: Inputs):
    h = lambda *s, **kw: g.randn(*s, dtype=F16, **kw)  # noqa: E731
    d = lambda *s, **kw: g.randn(*s, dtype=F64, **kw)  # noqa: E731
    yield Case("fp16-32x64-to-48", h(32, 64), _weight(g, 48, 64, F16, 2.0), h(48))
    yield Case("fp16-odd-37x53-to-29-dim1", h(37, 53), _weight(g, 29, 53, F16, 3.0), h(29), dim=1)
    yield Case("fp16-dim0", h(20, 40), _weight(g, 30, 40, F16, 2.0), h(30), dim=0)
    yield Case("fp16-to-float32", h(24, 80), _weight(g, 36, 80, F16, 2.0), h(36), dtype=F32)
    yield Case("fp16-wide-N-700", h(8, 64), _weight(g, 700, 64, F16, 4.0), h(700))
    yield Case("fp16-deep-K-2048", h(16, 2048), _weight(g, 40, 2048, F16), h(40))
    yield Case("fp16-3d-dim1", h(3, 17, 64), _weight(g, 36, 64, F16, 2.0), h(36), dim=1)
    yield Case("fp16-3d-dim2", h(3, 17, 64), _weight(g, 36, 64, F16, 2.0), h(36), dim=2)
    yield Case("fp16-no-bias", h(33, 70), _weight(g, 20, 70, F16, 2.0))
    yield Case("fp64-16x32-to-24", d(16, 32), _weight(g, 24, 32, F64, 2.0), d(24))
    yield Case("fp64-dim0-no-bias", d(21, 24), _weight(g, 19, 24, F64, 3.0), dim=0)
    yield Case("fp64-wide-N-300", d(5, 40), _weight(g, 300, 40, F64, 4.0), d(300), dim=1)
    yield Case("fp64-3d-dim0", d(4, 6, 16), _weight(g, 20, 16, F64, 2.0), d(20), dim=0)
    yield Case("1d-input-dim0", h(48), _weight(g, 25, 48, F16, 2.0), h(25), dim=0)
    # Large logits (|z| up to a few hundred): exp without the maximum subtracted overflows.
    yield Case("fp16-large-logits", h(16, 32), _weight(g, 40, 32, F16, 60.0), h(40))
    yield Case("fp64-large-logits-dim0", d(16, 32), _weight(g, 24, 32, F64, 400.0), d(24), dim=0)
    # dtype=float64 on float16 inputs.
    yield Case("fp16-to-float64", h(12, 48), _weight(g, 28, 48, F16, 2.0), h(28), dtype=F64)
    # Negative dims, layouts, empty sizes.
    yield Case("fp16-3d-dim-minus2", h(5, 9, 32), _weight(g, 24, 32, F16, 2.0), h(24), dim=-2)
    yield Case("fp16-transposed-weight", h(30, 50), g.transposed(_weight(g, 41, 50, F16, 2.0)), h(41))
    yield Case("fp64-strided-input", g.strided(d(26, 72)), _weight(g, 33, 72, F64, 2.0), g.strided(d(33)), dim=1)
    yield Case("fp16-empty-K", h(5, 0), h(7, 0), h(7))
    yield Case("fp16-empty-rows", h(0, 16), _weight(g, 9, 16, F16), h(9))


def perf_cases(g: Inputs):
    h = lambda *s: g.randn(*s, dtype=F16)  # noqa: E731
    w = lambda n, k, dt=F16: g.randn(n, k, dtype=dt, std=2.0 / k ** 0.5)  # noqa: E731
    yield Case("fp16-32x16384-to-16384", h(32, 16384), w(16384, 16384), h(16384))
    yield Case("fp16-4096x4096-to-32000", h(4096, 4096), w(32000, 4096), h(32000))
    yield Case("fp16-8x512x2048-to-8192-fp32", h(8, 512, 2048), w(8192, 2048), h(8192), dtype=F32)
    yield Case("fp64-32x4096-to-4096", g.randn(32, 4096, dtype=F64), w(4096, 4096, F64), g.randn(4096, dtype=F64))
