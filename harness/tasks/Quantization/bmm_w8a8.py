"""W8A8 batched matrix product: float32 operands quantized to int8 (per row / per column), int32 accumulation, float32 output."""

import torch

from harness.checks import EPS32, bind_arguments, check_bounded
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "bmm_w8a8"
SIGNATURE = "bmm_w8a8(input, mat2)"
DTYPES = ["float32"]
# Its products are int8 x int8 on the tensor cores: their measured peak bounds the perf cases.
COMPUTE_DTYPE = "int8"
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = []
DIFFICULTY = 3
DESCRIPTION = """
W8A8 batched matrix product out[b] = input[b] @ mat2[b], computed through a fixed int8 quantization
pipeline (the result is the pipeline's, not the float product's). `input` is float32 (B, M, K),
`mat2` is float32 (B, K, N), K >= 1; either may be non-contiguous (transposed, strided, permuted
or stride-0 batch dimensions). All values are finite. Each batch b is quantized on its own:
1. Quantization of `input`, symmetric, one scale per row (b, m):
   amax_x[b, m] = max over k of |input[b, m, k]|;  s_x[b, m] = amax_x[b, m] / 127 (a float32
   division);  xq[b, m, k] = clamp(round(input[b, m, k] / s_x[b, m]), -127, 127) as int8, where
   the quotient is a float32 division and round() rounds half to even (like torch.round:
   2.5 -> 2, -3.5 -> -4). A row with s_x == 0 (all zeros) has xq = 0.
2. Quantization of `mat2`, the same rule with one scale per column (b, n): amax over k of
   |mat2[b, k, n]|, s_m[b, n] = amax / 127, mq[b, k, n] = clamp(round(mat2[b, k, n] / s_m[b, n]),
   -127, 127), mq = 0 where s_m == 0.
3. acc[b, m, n] = sum over k of xq[b, m, k] * mq[b, k, n], accumulated exactly in int32.
4. out[b, m, n] = float32(acc[b, m, n]) * s_x[b, m] * s_m[b, n] (float32 products, left to right).
The quantizer's divisions (amax / 127, x / s) are IEEE float32 divisions, correctly rounded
as in PyTorch (in Triton use tl.div_rn:
`/` on float32 compiles to an approximate division on NVIDIA GPUs, up to 2 ulps off even where
the quotient is exact, which breaks the exact ties below).
Return a new float32 (B, M, N) tensor (any of B, M, N may be 0); the inputs must not be modified.
The check tolerates only what correct implementations of this pipeline can differ by: a quantized
value one step off where its quotient lies within 8 float32 ulps of a rounding tie (for instance
from computing x * (127 / amax) instead of x / (amax / 127)), and a few float32 roundings in
step 4. Exact ties are not tolerated when the scale is an exact power of two with
amax == 127 * scale (every correct formula then gives the exact tie, so half-to-even is required).
A different scheme (per-tensor or per-batch scales, truncation, asymmetric or [-128, 127] ranges,
float16 accumulation, no quantization at all) fails.
"""

F32 = torch.float32
QMAX = 127


def _quantize(t, dim):
    """Symmetric int8 quantization of float32 ``t`` with one scale per slice along ``dim``:
    (integer-valued float32 q, float32 scale broadcastable to t)."""
    amax = t.abs().amax(dim=dim, keepdim=True)
    scale = amax / QMAX
    q = torch.where(scale > 0, torch.round(t / torch.where(scale > 0, scale, 1.0)), torch.zeros_like(t))
    return q.clamp_(-QMAX, QMAX), scale


def _int_matmul(a, b):
    """a @ b of integer-valued tensors with |entries| <= 127, exactly (as an int32 accumulation):
    every partial sum is an integer below 2^24 (float32) or 2^53 (float64), so any summation
    order is exact."""
    exact = F32 if a.shape[-1] * QMAX * QMAX < 2 ** 24 else torch.float64
    return torch.matmul(a.to(exact), b.to(exact))


def reference(input, mat2):
    xq, sx = _quantize(input, 2)   # sx: (B, M, 1)
    wq, sw = _quantize(mat2, 1)    # sw: (B, 1, N)
    acc = _int_matmul(xq, wq)
    return acc.to(F32) * sx * sw


# -- checking ----------------------------------------------------------------------------------------
# The output is compared with the pipeline evaluated exactly (integer accumulation, float64
# dequantization of the reference's own int8 values and float32 scales), allowing two things:
# 1. A quantized value one step away from the reference's where the quotient x / s lies within
#    TIE_WINDOW * |x / s| of a rounding tie (k + 1/2). A correct kernel's quotient differs from
#    PyTorch's by at most ~4 float32 ulps (the scale as amax * (1/127), an approximate GPU division,
#    x * (127 / amax): two roundings each); 8 ulps leaves a 2x margin. Such flips are rare (about
#    16 * 2^-24 * |x / s| of the values, ~1e-4) and each moves acc by at most |other operand's q|
#    (+1 if both flip), so the allowance is s_x * s_w * (fx @ (|wq| + fw) + |xq| @ fw), with fx, fw
#    the 0/1 masks of such values. Where amax == 127 * s and s is a power of two, every correct
#    formula gives the exact quotient, so exact ties there are not excused (half-to-even required).
#    The quantized values can never reach the clamp boundary (|x / s| <= 127 * (1 + 2^-23) < 127.5).
# 2. DEQ_REL * |value| for step 4: the int32 -> float32 conversion and two products (3 roundings
#    of 2^-24) plus scales computed by another formula (up to 2 ulps each): about 5.5 ulps; 8 ulps
#    (2^-20 relative) leaves a margin. A wrong scheme errs by the quantization noise itself
#    (s_x * s_w * sqrt(K) * ~0.3, i.e. about 1e-2 relative): thousands of times more.
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
    x, w = args["input"], args["mat2"]
    xq, sx = _quantize(x, 2)
    wq, sw = _quantize(w, 1)
    fx, fw = _may_flip(x, sx, 2), _may_flip(w, sw, 1)
    xq, wq = xq.double(), wq.double()
    acc = xq @ wq
    slack = fx @ (wq.abs() + fw) + xq.abs() @ fw
    s = sx.double() * sw.double()
    exact = acc * s
    bound = s * slack + DEQ_REL * (exact.abs() + s * slack) + torch.finfo(F32).tiny
    return check_bounded(output, exact, bound, dtype=F32)


def cost(case: Case, output) -> Cost:
    args = bind_arguments(reference, case)
    x, w = args["input"], args["mat2"]
    b, m, k = x.shape
    n = w.shape[2]
    # 2*B*M*N*K integer multiply-adds; quantization (|v|, max, divide, round) ~4 per input element,
    # dequantization 2 per output. Bytes: the float inputs read once and the output written once
    # (the int8 copies are intermediates a fused kernel need not write).
    return Cost(flops=2.0 * b * m * n * k + 4.0 * (x.numel() + w.numel()) + 2.0 * output.numel(),
                bytes=float(numel_bytes(x) + numel_bytes(w) + numel_bytes(output)))


def _ties(g: Inputs, batch: int, rows: int, cols: int, e: int):
    """Rows of values whose quotients are exact ties: amax = 127 * 2^e (a power-of-two scale) and
    the other values multiples of 2^(e-1), so x / s = j / 2 for integers j."""
    v = g.randint(-253, 254, batch, rows, cols).to(torch.float64) * 2.0 ** (e - 1)
    v[..., 0] = 127 * 2.0 ** e * torch.where(g.randint(0, 2, batch, rows) == 0, -1.0, 1.0)
    perm = g.permutation(cols)
    return v[..., perm].to(F32)


def cases(g: Inputs):
    r = g.randn
    yield Case("batched-3x20x33x17", r(3, 20, 33), r(3, 33, 17))
    yield Case("square-2x64", r(2, 64, 64), r(2, 64, 64))
    yield Case("odd-5x37x53x29", r(5, 37, 53), r(5, 53, 29))
    yield Case("multi-tile-2x130x70x140", r(2, 130, 70), r(2, 70, 140))
    yield Case("single-batch", r(1, 45, 60), r(1, 60, 38))
    yield Case("K1", r(4, 33, 1), r(4, 1, 47))
    yield Case("M1-N1", r(6, 1, 90), r(6, 90, 1))
    yield Case("deep-K-1000", r(2, 24, 1000), r(2, 1000, 40))
    # Per-row / per-column scales within each batch matter: magnitudes spread over 6 decades
    # between rows, columns and batches.
    rows = r(3, 40, 64) * (10.0 ** g.uniform(3, 40, 1, low=-3.0, high=3.0))
    cols = r(3, 64, 36) * (10.0 ** g.uniform(3, 1, 36, low=-3.0, high=3.0))
    yield Case("spread-row-col-magnitudes", rows, cols)
    yield Case("positive-uniform", g.uniform(4, 30, 50), g.uniform(4, 50, 20))
    yield Case("outliers", g.heavy_tailed(3, 48, 96, scale=2.0), g.heavy_tailed(3, 96, 40))
    # Exact rounding ties with power-of-two scales: half-to-even is required here.
    yield Case("exact-ties", _ties(g, 2, 32, 48, 0), _ties(g, 2, 40, 48, -3).transpose(1, 2).contiguous())
    x = r(3, 30, 40)
    x[1, [2, 17]] = 0.0
    w = r(3, 40, 25)
    w[2, :, [0, 9, 24]] = 0.0
    w[0] = 0.0
    yield Case("zero-rows-columns-batch", x, w)
    # Layouts (the strided gaps hold NaN, so reading them shows).
    yield Case("transposed-mat2", r(4, 45, 64), g.transposed(r(4, 64, 50)))
    yield Case("transposed-input", g.transposed(r(3, 33, 48)), r(3, 48, 27))
    yield Case("strided", g.strided(r(2, 30, 41)), g.strided(r(2, 41, 25)))
    yield Case("permuted-batch", r(20, 4, 30).permute(1, 0, 2), r(4, 30, 18))
    yield Case("expanded-batch", r(1, 16, 24).expand(3, 16, 24), r(3, 24, 20))
    # Extreme magnitudes (scales near 1e13 and 1e-11; products stay in float32 range).
    yield Case("large-magnitude", r(2, 30, 40, std=1e15), r(2, 40, 20, std=1e12))
    yield Case("tiny-magnitude", r(2, 30, 40, std=1e-9), r(2, 40, 20, std=1e-9))
    yield Case("empty-batch", r(0, 4, 5), r(0, 5, 6))
    yield Case("empty-M", r(2, 0, 8), r(2, 8, 9))


def perf_cases(g: Inputs):
    r = g.randn
    yield Case("16x512x1024x2048", r(16, 512, 1024), r(16, 1024, 2048))
    yield Case("32x1024^3", r(32, 1024, 1024), r(32, 1024, 1024))
    yield Case("8x4096^3", r(8, 4096, 4096), r(8, 4096, 4096))
    # Attention-shaped: long rows, short reduction.
    yield Case("64x2048x128x2048", r(64, 2048, 128), r(64, 128, 2048))
