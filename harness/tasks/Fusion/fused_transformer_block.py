"""layer_norm(softmax(input @ weight1) @ weight2 + residual) in float32 (dropout in evaluation mode)."""

import math

import torch
import torch.nn.functional as F

from harness.checks import bind_arguments, check_bounded, product_bound, unit_roundoff
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "fused_transformer_block"
SIGNATURE = "fused_transformer_block(input, weight1, weight2, residual, dropout_p=0.1, eps=1e-05, *, out=None)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["dropout_p", "eps"]
DIFFICULTY = 3
DESCRIPTION = """
A feed-forward block of a transformer, in full float32 precision:
Z1 = input @ weight1, Z2 = softmax(Z1) over the last dimension, Z3 = dropout(Z2, dropout_p) in
evaluation mode (the identity: no element is dropped or rescaled, whatever dropout_p is),
Z4 = Z3 @ weight2, and the result Y = layer_norm(Z4 + residual) over the last dimension without
affine parameters: (h - mean) / sqrt(var + eps) per row, with the biased variance. `input` is a
float32 tensor of shape (*, N, D_in) (any number of leading dimensions, possibly empty), `weight1`
a float32 (D_in, D_k) matrix and `weight2` a float32 (D_k, D_out) matrix (used as they are, not
transposed); `residual` is a float32 tensor broadcastable to (*, N, D_out) (full shape, (D_out,),
(N, D_out), (*, 1, D_out), ...). `dropout_p` (default 0.1) is a Python float in [0, 1] (a value
outside raises ValueError); `eps` (default 1e-5) a Python float. If `out` is None return a new
float32 tensor of shape (*, N, D_out); otherwise `out` is a float32 tensor of that shape (possibly a
non-contiguous view): write the result into it and return `out` itself. Any tensor may be
non-contiguous. The softmax must subtract the row maximum (the cases include large logits), and the
variance must be computed stably (two passes or Welford/Chan). Accumulate both products in float32
and do not round the float32 inputs to TF32 (with tl.dot use input_precision="ieee" or "tf32x3";
the default "tf32" fails the check, because the cases include small D_in and D_k). The inputs must
not be modified.
"""

F32 = torch.float32
U32 = unit_roundoff(F32)


def reference(input, weight1, weight2, residual, dropout_p=0.1, eps=1e-05, *, out=None):
    z2 = F.softmax(input @ weight1, dim=-1)
    z3 = F.dropout(z2, p=dropout_p, training=False)
    z4 = z3 @ weight2
    y = F.layer_norm(z4 + residual, normalized_shape=(z4.shape[-1],), eps=eps)
    if out is not None:
        out.copy_(y)
        return out
    return y


# -- checking ----------------------------------------------------------------------------------------
# Compared with the block evaluated in float64 from the same inputs, every float32 step's rounding
# propagated to first order:
# - Z1: harness/checks.py's product bound for float32 accumulation, dz1 = 8 * sqrt(D_in) * u32 *
#   (|X| @ |W1|) + u32 * |Z1|;
# - softmax: p_j moves by a relative dz1_j + sum_k p_k dz1_k, plus (8 * sqrt(D_k) + 8) * u32 for
#   the exponentials and the row sum;
# - Z4 = P @ W2: (p * rel_p) @ |W2| + 8 * sqrt(D_k) * u32 * (P @ |W2|) + u32 * |Z4|, and the residual
#   addition u32 * (|Z4| + |R|);
# - layer norm over n = D_out: (dh_i + mean(dh)) / s + |y_i| * mean(|y| dh) / s (s = sqrt(var + eps)),
#   doubled for a margin, plus u32 * (8 * sqrt(n) + 16) * (|y| + mean(|h|) / s) for its own float32
#   evaluation.
# TF32 products (2^-11 relative, far beyond on the small-D cases), training-mode scaling by
# 1 / (1 - p), a wrong eps, an unbiased variance, a residual added after the normalization or not
# broadcast, and block statistics combined without rescaling are off by far more.
CHECK_NOTE = (
    "Compared with the float64 block: product bounds of harness/checks.py for both products "
    "(8*sqrt(K)*u32*(|A|@|B|) + u32*|exact|), propagated through the softmax, the residual addition "
    "and the layer norm to first order (doubled), plus the float32 evaluation of the softmax and the "
    "layer norm."
)


def check(case, output, expected):
    args = bind_arguments(reference, case)
    x, w1, w2, res, eps = args["input"], args["weight1"], args["weight2"], args["residual"], float(args["eps"])
    shape = tuple(x.shape[:-1]) + (w2.shape[1],)
    if math.prod(shape) == 0:
        zeros = torch.zeros(shape, dtype=torch.float64)
        return check_bounded(output, zeros, zeros, dtype=F32)
    xd, w1d, w2d = x.double(), w1.double(), w2.double()
    dk, n = w1.shape[1], w2.shape[1]
    z1 = xd @ w1d
    dz1 = product_bound(xd, w1d, out_dtype=F32, exact=z1)
    p = torch.softmax(z1, dim=-1)
    rel_p = dz1 + (p * dz1).sum(dim=-1, keepdim=True) + (8 * math.sqrt(dk) + 8) * U32
    z4 = p @ w2d
    r = res.double().expand(shape)
    h = z4 + r
    dh = ((p * rel_p) @ w2d.abs() + 8 * math.sqrt(dk) * U32 * (p @ w2d.abs()) + 2 * U32 * z4.abs()
          + U32 * r.abs())
    mean = h.mean(dim=-1, keepdim=True)
    s = torch.sqrt(((h - mean) ** 2).mean(dim=-1, keepdim=True) + eps)
    y = (h - mean) / s
    propagated = (dh + dh.mean(dim=-1, keepdim=True) + y.abs() * (y.abs() * dh).mean(dim=-1, keepdim=True)) / s
    evaluation = U32 * (8 * math.sqrt(n) + 16) * (y.abs() + h.abs().mean(dim=-1, keepdim=True) / s)
    bound = 2 * propagated + evaluation + torch.finfo(F32).tiny
    return check_bounded(output, y, bound, dtype=F32)


def cost(case: Case, output) -> Cost:
    args = bind_arguments(reference, case)
    x, w1, w2, res = args["input"], args["weight1"], args["weight2"], args["residual"]
    m = math.prod(x.shape[:-1])
    d_in, dk, d_out = x.shape[-1], w1.shape[1], w2.shape[1]
    # both products' multiply-adds, ~4 per softmax element (max, exp, sum, scale) and ~8 per output
    # (residual add, mean, deviation, square-sum, normalization); every input read once, the result
    # written once (Z1..Z4 never need to leave the chip in a fully fused kernel)
    flops = 2.0 * m * dk * (d_in + d_out) + 4.0 * m * dk + 8.0 * m * d_out
    moved = numel_bytes(x) + numel_bytes(w1) + numel_bytes(w2) + numel_bytes(res) + numel_bytes(output)
    return Cost(flops=flops, bytes=float(moved))


def _w(g: Inputs, rows: int, cols: int, gain: float = 1.0):
    """A weight with std gain/sqrt(rows): products of order gain."""
    return g.randn(rows, cols, std=gain / max(rows, 1) ** 0.5)


def cases(g: Inputs):
    r = g.randn
    yield Case("2x16x32-dk64-out32", r(2, 16, 32), _w(g, 32, 64, 2.0), _w(g, 64, 32, 8.0), r(2, 16, 32))
    yield Case("odd-5x37x29-dk53-out41", r(5, 37, 29), _w(g, 29, 53, 3.0), _w(g, 53, 41, 8.0), r(5, 37, 41),
               dropout_p=0.2, eps=1e-3)
    yield Case("dropout-0.5-eps-0.1", r(3, 20, 40), _w(g, 40, 48, 2.0), _w(g, 48, 36, 4.0), r(3, 20, 36),
               dropout_p=0.5, eps=0.1)
    yield Case("dropout-0", r(2, 24, 32), _w(g, 32, 40, 2.0), _w(g, 40, 24, 8.0), r(2, 24, 24), dropout_p=0.0)
    yield Case("wide-dk-300", r(1, 20, 24), _w(g, 24, 300, 4.0), _w(g, 300, 40, 16.0), r(1, 20, 40))
    yield Case("wide-out-200", r(1, 12, 32), _w(g, 32, 48, 2.0), _w(g, 48, 200, 8.0), r(1, 12, 200))
    # Small D_in and D_k: TF32 rounding of the inputs would dominate the error.
    yield Case("small-dims-16", r(4, 16, 16), r(16, 16), _w(g, 16, 32, 8.0), r(4, 16, 32), eps=1e-6)
    yield Case("deep-din-1024", r(1, 16, 1024), _w(g, 1024, 64, 3.0), _w(g, 64, 32, 8.0), r(1, 16, 32))
    yield Case("2d-input", r(30, 24), _w(g, 24, 36, 2.0), _w(g, 36, 20, 8.0), r(30, 20))
    # Large logits (up to a few hundred): the softmax overflows without the row maximum.
    yield Case("large-logits", r(2, 10, 32), _w(g, 32, 40, 150.0), _w(g, 40, 24, 8.0), r(2, 10, 24))
    # Broadcast residuals, layouts, out=, empty.
    # a residual stream far from zero: the layer norm's variance from per-tile sums of h and h^2 cancels
    yield Case("residual-offset-1000", r(2, 16, 32), _w(g, 32, 64, 2.0), _w(g, 64, 32, 8.0), r(2, 16, 32, mean=1000.0),
               dropout_p=0.0)
    yield Case("residual-row", r(2, 12, 32), _w(g, 32, 40, 2.0), _w(g, 40, 28, 8.0), r(28))
    yield Case("residual-per-batch", r(3, 10, 24), _w(g, 24, 32, 2.0), _w(g, 32, 20, 8.0), r(3, 1, 20), eps=1e-4)
    yield Case("transposed-weights", r(2, 14, 30), g.transposed(_w(g, 30, 34, 2.0)),
               g.transposed(_w(g, 34, 26, 8.0)), r(2, 14, 26))
    yield Case("strided-input", g.strided(r(2, 13, 40)), _w(g, 40, 32, 2.0), _w(g, 32, 24, 8.0),
               g.strided(r(2, 13, 24)), dropout_p=0.3)
    yield Case("out", r(2, 16, 24), _w(g, 24, 32, 2.0), _w(g, 32, 20, 8.0), r(2, 16, 20), out=r(2, 16, 20))
    yield Case("out-transposed-view", r(12, 24), _w(g, 24, 32, 2.0), _w(g, 32, 20, 8.0), r(12, 20),
               out=g.transposed(r(12, 20)))
    yield Case("empty-rows", r(2, 0, 16), _w(g, 16, 24), _w(g, 24, 16), r(2, 0, 16))


# The softmax saturates at these logits (values the tier rule cannot see).
TIERS = {"large-logits": "edge"}


def perf_cases(g: Inputs):
    r = g.randn
    w = lambda rows, cols, gain=1.0: g.randn(rows, cols, std=gain / rows ** 0.5)  # noqa: E731
    yield Case("8x128x256-dk1024", r(8, 128, 256), w(256, 1024, 4.0), w(1024, 256, 32.0), r(8, 128, 256))
    yield Case("8x128x1024-dk4096", r(8, 128, 1024), w(1024, 4096, 4.0), w(4096, 1024, 64.0), r(8, 128, 1024))
    yield Case("8x512x1024-dk4096", r(8, 512, 1024), w(1024, 4096, 4.0), w(4096, 1024, 64.0), r(8, 512, 1024),
               dropout_p=0.1, eps=1e-6)
    yield Case("4x256x2048-dk8192", r(4, 256, 2048), w(2048, 8192, 4.0), w(8192, 2048, 90.0), r(2048))
