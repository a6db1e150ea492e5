"""Softplus of a linear layer, softplus(input @ weight^T + bias, beta, threshold), in float32."""

import math

import torch
import torch.nn.functional as F

from harness.checks import bind_arguments, check_bounded, product_bound, unit_roundoff
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "fused_softplus_linear"
SIGNATURE = "fused_softplus_linear(input, weight, bias=None, beta=1, threshold=20)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["beta", "threshold"]
DIFFICULTY = 3
DESCRIPTION = """
A linear layer followed by Softplus, like torch.nn.functional.softplus(
torch.nn.functional.linear(input, weight, bias), beta=beta, threshold=threshold), in full float32
precision. `input` is a float32 tensor of shape (*, in_features) (any number of leading dimensions,
possibly none of them and possibly empty), `weight` a float32 (out_features, in_features) matrix and
`bias` an optional float32 (out_features,) vector (None: no bias). With z = input @ weight^T + bias,
each output element is z itself where beta * z > threshold, and log(1 + exp(beta * z)) / beta
elsewhere. `beta` (default 1) is a positive Python number and `threshold` (default 20) a Python
number, int or float. The result must not overflow where beta * z is large, and where beta * z is
very negative (below -15) the result is tiny and must be accurate in relative terms there:
log(1 + exp(t)) would round it to 0 (use log1p or an equivalent). Return a new float32 tensor of
shape (*, out_features). Any tensor may be non-contiguous (a transposed weight, a strided input).
in_features may be 0 (then z = bias, or 0 without bias). The inputs must not be modified.
Float32 accuracy is required: accumulate the product in float32 and do not round the float32
inputs to TF32 (with tl.dot use input_precision="ieee" or "tf32x3"; the default "tf32" fails the
check, because the cases include small in_features, where its 10-bit-mantissa rounding dominates).
"""

F32 = torch.float32
U32 = unit_roundoff(F32)
TAIL = -15.0  # below this beta * z, results (< 3.1e-7 / beta) are judged in relative terms only


def reference(input, weight, bias=None, beta=1, threshold=20):
    return F.softplus(F.linear(input, weight, bias), beta=beta, threshold=threshold)


# -- checking ----------------------------------------------------------------------------------------
# z = input @ weight^T + bias is judged through harness/checks.py's product bound for float32
# accumulation, 8 * sqrt(K) * u32 * (|x| @ |w|^T) + u32 * |z|, plus 4 * u32 * |bias| for the bias
# addition. Softplus has slope sigmoid(beta * z) <= 1 (and 1 on the linear branch), so that error
# reaches the output multiplied by at most the slope over the error interval,
# max(sigmoid(beta * (z + dz)), [beta * z near the threshold]); the branch switch itself is continuous
# up to log1p(exp(-threshold)) / beta, below u32 of the value for the thresholds used. Then the
# float32 evaluation of exp and log1p: 8 * u32 * |out|, plus 2 * u32 / beta where beta * z > -15 (the
# absolute error of log(1 + exp(t)) evaluated without log1p, harmless unless the result is tiny).
# Rounding log(1 + exp(t)) to 0 where beta * z < -15 (a relative error of 1), TF32 products (2^-11
# relative per product, over 10x the bound on the small-K cases), a missing bias or a wrong beta /
# threshold exceed the bound by far.
CHECK_NOTE = (
    "Compared with the float64 value of softplus(x @ w^T + b), each element allowed slope * "
    "(8*sqrt(K)*u32*(|x|@|w|^T) + u32*|z| + 4*u32*|b|) + 8*u32*|exact| + 2*u32/beta where beta*z > -15 "
    "+ the smallest float32 normal, "
    "slope = sigmoid(beta*(z+dz)) <= 1 (harness/checks.py product_bound for the linear part)."
)


def _softplus64(z, beta, threshold):
    t = beta * z
    soft = (t.clamp(min=0.0) + torch.log1p(torch.exp(-t.abs()))) / beta
    return torch.where(t > threshold, z, soft)


def check(case, output, expected):
    args = bind_arguments(reference, case)
    x, w, b = args["input"], args["weight"], args["bias"]
    beta, threshold = float(args["beta"]), float(args["threshold"])
    x2 = x.reshape(math.prod(x.shape[:-1]), x.shape[-1]).double()
    z = x2 @ w.double().T
    if b is not None:
        z = z + b.double()
    y = _softplus64(z, beta, threshold)
    bound_z = product_bound(x2, w.double().T, out_dtype=F32, exact=z)
    if b is not None:
        bound_z = bound_z + 4 * U32 * b.double().abs()
    near_linear = beta * (z + bound_z) > threshold
    slope = torch.where(near_linear, torch.ones_like(z), torch.sigmoid(beta * (z + bound_z)))
    naive_log = torch.where(beta * z > TAIL, 2 * U32 / beta, 0.0)
    bound = slope * bound_z + 8 * U32 * y.abs() + naive_log + torch.finfo(F32).tiny
    shape = tuple(x.shape[:-1]) + (w.shape[0],)
    return check_bounded(output, y.reshape(shape), bound.reshape(shape), dtype=F32)


def cost(case: Case, output) -> Cost:
    args = bind_arguments(reference, case)
    x, w, b = args["input"], args["weight"], args["bias"]
    m, k, n = math.prod(x.shape[:-1]), x.shape[-1], w.shape[0]
    # the product's multiply-adds, the bias add and ~6 for the activation per output (scale,
    # compare, exp, log1p, divide); every input read once, the result written once
    moved = numel_bytes(x) + numel_bytes(w) + numel_bytes(output) + (numel_bytes(b) if b is not None else 0)
    return Cost(flops=2.0 * m * n * k + 7.0 * output.numel(), bytes=float(moved))


def _weight(g: Inputs, n: int, k: int, gain: float = 1.0):
    """A weight with std gain/sqrt(k): z stays of order gain."""
    return g.randn(n, k, std=gain / max(k, 1) ** 0.5)


def cases(g: Inputs):
    r = g.randn
    yield Case("1x16-to-16", r(1, 16), _weight(g, 16, 16), r(16))
    yield Case("32x64-to-48", r(32, 64), _weight(g, 48, 64), r(48))
    yield Case("odd-37x53-to-29-beta2", r(37, 53), _weight(g, 29, 53), r(29), beta=2)
    yield Case("beta-threshold", r(40, 80), _weight(g, 24, 80, 2.0), r(24), beta=2.0, threshold=10)
    yield Case("low-threshold", r(30, 32), _weight(g, 20, 32, 3.0), r(20), beta=0.5, threshold=1.5)
    yield Case("multi-tile-130x96-to-140", r(130, 96), _weight(g, 140, 96), r(140), beta=1.5, threshold=15.0)
    yield Case("no-bias", r(33, 70), _weight(g, 20, 70))
    # Small K: TF32 rounding of the inputs would dominate the error.
    yield Case("K16", r(96, 16), r(40, 16), r(40))
    yield Case("deep-K-1500", r(20, 1500), _weight(g, 36, 1500), r(36), beta=3, threshold=30)
    yield Case("batched-3d", r(3, 17, 64), _weight(g, 36, 64), r(36))
    yield Case("1d-input", r(48), _weight(g, 25, 48), r(25))
    # Large |z|: the linear branch, and results that must not overflow below the threshold.
    yield Case("large-z", r(20, 64), _weight(g, 24, 64, 30.0), r(24), threshold=50)
    # Very negative z: tiny results that log(1 + exp(t)) would round to 0.
    yield Case("very-negative-z", r(16, 32), _weight(g, 24, 32, 2.0), r(24, mean=-40.0, std=5.0))
    # Layouts.
    yield Case("transposed-weight", r(30, 50), g.transposed(_weight(g, 41, 50)), r(41), beta=2.0)
    yield Case("strided-input", g.strided(r(26, 72)), _weight(g, 33, 72), g.strided(r(33)))
    yield Case("permuted-3d-input", r(18, 4, 32).permute(1, 0, 2), _weight(g, 21, 32), r(21))
    # Empty sizes.
    yield Case("empty-K", r(5, 0), r(7, 0), r(7), beta=2.0)
    yield Case("empty-rows", r(0, 16), _weight(g, 9, 16), r(9))


# Value ranges the tier rule cannot see: tiny results below log1p's need.
TIERS = {"very-negative-z": "edge"}


def perf_cases(g: Inputs):
    w = lambda n, k: g.randn(n, k, std=1.0 / k ** 0.5)  # noqa: E731
    r = g.randn
    yield Case("gemv-1x16384-to-16384", r(1, 16384), w(16384, 16384), r(16384))
    yield Case("64x8192-to-8192", r(64, 8192), w(8192, 8192), r(8192), beta=2, threshold=10)
    yield Case("2048x2048-to-4096", r(2048, 2048), w(4096, 2048), r(4096))
    yield Case("4096x1024-to-4096", r(4096, 1024), w(4096, 1024), r(4096), beta=0.5)
