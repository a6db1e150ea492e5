"""W8A8 single-head attention: Q, K, V and the softmax probabilities quantized to int8, int32 products, float32 softmax and output."""

import math

import torch

from harness.checks import EPS32, bind_arguments, check_bounded, unit_roundoff
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "attention_w8a8"
SIGNATURE = "attention_w8a8(query, key, value)"
DTYPES = ["float32"]
# Its products are int8 x int8 on the tensor cores: their measured peak bounds the perf cases.
COMPUTE_DTYPE = "int8"
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = []
DIFFICULTY = 5
DESCRIPTION = """
W8A8 single-head attention softmax(Q K^T / sqrt(D)) V, computed through a fixed int8 pipeline (the
result is the pipeline's, not float attention's). `query` is float32 (B, Lq, D), `key` float32
(B, Lk, D), `value` float32 (B, Lk, Dv), with D, Lk >= 1 (B, Lq may be 0); any of them may be
non-contiguous. All values are finite. No mask, no dropout. The int8 quantizer Q used below is
symmetric with one scale per slice: amax = max |v| over the slice; s = amax / 127 (a float32
division); vq = clamp(round(v / s), -127, 127) with a float32 quotient and round() rounding half
to even (like torch.round: 2.5 -> 2, -3.5 -> -4); vq = 0 where s == 0. Per batch b:
1. Q with one scale per query row: qq[i, d], s_q[i] (over d); K with one scale per key row:
   kq[j, d], s_k[j] (over d); V with one scale per value channel (column): vq[j, c], s_v[c]
   (over j).
2. Logits: S_int[i, j] = sum over d of qq[i, d] * kq[j, d] (exact int32);
   S[i, j] = float32(S_int) * s_q[i] * s_k[j] * c, float32 products left to right, with c the
   float32 value of 1 / sqrt(D).
3. P = softmax of S over j in float32 (P[i, j] = exp(S[i, j] - m_i) / l_i, m_i = max_j S[i, j],
   l_i = sum_j exp(S[i, j] - m_i)).
4. P quantized by Q with one scale per query row: s_p[i] = max_j P[i, j] / 127, pq[i, j] =
   round(P[i, j] / s_p[i]) in [0, 127]. (Since max_j P = 1 / l_i, this is pq = round(127 *
   exp(S[i, j] - m_i)) and s_p[i] = (1 / l_i) / 127, up to float32 roundings the check allows: a
   two-pass kernel can find m_i first and then quantize exp(S - m_i) without normalizing.)
5. O_int[i, c] = sum over j of pq[i, j] * vq[j, c] (exact int32);
   out[b, i, c] = float32(O_int) * s_p[i] * s_v[c] (float32 products, left to right).
The quantizer's divisions (amax / 127, v / s for Q, K, V) are IEEE float32 divisions, correctly
rounded as in PyTorch (in Triton use tl.div_rn:
`/` on float32 compiles to an approximate division on NVIDIA GPUs, up to 2 ulps off even where
the quotient is exact, which breaks the exact ties below).
Return a new float32 (B, Lq, Dv) tensor; the inputs must not be modified. The check tolerates only
what correct implementations of this pipeline can differ by: quantized values of Q, K, V one step
off where their quotient lies within 8 float32 ulps of a rounding tie (exact ties are not excused
when the scale is an exact power of two with amax == 127 * scale), float32 rounding of the logits,
of exp (a few ulps plus |S - m| ulps, as from exp2-based implementations) and of the sum l_i, and
the resulting pq values on either side of a rounding boundary. A different scheme (a fixed 1/127
scale for P, unquantized P or V, per-tensor scales, truncation, float16 accumulation, a missing
1/sqrt(D)) fails.
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


def reference(query, key, value):
    d = query.shape[-1]
    qq, sq = _quantize(query, -1)    # sq: (B, Lq, 1)
    kq, sk = _quantize(key, -1)      # sk: (B, Lk, 1)
    vq, sv = _quantize(value, -2)    # sv: (B, 1, Dv)
    s_int = _int_matmul(qq, kq.transpose(-1, -2))
    logits = s_int.to(F32) * sq * sk.transpose(-1, -2) * (1.0 / math.sqrt(d))
    p = torch.softmax(logits, dim=-1)
    pq, sp = _quantize(p, -1)        # sp: (B, Lq, 1)
    o_int = _int_matmul(pq, vq)
    return o_int.to(F32) * sp * sv


# -- checking ----------------------------------------------------------------------------------------
# The pipeline is re-evaluated in float64 from the reference's own int8 values and float32 scales,
# and every float32 step a correct kernel may round differently is propagated as an interval:
# 1. Q, K, V values one step off where x / s lies within TIE_WINDOW * |x / s| of a rounding tie
#    (another correct formula for the scale or the quotient differs by ~4 float32 ulps; 8 leaves a
#    2x margin; exact ties under an exact power-of-two scale are not excused). They move S_int by
#    at most dS_int = fq @ (|kq| + fk)^T + |qq| @ fk^T and O_int through fv.
# 2. Logits S = S_int * s_q * s_k * c: LOGIT_REL (8 ulps: 4 roundings, the float32 constant c and
#    scales from other formulas, ~8.5 u) times |S|, plus c * s_q * s_k * dS_int. The row maximum
#    moves by at most the largest of these, so z = S - m moves by dz = dS + max_j dS + u |z|.
# 3. exp: EXP_ULPS + |z| ulps relative (libdevice / exp2-based evaluations, whose argument
#    scaling by log2(e) costs about |z| u), and 4 ulps for the P / s_p quotient (or 127 * exp(z)
#    directly). The kernel's unrounded pq value then lies in t * exp(+-rho), t = 127 exp(z) in
#    float64, rho = dz + (EXP_ULPS + 4 + |z|) eps32; pq may be any integer rounding from that
#    interval, so dP = the largest distance from the reference's pq to those integers.
# 4. O_int moves by at most dO = dP @ (|vq| + fv) + pq @ fv; the scale s_p = 1 / (127 l) by the
#    relative error of l = sum_j exp(z_j): sum_j exp(z_j) rho_e,j / l for the terms plus Lk u for a
#    float32 sum of positive terms in any order, plus 4 ulps for 1 / l and / 127.
# 5. out = O_int * s_p * s_v: dequantization DEQ_REL (8 ulps, as in matmul_w8a8).
# A wrong scheme is off by the quantization noise of P or V (1e-3 to 1e-2 relative), far outside.
TIE_WINDOW = 8 * EPS32
LOGIT_REL = 8 * EPS32
EXP_ULPS = 8
DEQ_REL = 8 * EPS32

CHECK_NOTE = (
    "Compared with the quantized pipeline re-evaluated in float64, with every float32 step a correct kernel "
    "may round differently (Q/K/V values within 8 ulps of a rounding tie, logits, exp, the softmax sum, the "
    "P quotient) propagated as an interval to the int8 probabilities and the output: a different "
    "quantization scheme is off by its quantization noise, far outside."
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
    q, k, v = args["query"], args["key"], args["value"]
    if expected.numel() == 0:
        return check_bounded(output, expected.double(), expected.double(), dtype=F32)
    d, lk = q.shape[-1], k.shape[-2]
    eps = EPS32
    qq, sq = _quantize(q, -1)
    kq, sk = _quantize(k, -1)
    vq, sv = _quantize(v, -2)
    fq, fk, fv = _may_flip(q, sq, -1), _may_flip(k, sk, -1), _may_flip(v, sv, -2)
    qq, kq, vq = qq.double(), kq.double(), vq.double()
    c = sq.double() * sk.double().transpose(-1, -2) * float(torch.tensor(1.0 / math.sqrt(d), dtype=F32))
    logits = (qq @ kq.transpose(-1, -2)) * c
    ds = c * (fq @ (kq.abs() + fk).transpose(-1, -2) + qq.abs() @ fk.transpose(-1, -2))
    ds = ds + LOGIT_REL * (logits.abs() + ds)
    z = logits - logits.amax(dim=-1, keepdim=True)
    dz = ds + ds.amax(dim=-1, keepdim=True) + eps * z.abs()
    e = torch.exp(z)
    t = QMAX * e
    rho_e = (dz + (EXP_ULPS + z.abs()) * eps).clamp(max=50.0)
    rho_t = (rho_e + 4 * eps).clamp(max=50.0)
    lo = (t * torch.exp(-rho_t) - 0.5).ceil().clamp(0, QMAX)
    hi = (t * torch.exp(rho_t) + 0.5).floor().clamp(0, QMAX)
    # the reference's own int8 probabilities (what its output is built from)
    p = torch.softmax(((qq @ kq.transpose(-1, -2)).to(F32) * sq * sk.transpose(-1, -2)
                       * (1.0 / math.sqrt(d))), dim=-1)
    pq, _ = _quantize(p, -1)
    pq = pq.double()
    dp = torch.maximum(pq - lo, hi - pq).clamp(min=0)
    o_int = pq @ vq
    do = dp @ (vq.abs() + fv) + pq @ fv
    l = e.sum(dim=-1, keepdim=True)
    rho_l = (e * torch.expm1(rho_e)).sum(dim=-1, keepdim=True) / l + lk * unit_roundoff(F32)
    rho_sp = rho_l + 4 * eps
    scale = sv.double() / (QMAX * l)
    exact = o_int * scale
    bound = (scale * do * (1 + rho_sp) + exact.abs() * (rho_sp + DEQ_REL) + (scale * do) * DEQ_REL
             + torch.finfo(F32).tiny)
    return check_bounded(output, exact, bound, dtype=F32)


def cost(case: Case, output) -> Cost:
    args = bind_arguments(reference, case)
    q, k, v = args["query"], args["key"], args["value"]
    b, lq, d = q.shape
    lk, dv = k.shape[-2], v.shape[-1]
    # Q K^T and P V integer multiply-adds (each once), ~6 per logit (dequantize, max, exp, sum,
    # scale, round), quantization ~4 per input element, 2 per output. Bytes: the float inputs read
    # once and the output written once.
    flops = (2.0 * b * lq * lk * (d + dv) + 6.0 * b * lq * lk + 4.0 * (q.numel() + k.numel() + v.numel())
             + 2.0 * output.numel())
    return Cost(flops=flops, bytes=float(numel_bytes(q) + numel_bytes(k) + numel_bytes(v) + numel_bytes(output)))


def _ties(g: Inputs, batch: int, rows: int, cols: int, e: int):
    """Slices (last dim) whose quotients are exact ties: amax = 127 * 2^e (a power-of-two scale) and
    the other values multiples of 2^(e-1), so x / s = j / 2 for integers j."""
    t = g.randint(-253, 254, batch, rows, cols).to(torch.float64) * 2.0 ** (e - 1)
    t[..., 0] = 127 * 2.0 ** e
    return t[..., g.permutation(cols)].to(F32)


def cases(g: Inputs):
    r = g.randn
    yield Case("b2-l16-d32", r(2, 16, 32), r(2, 16, 32), r(2, 16, 32))
    yield Case("b1-l64-d64", r(1, 64, 64), r(1, 64, 64), r(1, 64, 64))
    yield Case("odd-lq13-lk29-dv40", r(2, 13, 24), r(2, 29, 24), r(2, 29, 40))
    yield Case("long-keys-200", r(1, 20, 48), r(1, 200, 48), r(1, 200, 32))
    yield Case("head-dim-128", r(1, 24, 128), r(1, 40, 128), r(1, 40, 128))
    yield Case("single-key", r(2, 7, 16), r(2, 1, 16), r(2, 1, 16))
    yield Case("single-query", r(3, 1, 32), r(3, 50, 32), r(3, 50, 32))
    yield Case("d1", r(2, 10, 1), r(2, 12, 1), r(2, 12, 8))
    # Peaked (large logits: most probabilities quantize to 0) and diffuse (near-uniform) attention.
    yield Case("peaked", r(2, 16, 32, std=3.0), r(2, 24, 32, std=3.0), r(2, 24, 32))
    yield Case("diffuse", r(2, 16, 32, std=0.1), r(2, 48, 32, std=0.1), r(2, 48, 32))
    # Per-row / per-channel scales matter: magnitudes spread over several decades.
    yield Case("row-and-channel-magnitudes", r(2, 16, 32) * 10.0 ** g.uniform(2, 16, 1, low=-2.0, high=1.0),
               r(2, 20, 32) * 10.0 ** g.uniform(2, 20, 1, low=-2.0, high=1.0),
               r(2, 20, 24) * 10.0 ** g.uniform(2, 1, 24, low=-3.0, high=3.0))
    yield Case("positive-uniform", g.uniform(2, 12, 16), g.uniform(2, 30, 16), g.uniform(2, 30, 16))
    yield Case("outliers", g.heavy_tailed(2, 16, 32), g.heavy_tailed(2, 24, 32), g.heavy_tailed(2, 24, 32, scale=2.0))
    # Exact rounding ties with power-of-two scales (V per column: ties along the key axis).
    yield Case("exact-ties", _ties(g, 2, 12, 32, -2), _ties(g, 2, 20, 32, -3),
               _ties(g, 2, 16, 20, 0).transpose(1, 2).contiguous())
    qz, kz, vz = r(2, 10, 16), r(2, 14, 16), r(2, 14, 12)
    qz[0, [1, 6]] = 0.0
    kz[1, [0, 3, 13]] = 0.0
    vz[:, :, [2, 11]] = 0.0
    yield Case("zero-rows-and-channels", qz, kz, vz)
    # Layouts (the strided gaps hold NaN, so reading them shows).
    yield Case("transposed-key", r(2, 16, 32), g.transposed(r(2, 20, 32)), r(2, 20, 24))
    yield Case("strided", g.strided(r(2, 12, 16)), g.strided(r(2, 18, 16)), g.strided(r(2, 18, 20)))
    yield Case("permuted-batch", r(9, 2, 16).permute(1, 0, 2), r(11, 2, 16).permute(1, 0, 2),
               r(11, 2, 8).permute(1, 0, 2))
    # Extreme magnitudes: huge values (logits in the millions: one-hot rows) and tiny ones.
    yield Case("large-magnitude", r(2, 8, 16, std=1e3), r(2, 12, 16, std=1e3), r(2, 12, 16, std=1e15))
    yield Case("tiny-magnitude", r(2, 8, 16, std=1e-9), r(2, 12, 16, std=1e-9), r(2, 12, 16, std=1e-9))
    yield Case("empty-batch", r(0, 4, 8), r(0, 5, 8), r(0, 5, 8))
    yield Case("empty-queries", r(2, 0, 8), r(2, 5, 8), r(2, 5, 8))


def perf_cases(g: Inputs):
    r = g.randn
    yield Case("b16-l2048-d64", r(16, 2048, 64), r(16, 2048, 64), r(16, 2048, 64))
    yield Case("b8-l4096-d64", r(8, 4096, 64), r(8, 4096, 64), r(8, 4096, 64))
    yield Case("b32-l1024-d128", r(32, 1024, 128), r(32, 1024, 128), r(32, 1024, 128))
    yield Case("b4-l8192-d64", r(4, 8192, 64), r(4, 8192, 64), r(4, 8192, 64))
