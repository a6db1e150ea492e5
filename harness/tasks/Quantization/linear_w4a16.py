"""W4A16 linear layer: float16 activations, weights quantized to int4 per output channel, float32 accumulation, float16 output."""

import math

import torch

from harness.checks import EPS32, bind_arguments, check_bounded, unit_roundoff
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "linear_w4a16"
SIGNATURE = "linear_w4a16(input, weight, bias=None)"
DTYPES = ["float16"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float16"]
CORE_KWARGS = []
DIFFICULTY = 4
DESCRIPTION = """
W4A16 linear layer out = input @ weight^T + bias with weight-only int4 quantization, computed
through a fixed pipeline (the result is the pipeline's, not the float16 linear layer's). `input` is
float16 (*, K): 1-D (K,) or with any number of leading dimensions; `weight` is float16 (N, K),
`bias` is None or float16 (N,); any of them may be non-contiguous. K >= 1; all values are finite.
1. Weight quantization to int4, symmetric, one scale per output channel (row n of `weight`), in
   float32: amax[n] = max over k of |weight[n, k]|; s[n] = amax[n] / 7 (a float32 division);
   q[n, k] = clamp(round(float32(weight[n, k]) / s[n]), -7, 7), where the quotient is a float32
   division and round() rounds half to even (like torch.round: 2.5 -> 2, -3.5 -> -4); q = 0 where
   s[n] == 0. The range is [-7, 7] (-8 is never used). How the 4-bit values are stored (e.g. two
   per byte) is up to the implementation; only the numeric result is checked.
2. acc[..., n] = sum over k of float32(input[..., k]) * q[n, k], accumulated in float32 (each
   product is exact in float32; so is a float16 tensor-core product of input and q converted to
   float16, since |q| <= 7, with a float32 accumulator). Do not accumulate in float16.
3. out[..., n] = float16(acc[..., n] * s[n] + float32(bias[n])): the float32 scale is applied to
   the float32 accumulator (not folded into float16 weights, and not rounded to float16), the
   bias (if any) added in float32, and the result rounded once to float16.
The quantizer's divisions (amax / 7, w / s) are IEEE float32 divisions, correctly rounded
as in PyTorch (in Triton use tl.div_rn:
`/` on float32 compiles to an approximate division on NVIDIA GPUs, up to 2 ulps off even where
the quotient is exact, which breaks the exact ties below).
Return a new float16 tensor of shape (*, N); the inputs must not be modified. The check tolerates
only what correct implementations of this pipeline can differ by: a quantized weight one step off
where its quotient lies within 8 float32 ulps of a rounding tie (for instance from computing
w * (7 / amax) instead of w / (amax / 7)); exact ties are not excused when the scale is an exact
power of two with amax == 7 * scale; float32 accumulation in any order; a few float32 roundings in
step 3 and the final float16 rounding. A different scheme (per-tensor or per-group scales,
truncation, [-8, 7] ranges, float16 accumulation, float16 scales or dequantized float16 weights,
no quantization at all) fails.
"""

F16 = torch.float16
F32 = torch.float32
QMAX = 7


def _quantize_rows(w):
    """Symmetric int4 quantization of each row of ``w``, in float32: (integer-valued float32 q,
    float32 scale (N, 1))."""
    w = w.to(F32)
    amax = w.abs().amax(dim=1, keepdim=True)
    scale = amax / QMAX
    q = torch.where(scale > 0, torch.round(w / torch.where(scale > 0, scale, 1.0)), torch.zeros_like(w))
    return q.clamp_(-QMAX, QMAX), scale


def reference(input, weight, bias=None):
    q, s = _quantize_rows(weight)
    acc = torch.matmul(input.to(F32), q.t())
    out = acc * s.reshape(-1)
    if bias is not None:
        out = out + bias.to(F32)
    return out.to(F16)


# -- checking ----------------------------------------------------------------------------------------
# The output is compared with the pipeline evaluated in float64 on the reference's own int4 values
# and float32 scales, allowing:
# 1. A quantized weight one step away from the reference's where w / s lies within TIE_WINDOW *
#    |w / s| of a rounding tie: another correct formula for the scale or the quotient (an
#    approximate GPU division, w * (7 / amax)) differs by at most ~4 float32 ulps; 8 ulps leaves a
#    2x margin. Each such flip moves acc by |input|: the allowance is s * (|input| @ fq^T), fq the
#    0/1 mask of those weights. Exact ties under an exact power-of-two scale are not excused
#    (every correct formula gives the exact tie there). |w / s| <= 7 * (1 + 2^-23) < 7.5, so the
#    clamp is never reached.
# 2. Float32 accumulation in any order: ACCUMULATION_C * sqrt(K) * u32 * s * (|input| @ |q|^T), the
#    bound of harness/checks.py (product_bound): a float16 accumulator errs ~8000x more.
# 3. DEQ_REL * |acc * s| for the scale product (and a scale computed by another formula, 2 ulps)
#    and EPS32 * |exact| for the bias addition.
# 4. The final float16 rounding: u16 * (|exact| + the above) plus half the smallest float16
#    subnormal. Folding the scale into float16 weights (or rounding the scale to float16) adds up
#    to u16 relative per term or per output, which this bound does not leave room for on the
#    small-K cases.
TIE_WINDOW = 8 * EPS32
DEQ_REL = 8 * EPS32
ACCUMULATION_C = 8.0

CHECK_NOTE = (
    "Compared with the quantized pipeline evaluated in float64, allowing a one-step flip of a quantized "
    "weight only where its quotient lies within 8 float32 ulps of a rounding tie, float32 accumulation "
    "error (8*sqrt(K)*u32 of the summed magnitudes), a few float32 roundings and the final float16 "
    "rounding: any other quantization scheme or float16 accumulation fails."
)


def _may_flip(w, scale):
    """0/1 mask (float64) of the weights whose quantized value a correct kernel may place one step
    away from the reference's (see the comment above)."""
    w = w.to(F32)
    s = scale.double()
    r = (w.double() / torch.where(s > 0, s, 1.0)).abs()
    dist = (r - r.floor() - 0.5).abs()
    amax = w.abs().amax(dim=1, keepdim=True).double()
    exact_scale = (torch.frexp(scale)[0].abs() == 0.5) & (s * QMAX == amax)
    near = (s > 0) & (dist <= TIE_WINDOW * r) & ~(exact_scale & (dist == 0))
    return near.double()


def check(case, output, expected):
    args = bind_arguments(reference, case)
    x, w, b = args["input"], args["weight"], args["bias"]
    q, s = _quantize_rows(w)
    fq = _may_flip(w, s)
    x64, q64, s64 = x.double(), q.double(), s.double().reshape(-1)
    k = x.shape[-1]
    acc = x64 @ q64.t()
    value = acc * s64
    exact = value + b.double() if b is not None else value
    magnitude = (x64.abs() @ q64.abs().t()) * s64
    bound = (s64 * (x64.abs() @ fq.t())
             + ACCUMULATION_C * math.sqrt(max(k, 1)) * unit_roundoff(F32) * magnitude
             + DEQ_REL * value.abs() + EPS32 * exact.abs())
    bound = bound + unit_roundoff(F16) * (exact.abs() + bound) + 2.0 ** -25
    return check_bounded(output, exact, bound, dtype=F16)


def cost(case: Case, output) -> Cost:
    args = bind_arguments(reference, case)
    x, w, b = args["input"], args["weight"], args["bias"]
    n, k = w.shape
    m = x.numel() // max(k, 1)
    # 2*M*N*K multiply-adds; weight quantization (|w|, max, divide, round) ~4 per weight, scale and
    # bias 2 per output. Bytes: the float16 inputs read once and the output written once (the
    # packed int4 weights are an intermediate).
    moved = numel_bytes(x) + numel_bytes(w) + numel_bytes(output) + (numel_bytes(b) if b is not None else 0)
    return Cost(flops=2.0 * m * n * k + 4.0 * w.numel() + 2.0 * output.numel(), bytes=float(moved))


def _ties(g: Inputs, rows: int, cols: int, e: int):
    """Weight rows whose quotients are exact ties: amax = 7 * 2^e (a power-of-two scale) and the
    other values multiples of 2^(e-1), so w / s = j / 2 for integers j in [-13, 13]."""
    v = g.randint(-13, 14, rows, cols).to(torch.float64) * 2.0 ** (e - 1)
    v[:, 0] = 7 * 2.0 ** e * torch.where(g.randint(0, 2, rows) == 0, -1.0, 1.0)
    return v[:, g.permutation(cols)].to(F16)


def cases(g: Inputs):
    def r(*shape, std=1.0):
        return g.randn(*shape, dtype=F16, std=std)
    yield Case("bias", r(16, 64), r(48, 64), r(48))
    yield Case("no-bias", r(20, 96), r(40, 96))
    yield Case("odd-37x53x29", r(37, 53), r(29, 53), r(29))
    yield Case("odd-K-odd-N", r(9, 33), r(31, 33))
    yield Case("gemv-M1", r(1, 256), r(96, 256), r(96))
    yield Case("1d-input", r(70), r(24, 70), r(24))
    yield Case("3d-input", r(2, 5, 64), r(40, 64), r(40))
    yield Case("multi-tile-70x130x140", r(70, 130), r(140, 130), r(140))
    yield Case("deep-K-2048", r(4, 2048), r(32, 2048), r(32))
    # Small K with many outputs: float16-rounded scales or dequantized weights show here.
    yield Case("K8-wide", r(64, 8), r(128, 8), r(128))
    yield Case("K16-wide", r(48, 16), r(96, 16))
    yield Case("K1", r(30, 1), r(20, 1), r(20))
    # One scale per output channel: channels of very different magnitudes.
    w = r(64, 80) * (10.0 ** g.uniform(64, 1, low=-2.0, high=2.0)).to(F16)
    yield Case("spread-channel-magnitudes", r(12, 80), w, r(64))
    yield Case("positive-uniform", g.uniform(10, 50, dtype=F16), g.uniform(30, 50, dtype=F16))
    yield Case("outliers", g.heavy_tailed(16, 96, dtype=F16), g.heavy_tailed(40, 96, dtype=F16, scale=0.5), r(40))
    # Exact rounding ties with power-of-two scales: half-to-even is required here.
    yield Case("exact-ties", r(24, 48), torch.cat([_ties(g, 20, 48, 0), _ties(g, 20, 48, -4)]), r(40))
    w = r(30, 40)
    w[[0, 7, 29]] = 0.0
    yield Case("zero-weight-rows", r(10, 40), w, r(30))
    # Layouts (the strided gaps hold NaN, so reading them shows).
    yield Case("transposed-weight", r(17, 64), g.transposed(r(48, 64)), r(48))
    yield Case("strided-input", g.strided(r(21, 40)), r(33, 40), r(33))
    yield Case("strided-weight-and-bias", r(8, 50), g.strided(r(36, 50)), g.strided(r(36)))
    # Tiny weights (float16 subnormals): scales near 1e-7, outputs near the float16 subnormal range.
    yield Case("tiny-weights", r(16, 64, std=100.0), r(32, 64, std=1e-6), r(32, std=1e-4))
    yield Case("empty-M", r(0, 64), r(24, 64), r(24))


def perf_cases(g: Inputs):
    def r(*shape):
        return g.randn(*shape, dtype=F16)
    # Decode (memory-bound: the float16 weight dominates) and prefill (compute-bound).
    yield Case("decode-1x4096x4096", r(1, 4096), r(4096, 4096), r(4096))
    yield Case("decode-16x8192x8192", r(16, 8192), r(8192, 8192), r(8192))
    yield Case("32x4096x16384", r(32, 4096), r(16384, 4096), r(16384))
    yield Case("decode-1x8192x28672", r(1, 8192), r(28672, 8192), None)
    yield Case("prefill-4096x4096x4096", r(4096, 4096), r(4096, 4096), r(4096))
