"""W8A8 layer norm: float32 input quantized to int8 per normalized row, float8 (e4m3) affine weight, float32 statistics and output."""

import math

import torch
import torch.nn.functional as F

from harness.checks import EPS32, bind_arguments, check_bounded, unit_roundoff
from harness.taskdef import Case, Cost, Inputs, numel_bytes, tolerance_for

ENTRY = "layernorm_w8a8"
SIGNATURE = "layernorm_w8a8(input, normalized_shape, weight=None, bias=None, eps=1e-05)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["eps"]
# Float8 subnormal weights: correct on GPUs, but Triton's CPU interpreter flushes them to zero when
# converting to float8, so this case is not part of the core tier.
TIERS = {"fp8-subnormal-weights": "edge"}
DIFFICULTY = 3
DESCRIPTION = """
W8A8 layer normalization: layer norm of an int8-quantized input with a float8 affine weight,
computed through a fixed pipeline (the result is the pipeline's, not the float layer norm's).
`input` is float32 (*, D1, ..., Dk) and may be non-contiguous; `normalized_shape` is an int or a
tuple/list of ints equal to the last k dimensions of `input`; a "row" is one slice over those last
k dimensions (N = D1 * ... * Dk >= 1 elements). `weight` and `bias` are None or float32 tensors of
shape normalized_shape; `eps` is a positive float. All values are finite and |weight| <= 448.
1. Activation quantization, symmetric, one scale per row: amax = max over the row of |x|;
   s = amax / 127 (a float32 division); xq = clamp(round(x / s), -127, 127) as int8, where the
   quotient is a float32 division and round() rounds half to even (like torch.round: 2.5 -> 2,
   -3.5 -> -4); xq = 0 when s == 0 (an all-zero row).
2. The dequantized row xd = xq * s (float32), normalized exactly like
   torch.nn.functional.layer_norm: mean mu = sum(xd) / N, biased variance var = sum((xd - mu)^2) / N,
   y = (xd - mu) / sqrt(var + eps), eps added to the variance of xd (in input units). Computing the
   statistics from the integers xq (e.g. exact int32 sums) and scaling by s is equivalent.
3. Weight quantization to float8: w8 = weight converted to float8 e4m3fn (torch.float8_e4m3fn:
   4 exponent bits, 3 mantissa bits, max 448), rounding to nearest even, subnormals (multiples of
   2^-9 below 2^-6) included, then used as float32. The bias stays float32 (not quantized).
4. out = y * w8 + bias (float32), the missing parts omitted when weight or bias is None.
The quantizer's divisions (amax / 127, x / s) are IEEE float32 divisions, correctly rounded
as in PyTorch (in Triton use tl.div_rn:
`/` on float32 compiles to an approximate division on NVIDIA GPUs, up to 2 ulps off even where
the quotient is exact, which breaks the exact ties below).
Return a new float32 tensor of the input's shape (rows may be 0); the inputs must not be modified.
The check compares with this pipeline evaluated in float64 and tolerates only what correct
implementations can differ by: a quantized value one step off where its quotient lies within 8
float32 ulps of a rounding tie (exact ties are not excused when s is an exact power of two with
amax == 127 * s), the float32 rounding errors of the statistics, and the default float32
tolerance. A different scheme (per-tensor scales, truncation, [-128, 127] ranges, no input
quantization, unrounded or differently rounded weights, a quantized bias, eps in other units) fails.
"""

F32 = torch.float32
QMAX = 127


def _row_dims(input, normalized_shape):
    k = 1 if isinstance(normalized_shape, int) else len(normalized_shape)
    return tuple(range(input.dim() - k, input.dim()))


def _shape(normalized_shape):
    return (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)


def _quantize(t, dim):
    """Symmetric int8 quantization of float32 ``t`` with one scale per slice along ``dim`` (a tuple
    of dims): (integer-valued float32 q, float32 scale broadcastable to t)."""
    amax = t.abs().amax(dim=dim, keepdim=True)
    scale = amax / QMAX
    q = torch.where(scale > 0, torch.round(t / torch.where(scale > 0, scale, 1.0)), torch.zeros_like(t))
    return q.clamp_(-QMAX, QMAX), scale


def _fp8(weight):
    return weight.to(torch.float8_e4m3fn).to(F32)


def reference(input, normalized_shape, weight=None, bias=None, eps=1e-05):
    xq, s = _quantize(input, _row_dims(input, normalized_shape))
    w8 = _fp8(weight) if weight is not None else None
    return F.layer_norm(xq * s, _shape(normalized_shape), w8, bias, eps)


# -- checking ----------------------------------------------------------------------------------------
# Compared with the pipeline in float64 on the reference's own int8 values and float32 scales, per
# row in units of s: y = (q - mean q) / sigma', sigma' = sqrt(var q + eps / s^2) (exactly the layer
# norm of q * s). Allowed, on top of the default float32 tolerance (atol 1e-5 * RMS, rtol 1e-4):
# 1. Quantized values one step off where x / s lies within TIE_WINDOW * |x / s| of a rounding tie
#    (another correct formula for the scale or the quotient differs by ~4 float32 ulps; 8 leaves a
#    2x margin; exact ties under an exact power-of-two scale are not excused). With F the set of
#    such values in a row (n_f of them, a = n_f / N), rigorous first-order-free bounds: each
#    centred value moves by at most [i in F] + a; the variance by at most
#    dvar = (2/N) sum_F |d_i| + (1/N) sum_i ([i in F] + a)^2 (sum d_i = 0 removes the cross term);
#    sigma' by at most dvar / (sigma' + sigma_min), sigma_min = sqrt(max(var + e' - dvar, e'));
#    so |dy_i| <= ([i in F] + a) / sigma_min + |d_i| * dsigma / (sigma' * sigma_min), times |w8_i|.
# 2. Float32 statistics: the dequantized values are rounded (u * max|q| per value) and a float32
#    mean errs by about sqrt(N) * u * mean|q| in any reasonable summation order, so y errs by at
#    most C_STATS * u32 * (sqrt(N) * mean|q| + max|q|) / sigma' * (1 + |y|), times |w8|; C_STATS = 8
#    as for the other summed results (harness/checks.py). Ill-conditioned rows (a large offset,
#    nearly constant values) get a correspondingly larger but honest allowance; random rows an
#    allowance near 1e-6, while a wrong scheme changes y by the quantization noise, ~1e-2.
# 3. 4 * u32 * (|y * w8| + |bias|) for the affine step's roundings.
TIE_WINDOW = 8 * EPS32
C_STATS = 8.0

CHECK_NOTE = (
    "Compared with the pipeline evaluated in float64 under the default float32 tolerance, plus the effect of "
    "one-step flips of quantized values within 8 float32 ulps of a rounding tie and the float32 rounding "
    "error of the row statistics (growing with sqrt(N) and the row's conditioning): any other quantization "
    "scheme fails."
)


def _may_flip(t, scale, dim):
    """0/1 mask (float64) of the values whose quantized value a correct kernel may place one step
    away from the reference's (see the comment above)."""
    s = scale.double()
    r = (t.double() / torch.where(s > 0, s, 1.0)).abs()
    dist = (r - r.floor() - 0.5).abs()
    amax = t.abs().amax(dim=dim, keepdim=True).double()
    exact_scale = (torch.frexp(scale)[0].abs() == 0.5) & (s * QMAX == amax)
    near = (s > 0) & (dist <= TIE_WINDOW * r) & ~(exact_scale & (dist == 0))
    return near.double()


def check(case, output, expected):
    args = bind_arguments(reference, case)
    x, w, b, eps = args["input"], args["weight"], args["bias"], float(args["eps"])
    shape = _shape(args["normalized_shape"])
    dims = _row_dims(x, args["normalized_shape"])
    n = math.prod(shape)
    if x.numel() == 0:
        return check_bounded(output, expected.double(), torch.zeros_like(expected, dtype=torch.float64), dtype=F32)
    q, s = _quantize(x, dims)
    f = _may_flip(x, s, dims).reshape(-1, n)
    q = q.double().reshape(-1, n)
    s = s.double().reshape(-1, 1)
    w8 = _fp8(w).double().reshape(1, n) if w is not None else torch.ones(1, n, dtype=torch.float64, device=x.device)
    b64 = b.double().reshape(1, n) if b is not None else torch.zeros(1, n, dtype=torch.float64, device=x.device)
    e = torch.where(s > 0, eps / torch.where(s > 0, s, 1.0) ** 2, torch.inf)  # eps in units of s^2
    d = q - q.mean(dim=1, keepdim=True)
    var = d.square().mean(dim=1, keepdim=True)
    sigma = torch.sqrt(var + e)
    y = torch.where(s > 0, d / sigma, 0.0)
    exact = y * w8 + b64
    # 1. flips
    a = f.sum(dim=1, keepdim=True) / n
    dd = f + a
    dvar = 2.0 * (f * d.abs()).mean(dim=1, keepdim=True) + dd.square().mean(dim=1, keepdim=True)
    sigma_min = torch.sqrt(torch.maximum(var + e - dvar, e))
    dsigma = dvar / (sigma + sigma_min)
    flips = torch.where(a > 0, dd / sigma_min + d.abs() * dsigma / (sigma * sigma_min), 0.0)
    # 2. float32 statistics
    qa = q.abs()
    stats = C_STATS * unit_roundoff(F32) * (math.sqrt(n) * qa.mean(dim=1, keepdim=True)
                                            + qa.amax(dim=1, keepdim=True)) / sigma
    stats = torch.where(s > 0, stats * (1.0 + y.abs()), 0.0)
    # 3. affine roundings, and the default float32 tolerance
    tol = tolerance_for(F32)
    finite = exact[torch.isfinite(exact)]
    rms = finite.square().mean().sqrt().item() if finite.numel() else 0.0
    bound = ((flips + stats) * w8.abs() + 4 * unit_roundoff(F32) * ((y * w8).abs() + b64.abs())
             + tol.atol * (rms or 1.0) + tol.rtol * exact.abs())
    return check_bounded(output, exact.reshape(x.shape), bound.reshape(x.shape), dtype=F32)


def cost(case: Case, output) -> Cost:
    args = bind_arguments(reference, case)
    x, w, b = args["input"], args["weight"], args["bias"]
    # per element: |x|, max, divide, round (quantize); dequantize, mean, centre, square, sum
    # (statistics); normalize, affine: ~12 operations. Bytes: each input read once, the output
    # written once.
    moved = numel_bytes(x) + numel_bytes(output)
    moved += (numel_bytes(w) if w is not None else 0) + (numel_bytes(b) if b is not None else 0)
    return Cost(flops=12.0 * x.numel(), bytes=float(moved))


def _ties(g: Inputs, rows: int, cols: int, e: int):
    """Rows whose quotients are exact ties: amax = 127 * 2^e (a power-of-two scale) and the other
    values multiples of 2^(e-1), so x / s = j / 2 for integers j."""
    v = g.randint(-253, 254, rows, cols).to(torch.float64) * 2.0 ** (e - 1)
    v[:, 0] = 127 * 2.0 ** e * torch.where(g.randint(0, 2, rows) == 0, -1.0, 1.0)
    return v[:, g.permutation(cols)].to(F32)


def cases(g: Inputs):
    r = g.randn

    def gamma(*shape):  # weights around 1, where float8 rounding (3 mantissa bits) matters
        return 1.0 + 0.3 * r(*shape)

    yield Case("affine", r(32, 64), 64, gamma(64), r(64))
    yield Case("no-affine-list-shape", r(20, 100), [100])
    yield Case("weight-only-tuple-shape", r(16, 48), (48,), gamma(48), None)
    yield Case("bias-only", r(16, 48), 48, None, r(48))
    yield Case("multi-dim-shape", r(4, 6, 5, 8), (5, 8), gamma(5, 8), r(5, 8))
    yield Case("odd-N-1000", r(8, 1000), 1000, gamma(1000), r(1000))
    yield Case("N1", r(12, 1), 1, gamma(1), r(1))
    yield Case("1d-input", r(300), 300, gamma(300), r(300))
    yield Case("eps-0.5", r(16, 40) * 0.5, 40, gamma(40), r(40), eps=0.5)
    yield Case("eps-1e-2-small-rows", r(16, 40) * 0.05, 40, gamma(40), None, eps=1e-2)
    # One scale per row: magnitudes over 6 decades (small rows are also where eps matters).
    yield Case("row-magnitudes", r(24, 64) * 10.0 ** g.uniform(24, 1, low=-3.0, high=3.0), 64, gamma(64), r(64))
    yield Case("offset-rows", 100.0 + r(16, 128), 128, gamma(128), r(128))
    yield Case("positive-uniform", g.uniform(10, 200, low=0.0, high=5.0), 200, gamma(200), r(200))
    yield Case("outliers", g.heavy_tailed(8, 512, scale=2.0), 512, gamma(512), r(512))
    x = r(6, 50)
    x[1] = 0.0
    x[3] = 3.0
    x[4, :49] = -2.0
    yield Case("zero-constant-rows", x, 50, gamma(50), r(50))
    # Exact rounding ties with power-of-two scales: half-to-even is required here.
    yield Case("exact-ties", torch.cat([_ties(g, 10, 64, 0), _ties(g, 10, 64, -5)]), 64, gamma(64), r(64))
    # Float8 rounding: values on and next to ties of the e4m3 grid, and its largest value.
    wv = torch.tensor([1.0625, 1.1875, -1.0625, 2.125, 0.34375, 448.0, -440.0, 3.0, 0.1, -0.7, 13.0, 0.015625],
                      dtype=torch.float64)
    yield Case("fp8-rounding-weights", r(8, 96), 96, wv.repeat(8).to(F32).to(g.device), r(96))
    yield Case("fp8-subnormal-weights", r(8, 32), 32, (r(32) * 4e-3), r(32))
    # Layouts (the strided gaps hold NaN, so reading them shows).
    yield Case("strided-input", g.strided(r(10, 70)), 70, gamma(70), r(70))
    yield Case("transposed-input", g.transposed(r(40, 30)), 30, gamma(30), r(30))
    yield Case("strided-weight", r(10, 33), 33, g.strided(gamma(33)), g.strided(r(33)))
    # Extreme magnitudes and empty.
    yield Case("large-magnitude", r(8, 64, std=1e15), 64, gamma(64), r(64))
    yield Case("tiny-magnitude", r(8, 64, std=1e-9), 64, gamma(64), r(64), eps=1e-12)
    yield Case("empty-rows", r(0, 64), 64, gamma(64), r(64))


def perf_cases(g: Inputs):
    r = g.randn
    yield Case("8192x4096", r(8192, 4096), 4096, r(4096), r(4096))
    yield Case("4096x8192", r(4096, 8192), 8192, r(8192), r(8192))
    yield Case("32768x1024", r(32768, 1024), 1024, r(1024), r(1024))
    yield Case("16x2048x2048-3d", r(16, 2048, 2048), 2048, r(2048), r(2048), eps=1e-6)
