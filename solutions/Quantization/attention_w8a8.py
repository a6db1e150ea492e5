import math

import torch
import triton
import triton.language as tl

# 1.5 * 2^23: adding and subtracting it rounds a float32 |v| < 2^22 to an integer, half to even
# (the float32 addition itself rounds to nearest even); portable (no libdevice) and exact.
_RNE_MAGIC = tl.constexpr(12582912.0)


@triton.jit
def _quantize_groups_kernel(src_ptr, q_ptr, scale_ptr, G, E,
                            s_b, s_g, s_e, q_b, q_g, q_e,
                            BLOCK_G: tl.constexpr, BLOCK_E: tl.constexpr):
    # Symmetric int8 quantization with one scale per group (rows of Q and K, columns of V) of
    # batch program_id(1). Pass 1: amax (exact in any order), scale = amax / 127 correctly rounded;
    # pass 2: q = rne(v / scale) in [-127, 127].
    pid = tl.program_id(0)
    bat = tl.program_id(1).to(tl.int64)
    src_ptr += bat * s_b
    q_ptr += bat * q_b
    scale_ptr += bat * G
    g = pid * BLOCK_G + tl.arange(0, BLOCK_G)
    g_mask = g < G
    g64 = g.to(tl.int64)
    amax = tl.zeros([BLOCK_G], dtype=tl.float32)
    for e0 in range(0, E, BLOCK_E):
        e = e0 + tl.arange(0, BLOCK_E)
        mask = g_mask[:, None] & (e < E)[None, :]
        v = tl.load(src_ptr + g64[:, None] * s_g + e.to(tl.int64)[None, :] * s_e, mask=mask, other=0.0)
        amax = tl.maximum(amax, tl.max(tl.abs(v), axis=1))
    scale = tl.div_rn(amax, tl.full([BLOCK_G], 127.0, tl.float32))
    tl.store(scale_ptr + g, scale, mask=g_mask)
    nonzero = scale > 0.0
    safe = tl.where(nonzero, scale, 1.0)
    for e0 in range(0, E, BLOCK_E):
        e = e0 + tl.arange(0, BLOCK_E)
        mask = g_mask[:, None] & (e < E)[None, :]
        v = tl.load(src_ptr + g64[:, None] * s_g + e.to(tl.int64)[None, :] * s_e, mask=mask, other=0.0)
        t = tl.div_rn(v, safe[:, None])
        t = (t + _RNE_MAGIC) - _RNE_MAGIC
        t = tl.minimum(tl.maximum(t, -127.0), 127.0)
        t = tl.where(nonzero[:, None], t, 0.0)
        tl.store(q_ptr + g64[:, None] * q_g + e.to(tl.int64)[None, :] * q_e, t.to(tl.int8), mask=mask)


@triton.jit
def _attention_w8a8_kernel(qq_ptr, kq_ptr, vq_ptr, sq_ptr, sk_ptr, sv_ptr, o_ptr,
                           LQ, LK, D, DV, sm_scale,
                           BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                           BLOCK_D: tl.constexpr, BLOCK_DV: tl.constexpr):
    # One program per (query block, batch); int8 operands are contiguous (B, L, D) / (B, LK, DV).
    # Pass 1: row maxima m of the float32 logits S = ((S_int * s_q) * s_k) * c over all keys.
    # Pass 2: e = exp(S - m), l = sum e, pq = rne(127 e) (the quantized softmax with its per-row
    # scale (1 / l) / 127: normalizing first would give the same integers up to float32 rounding),
    # O_int += pq @ vq on the int8 tensor cores. Epilogue: (O_int * s_p) * s_v.
    pid_m = tl.program_id(0)
    bat = tl.program_id(1).to(tl.int64)
    qq_ptr += bat * LQ * D
    kq_ptr += bat * LK * D
    vq_ptr += bat * LK * DV
    sq_ptr += bat * LQ
    sk_ptr += bat * LK
    sv_ptr += bat * DV
    o_ptr += bat * LQ * DV

    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    m_mask = rm < LQ
    rd = tl.arange(0, BLOCK_D)
    rdv = tl.arange(0, BLOCK_DV)
    qt = tl.load(qq_ptr + rm.to(tl.int64)[:, None] * D + rd[None, :],
                 mask=m_mask[:, None] & (rd < D)[None, :], other=0)
    sq = tl.load(sq_ptr + rm, mask=m_mask, other=0.0)

    m_i = tl.full([BLOCK_M], float("-inf"), dtype=tl.float32)
    for n0 in range(0, LK, BLOCK_N):
        rn = n0 + tl.arange(0, BLOCK_N)
        n_mask = rn < LK
        kt = tl.load(kq_ptr + rn.to(tl.int64)[None, :] * D + rd[:, None],
                     mask=n_mask[None, :] & (rd < D)[:, None], other=0)
        s_int = tl.dot(qt, kt)  # int8 x int8 -> int32
        sk = tl.load(sk_ptr + rn, mask=n_mask, other=0.0)
        s = ((s_int.to(tl.float32) * sq[:, None]) * sk[None, :]) * sm_scale
        s = tl.where(n_mask[None, :], s, float("-inf"))
        m_i = tl.maximum(m_i, tl.max(s, axis=1))

    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, BLOCK_DV], dtype=tl.int32)
    for n0 in range(0, LK, BLOCK_N):
        rn = n0 + tl.arange(0, BLOCK_N)
        n_mask = rn < LK
        kt = tl.load(kq_ptr + rn.to(tl.int64)[None, :] * D + rd[:, None],
                     mask=n_mask[None, :] & (rd < D)[:, None], other=0)
        s_int = tl.dot(qt, kt)
        sk = tl.load(sk_ptr + rn, mask=n_mask, other=0.0)
        s = ((s_int.to(tl.float32) * sq[:, None]) * sk[None, :]) * sm_scale
        e = tl.exp(s - m_i[:, None])
        e = tl.where(n_mask[None, :], e, 0.0)
        l_i += tl.sum(e, axis=1)
        p = (e * 127.0 + _RNE_MAGIC) - _RNE_MAGIC
        vt = tl.load(vq_ptr + rn.to(tl.int64)[:, None] * DV + rdv[None, :],
                     mask=n_mask[:, None] & (rdv < DV)[None, :], other=0)
        acc = tl.dot(p.to(tl.int8), vt, acc, out_dtype=tl.int32)

    one = tl.full([BLOCK_M], 1.0, tl.float32)
    sp = tl.div_rn(tl.div_rn(one, tl.where(m_mask, l_i, 1.0)), tl.full([BLOCK_M], 127.0, tl.float32))
    sv = tl.load(sv_ptr + rdv, mask=rdv < DV, other=0.0)
    out = (acc.to(tl.float32) * sp[:, None]) * sv[None, :]
    tl.store(o_ptr + rm.to(tl.int64)[:, None] * DV + rdv[None, :], out,
             mask=m_mask[:, None] & (rdv < DV)[None, :])


def _quantize(t, groups_dim, dev):
    # one group per row (groups_dim=1: slices over the last dim) or per column (groups_dim=2:
    # slices over dim 1); the int8 copy is contiguous in t's shape
    B, L, C = t.shape
    q = torch.empty((B, L, C), dtype=torch.int8, device=dev)
    if groups_dim == 1:
        scale = torch.empty((B, L), dtype=torch.float32, device=dev)
        if B and L and C:
            _quantize_groups_kernel[(triton.cdiv(L, 16), B)](
                t, q, scale, L, C, t.stride(0), t.stride(1), t.stride(2), L * C, C, 1,
                BLOCK_G=16, BLOCK_E=128)
    else:
        scale = torch.empty((B, C), dtype=torch.float32, device=dev)
        if B and L and C:
            _quantize_groups_kernel[(triton.cdiv(C, 64), B)](
                t, q, scale, C, L, t.stride(0), t.stride(2), t.stride(1), L * C, 1, C,
                BLOCK_G=64, BLOCK_E=32)
    return q, scale


def attention_w8a8(query, key, value):
    if query.dim() != 3 or key.dim() != 3 or value.dim() != 3:
        raise ValueError("attention_w8a8 expects query (B, Lq, D), key (B, Lk, D), value (B, Lk, Dv)")
    B, LQ, D = query.shape
    LK, DV = key.shape[1], value.shape[2]
    dev = query.device
    out = torch.empty((B, LQ, DV), dtype=torch.float32, device=dev)
    if B == 0 or LQ == 0 or DV == 0:
        return out
    qq, sq = _quantize(query, 1, dev)
    kq, sk = _quantize(key, 1, dev)
    vq, sv = _quantize(value, 2, dev)
    BLOCK_D = max(32, triton.next_power_of_2(D))
    BLOCK_DV = max(32, triton.next_power_of_2(DV))
    BLOCK_M = 128 if LQ >= 128 else 64
    BLOCK_N = 64
    grid = (triton.cdiv(LQ, BLOCK_M), B)
    _attention_w8a8_kernel[grid](qq, kq, vq, sq, sk, sv, out, LQ, LK, D, DV, 1.0 / math.sqrt(D),
                                 BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_D=BLOCK_D, BLOCK_DV=BLOCK_DV,
                                 num_warps=8 if BLOCK_M >= 128 else 4, num_stages=2)
    return out
