import math

import torch
import triton
import triton.language as tl


@triton.jit
def _attention_kernel(q_ptr, k_ptr, v_ptr, o_ptr, qk_scale, H, SQ, SK, D, DV,
                      sqb, sqh, sqm, sqd, skb, skh, skn, skd,
                      svb, svh, svn, svd, sob, soh, som, sod,
                      CAUSAL: tl.constexpr, IEEE: tl.constexpr, BLOCK_M: tl.constexpr,
                      BLOCK_N: tl.constexpr, BLOCK_D: tl.constexpr, BLOCK_DV: tl.constexpr):
    # Flash attention forward for BLOCK_M queries of one (batch, head): the keys and values are
    # streamed in BLOCK_N blocks with an online softmax (running row maximum m_i, running sum l_i,
    # the accumulator rescaled whenever the maximum grows), so the (SQ, SK) score matrix never
    # exists in memory. Scores are kept in base 2: qk_scale already holds softmax_scale * log2(e).
    pid_m = tl.program_id(0)
    bh = tl.program_id(1)
    b = (bh // H).to(tl.int64)
    h = (bh % H).to(tl.int64)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, BLOCK_D)
    offs_dv = tl.arange(0, BLOCK_DV)
    m_mask = offs_m < SQ
    d_mask = offs_d < D
    dv_mask = offs_dv < DV

    q = tl.load(q_ptr + b * sqb + h * sqh + offs_m[:, None].to(tl.int64) * sqm + offs_d[None, :] * sqd,
                mask=m_mask[:, None] & d_mask[None, :], other=0.0)
    k_base = k_ptr + b * skb + h * skh + offs_d[:, None] * skd
    v_base = v_ptr + b * svb + h * svh + offs_dv[None, :] * svd

    m_i = tl.full((BLOCK_M,), float("-inf"), tl.float32)
    l_i = tl.zeros((BLOCK_M,), tl.float32)
    acc = tl.zeros((BLOCK_M, BLOCK_DV), tl.float32)
    hi = SK
    if CAUSAL:  # query i sees keys 0..i: blocks past the last query of this tile are skipped
        hi = tl.minimum(SK, (pid_m + 1) * BLOCK_M)
    for start_n in range(0, hi, BLOCK_N):
        cols = start_n + offs_n
        n_mask = cols < SK
        k = tl.load(k_base + cols[None, :].to(tl.int64) * skn, mask=d_mask[:, None] & n_mask[None, :], other=0.0)
        if IEEE:  # float32 inputs: true float32 products (TF32 would round them to 10 bits)
            s = tl.dot(q, k, input_precision="ieee")
        else:
            s = tl.dot(q, k)
        s = s * qk_scale
        valid = n_mask[None, :]
        if CAUSAL:
            valid = valid & (cols[None, :] <= offs_m[:, None])
        s = tl.where(valid, s, float("-inf"))
        # every row has a valid key in the first block (key 0), so m_new is finite from there on
        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        alpha = tl.exp2(m_i - m_new)
        p = tl.exp2(s - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, axis=1)
        acc = acc * alpha[:, None]
        v = tl.load(v_base + cols[:, None].to(tl.int64) * svn, mask=n_mask[:, None] & dv_mask[None, :], other=0.0)
        if IEEE:
            acc = tl.dot(p, v, acc, input_precision="ieee", out_dtype=tl.float32)
        else:  # probabilities rounded to the inputs' 16-bit type for the tensor cores, float32 accumulator
            acc = tl.dot(p.to(v.dtype), v, acc, out_dtype=tl.float32)
        m_i = m_new
    # seq_k = 0: no key at all, l_i = 0 and the accumulator is the empty product, 0
    acc = acc / tl.where(l_i > 0.0, l_i, 1.0)[:, None]
    o_ptrs = o_ptr + b * sob + h * soh + offs_m[:, None].to(tl.int64) * som + offs_dv[None, :] * sod
    tl.store(o_ptrs, acc.to(o_ptr.dtype.element_ty), mask=m_mask[:, None] & dv_mask[None, :])


def attention(q, k, v, causal=False, softmax_scale=None, *, out=None):
    if q.dim() != 4 or k.dim() != 4 or v.dim() != 4:
        raise RuntimeError("attention: q, k and v must be (batch, heads, seq, head_dim) tensors")
    B, H, SQ, D = q.shape
    SK, DV = k.shape[2], v.shape[3]
    if k.shape[3] != D or v.shape[2] != SK:
        raise RuntimeError(f"attention: shapes {tuple(q.shape)}, {tuple(k.shape)}, {tuple(v.shape)} do not match")
    scale = 1.0 / math.sqrt(D) if softmax_scale is None else float(softmax_scale)
    o = out if out is not None else torch.empty((B, H, SQ, DV), dtype=q.dtype, device=q.device)
    if o.numel() == 0:
        return o
    is_f32 = q.dtype == torch.float32
    BLOCK_D = max(16, triton.next_power_of_2(D))
    BLOCK_DV = max(16, triton.next_power_of_2(DV))
    if is_f32 or max(BLOCK_D, BLOCK_DV) > 128:
        BLOCK_M, BLOCK_N, warps, stages = 64, 32, 4, 2
    else:
        BLOCK_M, BLOCK_N, warps, stages = 128, 64, 8, 3
    grid = (triton.cdiv(SQ, BLOCK_M), B * H)
    _attention_kernel[grid](
        q, k, v, o, scale * 1.4426950408889634, H, SQ, SK, D, DV,
        *q.stride(), *k.stride(), *v.stride(), *o.stride(),
        CAUSAL=bool(causal), IEEE=is_f32, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N,
        BLOCK_D=BLOCK_D, BLOCK_DV=BLOCK_DV, num_warps=warps, num_stages=stages)
    return o
