"""Layer norm of the ReLU of a linear layer, layer_norm(relu(input @ weight^T + bias)), in float32."""

import math

import torch
import torch.nn.functional as F

from harness.checks import bind_arguments, check_bounded, product_bound, unit_roundoff
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "fused_layer_norm_relu_linear"
SIGNATURE = ("fused_layer_norm_relu_linear(input, weight, bias=None, normalized_shape=None, eps=1e-05, "
             "elementwise_affine=True)")
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["eps", "normalized_shape"]
DIFFICULTY = 4
DESCRIPTION = """
A linear layer, then ReLU, then layer normalization without affine parameters, in full float32
precision: with z = input @ weight^T + bias and h = max(z, 0), return
torch.nn.functional.layer_norm(h, normalized_shape, eps=eps), i.e. (h - mean) / sqrt(var + eps)
where mean and the biased variance var are taken over the trailing `normalized_shape` dimensions of
h (separately for every index of the other dimensions). `input` is a float32 tensor of shape
(*, in_features) (any number of leading dimensions, possibly none of them and possibly empty),
`weight` a float32 (out_features, in_features) matrix and `bias` an optional float32 (out_features,)
vector (None: no bias). `normalized_shape` is an int, a list/tuple or a torch.Size naming trailing
dimensions of h (it always ends with out_features, e.g. (out_features,) or (seq, out_features) for a
3-D input); None means (out_features,). `eps` (default 1e-5) is a Python float. `elementwise_affine`
(default True) is accepted for compatibility: the affine parameters of a freshly made layer norm are
ones and zeros, so it does not change the result. A group whose h is all zero gives zeros. Return a
new float32 tensor of shape (*, out_features). Any tensor may be non-contiguous (a transposed weight,
a strided input). in_features may be 0. The inputs must not be modified. Float32 accuracy is
required: accumulate the product in float32 and do not round the float32 inputs to TF32 (with
tl.dot use input_precision="ieee" or "tf32x3"; the default "tf32" fails the check, because the cases
include small in_features, where its 10-bit-mantissa rounding dominates). Compute the variance in a
numerically stable way (two passes or Welford/Chan), not as E[h^2] - E[h]^2 in float32.
"""

F32 = torch.float32
U32 = unit_roundoff(F32)


def _normalized(normalized_shape, n):
    if normalized_shape is None:
        return (n,)
    if isinstance(normalized_shape, int):
        return (normalized_shape,)
    return tuple(int(s) for s in normalized_shape)


def reference(input, weight, bias=None, normalized_shape=None, eps=1e-05, elementwise_affine=True):
    h = F.relu(F.linear(input, weight, bias))
    # elementwise_affine=True would multiply by a fresh weight of ones and add a fresh bias of
    # zeros: the same values as no affine parameters
    return F.layer_norm(h, _normalized(normalized_shape, weight.shape[0]), eps=eps)


# -- checking ----------------------------------------------------------------------------------------
# z is judged through harness/checks.py's product bound for float32 accumulation,
# dz = 8 * sqrt(K) * u32 * (|x| @ |w|^T) + u32 * |z| + 4 * u32 * |bias|; ReLU does not enlarge it
# (dh <= dz). Layer norm y = (h - mean) / s, s = sqrt(var + eps), moves by at most
# (dh_i + mean(dh)) / s + |y_i| * mean(|y| dh) / s to first order (the mean's and the standard
# deviation's sensitivities), doubled for a margin. Its own float32 evaluation over n elements errs by
# u32 * (8 * sqrt(n) + 16) * (|y| + mean(|h|) / s) (sums in any order, the square root, the
# division). TF32 products (2^-11 relative, over 10x the bound on the small-K cases), an unbiased
# variance (a 1/(2n) relative error), a wrong eps, a wrong normalized shape or ReLU after the
# normalization exceed it by far.
CHECK_NOTE = (
    "Compared with the float64 layer_norm(relu(x @ w^T + b)): each element allowed "
    "2 * ((dh_i + mean(dh)) / s + |y_i| * mean(|y| dh) / s), dh = 8*sqrt(K)*u32*(|x|@|w|^T) + "
    "u32*|z| + 4*u32*|b| (harness/checks.py product_bound), s = sqrt(var + eps), plus "
    "u32*(8*sqrt(n) + 16)*(|y| + mean(|h|)/s) for the normalization's float32 evaluation."
)


def check(case, output, expected):
    args = bind_arguments(reference, case)
    x, w, b, eps = args["input"], args["weight"], args["bias"], float(args["eps"])
    shape = tuple(x.shape[:-1]) + (w.shape[0],)
    norm = _normalized(args["normalized_shape"], w.shape[0])
    if math.prod(shape) == 0:
        return check_bounded(output, torch.zeros(shape, dtype=torch.float64),
                             torch.zeros(shape, dtype=torch.float64), dtype=F32)
    x2 = x.reshape(math.prod(x.shape[:-1]), x.shape[-1]).double()
    z = x2 @ w.double().T
    if b is not None:
        z = z + b.double()
    dh = product_bound(x2, w.double().T, out_dtype=F32, exact=z)
    if b is not None:
        dh = dh + 4 * U32 * b.double().abs()
    h = z.clamp(min=0.0).reshape(shape)
    dh = dh.reshape(shape)
    dims = tuple(range(len(shape) - len(norm), len(shape)))
    n = math.prod(norm)
    mean = h.mean(dim=dims, keepdim=True)
    var = ((h - mean) ** 2).mean(dim=dims, keepdim=True)
    s = torch.sqrt(var + eps)
    y = (h - mean) / s
    propagated = (dh + dh.mean(dim=dims, keepdim=True) + y.abs() * (y.abs() * dh).mean(dim=dims, keepdim=True)) / s
    evaluation = U32 * (8 * math.sqrt(n) + 16) * (y.abs() + h.abs().mean(dim=dims, keepdim=True) / s)
    bound = 2 * propagated + evaluation + torch.finfo(F32).tiny
    return check_bounded(output, y, bound, dtype=F32)


def cost(case: Case, output) -> Cost:
    args = bind_arguments(reference, case)
    x, w, b = args["input"], args["weight"], args["bias"]
    m, k, n = math.prod(x.shape[:-1]), x.shape[-1], w.shape[0]
    # the product's multiply-adds, the bias add, ReLU and ~6 per output for the normalization
    # (mean, deviation, square-sum, subtract, scale); every input read once, the result written once
    moved = numel_bytes(x) + numel_bytes(w) + numel_bytes(output) + (numel_bytes(b) if b is not None else 0)
    return Cost(flops=2.0 * m * n * k + 8.0 * output.numel(), bytes=float(moved))


def _weight(g: Inputs, n: int, k: int):
    return g.randn(n, k, std=1.0 / max(k, 1) ** 0.5)


def _dead_rows(g: Inputs, m: int, k: int, n: int):
    """Rows whose linear outputs are all negative (ReLU zeroes the whole group) next to live ones."""
    x = g.uniform(m, k, low=0.1, high=1.0)
    x[::2] = -x[::2]
    w = g.uniform(n, k, low=0.1, high=1.0)
    return x, w, g.uniform(n, low=-0.5, high=0.5)


def cases(g: Inputs):
    r = g.randn
    yield Case("32x256-to-128", r(32, 256), _weight(g, 128, 256), r(128), normalized_shape=128)
    yield Case("odd-37x53-to-29-default-shape", r(37, 53), _weight(g, 29, 53), r(29))
    yield Case("eps-0.1", r(24, 40), _weight(g, 36, 40), r(36), normalized_shape=[36], eps=0.1)
    yield Case("multi-tile-130x96-to-140", r(130, 96), _weight(g, 140, 96), r(140), normalized_shape=(140,))
    yield Case("wide-N-700", r(8, 64), _weight(g, 700, 64), r(700), normalized_shape=700, eps=1e-3)
    yield Case("no-bias", r(33, 70), _weight(g, 20, 70), normalized_shape=20)
    # Small K: TF32 rounding of the inputs would dominate the error.
    yield Case("K16", r(96, 16), r(40, 16), r(40), normalized_shape=40)
    yield Case("deep-K-1500", r(20, 1500), _weight(g, 36, 1500), r(36))
    yield Case("3d-last-dim", r(3, 17, 64), _weight(g, 36, 64), r(36), normalized_shape=36)
    yield Case("3d-two-dims", r(4, 6, 32), _weight(g, 24, 32), r(24), normalized_shape=(6, 24))
    yield Case("torch-size-shape", r(2, 5, 40), _weight(g, 30, 40), r(30), normalized_shape=torch.Size([5, 30]))
    yield Case("elementwise-affine-false", r(20, 48), _weight(g, 26, 48), r(26), normalized_shape=26,
               elementwise_affine=False)
    # A constant offset on every output: its mean is large next to its spread (E[h^2] - E[h]^2
    # cancels catastrophically in float32).
    yield Case("large-offset", r(16, 32), _weight(g, 40, 32), r(40, std=0.1, mean=3000.0), normalized_shape=40)
    yield Case("dead-rows", *_dead_rows(g, 12, 20, 30), normalized_shape=30)
    yield Case("1d-input", r(48), _weight(g, 25, 48), r(25))
    # Layouts and empty sizes.
    yield Case("transposed-weight", r(30, 50), g.transposed(_weight(g, 41, 50)), r(41), normalized_shape=41)
    yield Case("strided-input", g.strided(r(26, 72)), _weight(g, 33, 72), g.strided(r(33)), eps=1e-2)
    yield Case("empty-K", r(5, 0), r(7, 0), r(7), normalized_shape=7)
    yield Case("empty-rows", r(0, 16), _weight(g, 9, 16), r(9), normalized_shape=9)


# Value ranges the tier rule cannot see: a mean far larger than the spread.
TIERS = {"large-offset": "edge"}


def perf_cases(g: Inputs):
    w = lambda n, k: g.randn(n, k, std=1.0 / k ** 0.5)  # noqa: E731
    r = g.randn
    yield Case("32x8192-to-4096", r(32, 8192), w(4096, 8192), r(4096), normalized_shape=4096)
    yield Case("32x16384-to-8192", r(32, 16384), w(8192, 16384), r(8192), normalized_shape=8192)
    yield Case("1024x2048-to-4096", r(1024, 2048), w(4096, 2048), r(4096), normalized_shape=4096)
    yield Case("2048x4096-to-2048", r(2048, 4096), w(2048, 4096), r(2048), normalized_shape=2048, eps=1e-6)
