"""W8A8 2-D convolution: float32 input (per-tensor) and weight (per output channel) quantized to int8, int32 accumulation, float32 output."""

import torch
import torch.nn.functional as F

from harness.checks import EPS32, bind_arguments, check_bounded
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "conv2d_w8a8"
SIGNATURE = "conv2d_w8a8(input, weight, bias=None, stride=1, padding=0)"
DTYPES = ["float32"]
# Its products are int8 x int8 on the tensor cores: their measured peak bounds the perf cases.
COMPUTE_DTYPE = "int8"
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["padding", "stride"]
DIFFICULTY = 3
DESCRIPTION = """
W8A8 2-D convolution (cross-correlation, like torch.nn.functional.conv2d without dilation or
groups), computed through a fixed int8 quantization pipeline (the result is the pipeline's, not the
float convolution's). `input` is float32 (N, C, H, W), `weight` is float32 (O, C, kH, kW), `bias`
is None or float32 (O,); any of them may be non-contiguous. `stride` is an int or a pair
(stride_h, stride_w); `padding` is an int or a pair (pad_h, pad_w): that many zeros on both sides
of each spatial dimension. H_out = floor((H + 2 * pad_h - kH) / stride_h) + 1 (same for W). All
values are finite.
1. Activation quantization, symmetric, ONE scale for the whole input tensor:
   amax_x = max of |input| over all elements; s_x = amax_x / 127 (a float32 division);
   xq = clamp(round(input / s_x), -127, 127) as int8, where the quotient is a float32 division and
   round() rounds half to even (like torch.round: 2.5 -> 2, -3.5 -> -4); xq = 0 if s_x == 0.
2. Weight quantization, symmetric, one scale per output channel o: amax_w[o] = max over c, r, s of
   |weight[o, c, r, s]|, s_w[o] = amax_w[o] / 127, wq = clamp(round(weight / s_w[o]), -127, 127),
   wq = 0 where s_w[o] == 0.
3. acc[n, o, i, j] = sum over c, r < kH, s < kW of
   xq[n, c, i * stride_h - pad_h + r, j * stride_w - pad_w + s] * wq[o, c, r, s], positions outside
   the input reading 0, accumulated exactly in int32.
4. out[n, o, i, j] = float32(acc) * s_x * s_w[o] (float32 products, left to right), then
   + bias[o] (a float32 addition) when bias is given.
The quantizer's divisions (amax / 127, x / s) are IEEE float32 divisions, correctly rounded
as in PyTorch (in Triton use tl.div_rn:
`/` on float32 compiles to an approximate division on NVIDIA GPUs, up to 2 ulps off even where
the quotient is exact, which breaks the exact ties below).
Return a new float32 (N, O, H_out, W_out) tensor; the inputs must not be modified. The check
tolerates only what correct implementations of this pipeline can differ by: a quantized value one
step off where its quotient lies within 8 float32 ulps of a rounding tie (for instance from
computing x * (127 / amax) instead of x / (amax / 127)), and a few float32 roundings in step 4.
Exact ties are not tolerated when the scale is an exact power of two with amax == 127 * scale (every
correct formula then gives the exact tie, so half-to-even is required). A different scheme
(per-sample or per-channel activation scales, a per-tensor weight scale, truncation, asymmetric or
[-128, 127] ranges, float16 accumulation, no quantization at all) fails.
"""

F32 = torch.float32
QMAX = 127


def _quantize(t, dim):
    """Symmetric int8 quantization of float32 ``t`` with one scale per slice along ``dim`` (a dim
    or tuple of dims): (integer-valued float32 q, float32 scale broadcastable to t)."""
    amax = t.abs().amax(dim=dim, keepdim=True)
    scale = amax / QMAX
    q = torch.where(scale > 0, torch.round(t / torch.where(scale > 0, scale, 1.0)), torch.zeros_like(t))
    return q.clamp_(-QMAX, QMAX), scale


def reference(input, weight, bias=None, stride=1, padding=0):
    xq, sx = _quantize(input, (0, 1, 2, 3))    # one scale: (1, 1, 1, 1)
    wq, sw = _quantize(weight, (1, 2, 3))      # (O, 1, 1, 1)
    # float64 holds every partial sum exactly (integers far below 2^53), as int32 accumulation does
    acc = F.conv2d(xq.double(), wq.double(), None, stride, padding)
    out = acc.to(F32) * sx * sw.reshape(1, -1, 1, 1)
    return out + bias.reshape(1, -1, 1, 1) if bias is not None else out


# -- checking ----------------------------------------------------------------------------------------
# The output is compared with the pipeline evaluated exactly (integer accumulation, float64
# dequantization of the reference's own int8 values and float32 scales), allowing two things:
# 1. A quantized value one step away from the reference's where the quotient x / s lies within
#    TIE_WINDOW * |x / s| of a rounding tie (k + 1/2). A correct kernel's quotient differs from
#    PyTorch's by at most ~4 float32 ulps (the scale as amax * (1/127), an approximate GPU division,
#    x * (127 / amax): two roundings each); 8 ulps leaves a 2x margin. Such flips are rare (~1e-4
#    of the values) and each moves acc by at most |other operand's q| (+1 if both flip), so the
#    allowance is s_x * s_w * (conv(fx, |wq| + fw) + conv(|xq|, fw)), with fx, fw the 0/1 masks of
#    such values. Where amax == 127 * s and s is a power of two, every correct formula gives the
#    exact quotient, so exact ties there are not excused (half-to-even required). Quantized values
#    can never reach the clamp boundary (|x / s| <= 127 * (1 + 2^-23) < 127.5).
# 2. DEQ_REL * |acc * s| for step 4 (int32 -> float32 and two products, 3 roundings of 2^-24, plus
#    scales computed by another formula, up to 2 ulps each: ~5.5 ulps; 8 ulps leaves a margin) and
#    one float32 rounding of the bias addition (EPS32 * |exact|). A wrong scheme errs by the
#    quantization noise itself (~1e-2 relative): thousands of times more.
TIE_WINDOW = 8 * EPS32
DEQ_REL = 8 * EPS32

CHECK_NOTE = (
    "Compared with the quantized pipeline evaluated exactly (int accumulation, float64 dequantization), "
    "allowing a one-step flip of a quantized value only where its quotient lies within 8 float32 ulps "
    "of a rounding tie (other correct formulas for the scale or the division land on either side) and "
    "8 ulps of float32 rounding in the dequantization: any other quantization scheme fails."
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
    x, w, b = args["input"], args["weight"], args["bias"]
    conv = lambda u, v: F.conv2d(u, v, None, args["stride"], args["padding"])  # noqa: E731
    xq, sx = _quantize(x, (0, 1, 2, 3))
    wq, sw = _quantize(w, (1, 2, 3))
    fx, fw = _may_flip(x, sx, (0, 1, 2, 3)), _may_flip(w, sw, (1, 2, 3))
    xq, wq = xq.double(), wq.double()
    acc = conv(xq, wq)
    slack = conv(fx, wq.abs() + fw) + conv(xq.abs(), fw)
    s = sx.double() * sw.double().reshape(1, -1, 1, 1)
    value = acc * s
    exact = value + b.double().reshape(1, -1, 1, 1) if b is not None else value
    bound = (s * slack + DEQ_REL * (value.abs() + s * slack) + EPS32 * exact.abs()
             + torch.finfo(F32).tiny)
    return check_bounded(output, exact, bound, dtype=F32)


def cost(case: Case, output) -> Cost:
    args = bind_arguments(reference, case)
    x, w, b = args["input"], args["weight"], args["bias"]
    # C * kH * kW integer multiply-adds per output; quantization (|v|, max, divide, round) ~4 per
    # input element, dequantization (+ bias) 3 per output. Bytes: the float inputs read once and
    # the output written once (the int8 copies are intermediates a fused kernel need not write).
    flops = 2.0 * output.numel() * w[0].numel() + 4.0 * (x.numel() + w.numel()) + 3.0 * output.numel()
    moved = numel_bytes(x) + numel_bytes(w) + numel_bytes(output) + (numel_bytes(b) if b is not None else 0)
    return Cost(flops=flops, bytes=float(moved))


def _ties(g: Inputs, shape, e: int):
    """Values whose quotients are exact ties under a power-of-two scale: amax = 127 * 2^e (one
    element of each outer slice) and the others multiples of 2^(e-1), so x / s = j / 2."""
    v = g.randint(-253, 254, *shape).to(torch.float64) * 2.0 ** (e - 1)
    flat = v.reshape(shape[0], -1)
    flat[:, 0] = 127 * 2.0 ** e
    return flat[:, g.permutation(flat.shape[1])].reshape(shape).to(F32)


def _channels_last(t):
    return t.permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2)


def cases(g: Inputs):
    r = g.randn
    yield Case("3x3-bias", r(2, 4, 9, 11), r(6, 4, 3, 3), r(6))
    yield Case("3x3-pad1", r(2, 8, 10, 10), r(16, 8, 3, 3), padding=1)
    yield Case("3x3-s2-p1-bias", r(2, 8, 15, 13), r(12, 8, 3, 3), r(12), stride=2, padding=1)
    yield Case("rect-kernel-tuple-args", r(1, 5, 12, 9), r(7, 5, 3, 5), r(7), stride=(2, 1), padding=(0, 2))
    yield Case("positional-stride-padding", r(2, 3, 11, 10), r(5, 3, 2, 3), r(5), (1, 2), 1)
    yield Case("1x1", r(2, 32, 7, 7), r(24, 32, 1, 1), r(24))
    yield Case("stem-7x7-s2-p3", r(1, 3, 20, 20), r(8, 3, 7, 7), r(8), stride=2, padding=3)
    yield Case("kernel-larger-than-input", r(1, 2, 3, 3), r(4, 2, 5, 5), r(4), padding=2)
    yield Case("deep-K-576", r(1, 64, 6, 6), r(32, 64, 3, 3), r(32), padding=1)
    # One activation scale for the whole tensor, one weight scale per output channel: samples and
    # output channels of very different magnitudes tell these apart from other granularities.
    x = r(3, 4, 8, 8) * g.tensor([1e-2, 1.0, 30.0]).reshape(3, 1, 1, 1)
    w = r(6, 4, 3, 3) * (10.0 ** g.uniform(6, 1, 1, 1, low=-3.0, high=3.0))
    yield Case("sample-and-channel-magnitudes", x, w, r(6), padding=1)
    yield Case("positive-uniform", g.uniform(2, 6, 9, 9, low=0.0, high=4.0), g.uniform(5, 6, 3, 3),
               g.uniform(5, low=-1.0, high=1.0), stride=2)
    yield Case("outliers", g.heavy_tailed(2, 4, 10, 10, scale=2.0), r(8, 4, 3, 3), r(8), padding=1)
    # Exact rounding ties with power-of-two scales: half-to-even is required here.
    yield Case("exact-ties", _ties(g, (1, 3, 9, 9), 0), _ties(g, (6, 3, 3, 3), -3), r(6), padding=1)
    w = r(5, 3, 3, 3)
    w[[1, 4]] = 0.0
    yield Case("zero-weight-channels", r(2, 3, 8, 8), w, r(5))
    yield Case("zero-input", torch.zeros(1, 3, 6, 6, device=g.device), r(4, 3, 3, 3), r(4), padding=1)
    # Layouts (the strided gaps hold NaN, so reading them shows).
    yield Case("strided-input", g.strided(r(2, 4, 9, 10)), r(6, 4, 3, 3), r(6), padding=1)
    yield Case("channels-last", _channels_last(r(2, 8, 9, 9)), _channels_last(r(8, 8, 3, 3)), r(8),
               padding=1)
    yield Case("transposed-input", g.transposed(r(2, 3, 11, 8)), r(4, 3, 2, 3), r(4), stride=(1, 2))
    # Extreme magnitudes (scales near 1e13 and 1e-11; products stay in float32 range).
    yield Case("large-magnitude", r(1, 4, 8, 8, std=1e15), r(6, 4, 3, 3, std=1e12), r(6, std=1e28),
               padding=1)
    yield Case("tiny-magnitude", r(1, 4, 8, 8, std=1e-9), r(6, 4, 3, 3, std=1e-9), padding=1)
    # a bias read as dense (stride 1) picks up the NaN gaps
    yield Case("strided-bias", r(2, 4, 9, 10), r(6, 4, 3, 3), g.strided(r(6)), padding=1)


def perf_cases(g: Inputs):
    r = g.randn
    yield Case("resnet-3x3-32x64x56x56", r(32, 64, 56, 56), r(64, 64, 3, 3), r(64), padding=1)
    yield Case("resnet-3x3-32x128x28x28-to-256", r(32, 128, 28, 28), r(256, 128, 3, 3), r(256), padding=1)
    yield Case("resnet-3x3-s2-32x128x56x56-to-256", r(32, 128, 56, 56), r(256, 128, 3, 3), r(256),
               stride=2, padding=1)
    yield Case("stem-7x7-s2-32x3x224x224", r(32, 3, 224, 224), r(64, 3, 7, 7), r(64), stride=2, padding=3)
