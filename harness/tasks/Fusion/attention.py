"""Scaled dot-product attention softmax(q k^T * scale) v, optionally causal, float16 or float32."""

import math

import torch

from harness.checks import bind_arguments, check_bounded, product_bound, unit_roundoff
from harness.taskdef import Case, Cost, Inputs, Tolerance, numel_bytes

ENTRY = "attention"
SIGNATURE = "attention(q, k, v, causal=False, softmax_scale=None, *, out=None)"
DTYPES = ["float16", "float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float16", "float32"]
CORE_KWARGS = ["causal", "softmax_scale", "out"]
DIFFICULTY = 5
DESCRIPTION = """
Scaled dot-product attention, out = softmax(q @ k^T * scale) @ v, the softmax taken over the keys
(the last dimension of the scores). `q` is (batch, heads, seq_q, head_dim), `k` is (batch, heads,
seq_k, head_dim) and `v` is (batch, heads, seq_k, head_dim_v), all float16 or all float32 (usually
seq_q = seq_k and head_dim_v = head_dim, but not always). `softmax_scale` is a Python float; None
means 1 / sqrt(head_dim). With causal=True, query i may attend only to keys j <= i (the scores of
keys j > i are -inf before the softmax; the mask is aligned at the top-left corner, as
torch.triu(torch.ones(seq_q, seq_k), diagonal=1) marks the masked positions, so every query sees at
least key 0). Return a new tensor of shape (batch, heads, seq_q, head_dim_v) and the inputs' dtype;
if `out` is given (a tensor of that shape and dtype, possibly a non-contiguous view), write the
result into it and return `out` itself. Any input may be non-contiguous (e.g. a (batch, seq,
heads, dim) buffer viewed with transpose(1, 2)). seq_q may be 0 (an empty result); seq_k = 0 gives
zeros. Do not materialize the (seq_q, seq_k) score matrix in memory: stream the keys and values in
blocks with an online softmax (running maximum and sum, rescaling the accumulator), as flash
attention does; subtract the running maximum so that large scores do not overflow. Float16 inputs:
the products may use the tensor cores with float32 accumulation (rounding the probabilities to
float16 before multiplying by v is tolerated); float32 inputs: full float32 precision, no TF32
(with tl.dot use input_precision="ieee" or "tf32x3"). The inputs must not be modified.
"""

F16 = torch.float16
F32 = torch.float32
U32 = unit_roundoff(F32)


def reference(q, k, v, causal=False, softmax_scale=None, *, out=None):
    scale = 1.0 / math.sqrt(q.shape[-1]) if softmax_scale is None else softmax_scale
    scores = torch.matmul(q, k.transpose(-2, -1)) * scale
    if causal:
        masked = torch.triu(torch.ones(q.shape[-2], k.shape[-2], dtype=torch.bool, device=q.device), diagonal=1)
        scores = scores.masked_fill(masked, float("-inf"))
    attn = torch.softmax(scores, dim=-1)
    result = torch.matmul(attn, v)
    if out is not None:
        out.copy_(result)
        return out
    return result


# -- checking ----------------------------------------------------------------------------------------
# Compared with attention evaluated in float64 from the same inputs. A score s = scale * q.k errs by
# ds = harness/checks.py's product bound for float32 accumulation (8 * sqrt(D) * u32 * scale *
# (|q| @ |k|^T)) + u_in * |s| (rounding the scores to the inputs' dtype, as the eager reference does)
# + 8 * u32 * (|s| + max|s|) (the scale and log2(e) products and exp2 of s - max). A probability then
# moves by a relative p_j * (ds_j + sum_k p_k ds_k), plus (8 * sqrt(seq_k) + 8) * u32 for the running
# sum and u_in for rounding p to the inputs' dtype before the second product. The output moves by the
# sum over keys of those errors times |v_j|, plus 8 * sqrt(seq_k) * u32 * sum_j p_j |v_j| (the
# second product's float32 accumulation); the propagated part is doubled (first-order estimates) and
# the output rounding u_out * |out| added. A float16 accumulator, TF32 products for float32 inputs,
# a missing rescale of the accumulator, a wrong or ignored scale and a mask shifted by one are off by
# far more.
CHECK_NOTE = (
    "Compared with float64 attention: score errors ds = 8*sqrt(D)*u32*scale*(|q|@|k|^T) + u_in*|s| + "
    "8*u32*(|s| + max|s|) (harness/checks.py product_bound) propagated through the softmax and the "
    "product with v (plus the softmax sum's and the second product's float32 rounding, and float16 "
    "rounding of p), doubled, plus u_out*|out|."
)

# The returned tensor is judged by check() above. An `out=` argument is also compared after the call
# with the eager reference's own `out`, which rounds the float16 scores and probabilities (errors of
# a few float16 ulps of the output's scale): that comparison uses 1e-2, about 5 ulps at the RMS.
TOLERANCE = {F16: Tolerance(atol=1e-2, rtol=1e-2)}


def _mask(q, k):
    return torch.triu(torch.ones(q.shape[-2], k.shape[-2], dtype=torch.bool, device=q.device), diagonal=1)


def check(case, output, expected):
    args = bind_arguments(reference, case)
    q, k, v, causal = args["q"], args["k"], args["v"], args["causal"]
    scale = 1.0 / math.sqrt(q.shape[-1]) if args["softmax_scale"] is None else float(args["softmax_scale"])
    dt = q.dtype
    shape = tuple(q.shape[:-1]) + (v.shape[-1],)
    if math.prod(shape) == 0 or k.shape[-2] == 0:
        zeros = torch.zeros(shape, dtype=torch.float64)
        return check_bounded(output, zeros, zeros + torch.finfo(dt).tiny, dtype=dt)
    qd, kd, vd = q.double(), k.double(), v.double()
    s = scale * (qd @ kd.transpose(-2, -1))
    ds = product_bound(qd, kd.transpose(-2, -1), out_dtype=dt, scale=scale, exact=s)
    if causal:
        s = s.masked_fill(_mask(q, k), float("-inf"))
    p = torch.softmax(s, dim=-1)
    finite = torch.isfinite(s)
    s0 = torch.where(finite, s, 0.0)
    ds = torch.where(finite, ds + 8 * U32 * (s0.abs() + s0.abs().amax(dim=-1, keepdim=True)), 0.0)
    sk = k.shape[-2]
    rel_p = (ds + (p * ds).sum(dim=-1, keepdim=True) + (8 * math.sqrt(sk) + 8) * U32 + unit_roundoff(dt))
    pv = p @ vd.abs()
    exact = p @ vd
    propagated = (p * rel_p) @ vd.abs() + 8 * math.sqrt(sk) * U32 * pv
    bound = 2 * propagated + unit_roundoff(dt) * exact.abs() + torch.finfo(dt).tiny
    return check_bounded(output, exact, bound, dtype=dt)


def cost(case: Case, output) -> Cost:
    args = bind_arguments(reference, case)
    q, k, v = args["q"], args["k"], args["v"]
    b, h, sq, d = q.shape
    sk, dv = k.shape[-2], v.shape[-1]
    # score pairs actually needed: all of them, or for the causal mask min(i + 1, sk) per query i
    pairs = sum(min(i + 1, sk) for i in range(sq)) if args["causal"] else sq * sk
    # two products (2 flops per multiply-add) and ~4 per score (scale, max, exp, sum); every input
    # read once, the result written once (the score matrix never leaves the chip)
    flops = b * h * pairs * (2.0 * d + 2.0 * dv + 4.0)
    return Cost(flops=flops, bytes=float(numel_bytes(q) + numel_bytes(k) + numel_bytes(v) + numel_bytes(output)))


def cases(g: Inputs):
    h = lambda *s, **kw: g.randn(*s, dtype=F16, **kw)  # noqa: E731
    f = lambda *s, **kw: g.randn(*s, dtype=F32, **kw)  # noqa: E731
    yield Case("fp16-2x2x64x64", h(2, 2, 64, 64), h(2, 2, 64, 64), h(2, 2, 64, 64))
    yield Case("fp16-causal", h(1, 2, 96, 64), h(1, 2, 96, 64), h(1, 2, 96, 64), causal=True)
    yield Case("fp16-scale", h(1, 3, 50, 32), h(1, 3, 50, 32), h(1, 3, 50, 32), softmax_scale=0.3)
    yield Case("fp16-causal-scale-odd-seq", h(2, 1, 77, 64), h(2, 1, 77, 64), h(2, 1, 77, 64), causal=True,
               softmax_scale=0.05)
    yield Case("fp16-long-keys-300", h(1, 1, 40, 64), h(1, 1, 300, 64), h(1, 1, 300, 64))
    # Many key blocks, small scores and values with a common offset: a float16 accumulator's
    # rounding grows with the number of blocks, past what rounding the probabilities costs.
    yield Case("fp16-keys-8192-offset-values", h(1, 1, 16, 16, std=0.1), h(1, 1, 8192, 16),
               h(1, 1, 8192, 16, mean=2.0))
    yield Case("fp32-1x2x64x32", f(1, 2, 64, 32), f(1, 2, 64, 32), f(1, 2, 64, 32))
    yield Case("fp32-causal", f(1, 1, 70, 64), f(1, 1, 70, 64), f(1, 1, 70, 64), causal=True)
    yield Case("fp32-scale", f(2, 1, 33, 16), f(2, 1, 33, 16), f(2, 1, 33, 16), softmax_scale=0.5)
    yield Case("fp16-out", h(1, 2, 48, 32), h(1, 2, 48, 32), h(1, 2, 48, 32), causal=True, out=h(1, 2, 48, 32))
    yield Case("fp32-out", f(1, 1, 40, 32), f(1, 1, 40, 32), f(1, 1, 40, 32), softmax_scale=0.25, out=f(1, 1, 40, 32))
    # Peaked softmax: large scores (hundreds) that overflow exp without the running maximum.
    yield Case("fp16-large-scores", h(1, 1, 64, 64, std=4.0), h(1, 1, 160, 64, std=4.0), h(1, 1, 160, 64))
    yield Case("fp32-large-scale-causal", f(1, 1, 64, 32), f(1, 1, 64, 32), f(1, 1, 64, 32), causal=True,
               softmax_scale=20.0)
    # Other shapes: head_dim not a power of two, seq_q != seq_k (causal top-left), head_dim_v != head_dim.
    yield Case("fp16-head-dim-40", h(1, 2, 37, 40), h(1, 2, 45, 40), h(1, 2, 45, 40))
    yield Case("fp16-causal-more-queries", h(1, 1, 90, 32), h(1, 1, 50, 32), h(1, 1, 50, 32), causal=True)
    yield Case("fp32-dv-differs", f(1, 2, 30, 32), f(1, 2, 41, 32), f(1, 2, 41, 16))
    # Layouts: (batch, seq, heads, dim) buffers viewed as (batch, heads, seq, dim); out= views.
    yield Case("fp16-bshd-views", h(2, 40, 2, 32).transpose(1, 2), h(2, 40, 2, 32).transpose(1, 2),
               h(2, 40, 2, 32).transpose(1, 2), causal=True)
    yield Case("fp32-strided-v", f(1, 1, 24, 16), f(1, 1, 24, 16), g.strided(f(1, 1, 24, 16)))
    yield Case("fp16-out-view", h(1, 2, 33, 32), h(1, 2, 33, 32), h(1, 2, 33, 32),
               out=h(1, 33, 2, 32).transpose(1, 2))
    # Empty sizes.
    yield Case("fp16-empty-queries", h(1, 2, 0, 32), h(1, 2, 16, 32), h(1, 2, 16, 32))
    yield Case("fp32-empty-keys", f(1, 1, 8, 16), f(1, 1, 0, 16), f(1, 1, 0, 16))


def perf_cases(g: Inputs):
    # Sized so that the eager reference's (seq_q, seq_k) score matrices stay near 1 GB per tensor.
    h = lambda *s: g.randn(*s, dtype=F16)  # noqa: E731
    yield Case("fp16-2x8x1024x64", h(2, 8, 1024, 64), h(2, 8, 1024, 64), h(2, 8, 1024, 64))
    yield Case("fp16-2x16x4096x64-causal", h(2, 16, 4096, 64), h(2, 16, 4096, 64), h(2, 16, 4096, 64), causal=True)
    yield Case("fp16-2x16x4096x128", h(2, 16, 4096, 128), h(2, 16, 4096, 128), h(2, 16, 4096, 128))
    yield Case("fp16-1x8x8192x128-causal", h(1, 8, 8192, 128), h(1, 8, 8192, 128), h(1, 8, 8192, 128), causal=True)
    yield Case("fp32-2x8x2048x64", g.randn(2, 8, 2048, 64), g.randn(2, 8, 2048, 64), g.randn(2, 8, 2048, 64))
