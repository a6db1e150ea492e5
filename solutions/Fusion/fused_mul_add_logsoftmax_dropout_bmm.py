import os

import torch
import triton
import triton.language as tl


@triton.jit
def _lse_kernel(a_ptr, b_ptr, c_ptr, lse_ptr, ROWS, Y, R,
                sax, say, sar, sbx, sby, sbr, scx, scy, scr,
                BLOCK_ROWS: tl.constexpr, BLOCK_R: tl.constexpr):
    # log-sum-exp of s = a * b + c along the reduced dim (last after the wrapper's permutation),
    # online: a running max and a sum rescaled whenever the max grows. One row per (x, y).
    pid = tl.program_id(0)
    rows = pid * BLOCK_ROWS + tl.arange(0, BLOCK_ROWS)
    rmask = rows < ROWS
    x = (rows // Y).to(tl.int64)
    y = (rows % Y).to(tl.int64)
    a_row = x * sax + y * say
    b_row = x * sbx + y * sby
    c_row = x * scx + y * scy
    m = tl.full((BLOCK_ROWS,), float("-inf"), dtype=tl.float32)
    total = tl.zeros((BLOCK_ROWS,), dtype=tl.float32)
    for r0 in range(0, R, BLOCK_R):
        cols = r0 + tl.arange(0, BLOCK_R)
        msk = rmask[:, None] & (cols[None, :] < R)
        a = tl.load(a_ptr + a_row[:, None] + cols[None, :] * sar, mask=msk, other=0.0)
        b = tl.load(b_ptr + b_row[:, None] + cols[None, :] * sbr, mask=msk, other=0.0)
        c = tl.load(c_ptr + c_row[:, None] + cols[None, :] * scr, mask=msk, other=0.0)
        s = tl.where(msk, a * b + c, float("-inf"))
        m_new = tl.maximum(m, tl.max(s, axis=1))
        m_safe = tl.where(m_new == float("-inf"), 0.0, m_new)  # padding rows: no -inf - -inf
        total = total * tl.exp(m - m_safe) + tl.sum(tl.exp(s - m_safe[:, None]), axis=1)
        m = m_new
    tl.store(lse_ptr + rows, m + tl.log(total), mask=rmask)


@triton.jit(do_not_specialize=["seed", "p", "scale"])
def _logsoftmax_dropout_bmm_kernel(a_ptr, b_ptr, c_ptr, lse_ptr, w_ptr, y_ptr, N, K, P,
                                   sab, san, sak, sbb, sbn, sbk, scb, scn, sck, slb, sln, slk,
                                   swb, swk, swp, syb, syn, syp, seed, p, scale,
                                   TRAINING: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_P: tl.constexpr,
                                   BLOCK_K: tl.constexpr):
    # The log-softmax'ed, dropped-out left operand is built tile by tile in registers and fed
    # straight to tl.dot: it never goes to memory.
    pid_n = tl.program_id(0)
    pid_p = tl.program_id(1)
    bid = tl.program_id(2).to(tl.int64)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rp = pid_p * BLOCK_P + tl.arange(0, BLOCK_P)
    rk = tl.arange(0, BLOCK_K)
    rn64 = rn.to(tl.int64)
    acc = tl.zeros((BLOCK_N, BLOCK_P), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        kk = k0 + rk
        msk = (rn[:, None] < N) & (kk[None, :] < K)
        a = tl.load(a_ptr + bid * sab + rn64[:, None] * san + kk[None, :] * sak, mask=msk, other=0.0)
        b = tl.load(b_ptr + bid * sbb + rn64[:, None] * sbn + kk[None, :] * sbk, mask=msk, other=0.0)
        c = tl.load(c_ptr + bid * scb + rn64[:, None] * scn + kk[None, :] * sck, mask=msk, other=0.0)
        lse = tl.load(lse_ptr + bid * slb + rn64[:, None] * sln + kk[None, :] * slk, mask=msk, other=0.0)
        d = a * b + c - lse
        if TRAINING:
            offs = (bid * N + rn64[:, None]) * K + kk[None, :]  # flat index in the (B, N, K) tensor
            r = tl.rand(seed, offs)
            d = tl.where(r >= p, d * scale, 0.0)
        d = tl.where(msk, d, 0.0)
        w = tl.load(w_ptr + bid * swb + kk[:, None] * swk + rp[None, :] * swp,
                    mask=(kk[:, None] < K) & (rp[None, :] < P), other=0.0)
        acc = tl.dot(d, w, acc, input_precision="ieee", out_dtype=tl.float32)
    tl.store(y_ptr + bid * syb + rn64[:, None] * syn + rp[None, :] * syp, acc,
             mask=(rn[:, None] < N) & (rp[None, :] < P))


def fused_mul_add_logsoftmax_dropout_bmm(input1, input2, other, mat2, p=0.5, training=True, inplace=False, dim=-1,
                                         *, out=None):
    # `inplace` concerns only the internal log-softmax result, which is never materialised here.
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    shape = torch.broadcast_shapes(input1.shape, input2.shape, other.shape)
    if len(shape) != 3:
        raise ValueError(f"the inputs must broadcast to a 3-D tensor, got {tuple(shape)}")
    if not -3 <= dim < 3:
        raise IndexError(f"dim {dim} out of range for a 3-D tensor")
    B, N, K = shape
    P = mat2.shape[2]
    y = out if out is not None else torch.empty((B, N, P), dtype=input1.dtype, device=input1.device)
    if B == 0 or N == 0 or P == 0:
        return y
    if K == 0:
        y.zero_()  # an empty product: zeros
        return y
    a, b, c = (t.expand(shape) for t in (input1, input2, other))  # views, broadcast dims have stride 0
    # log-sum-exp along `dim`: permute that dim last, one row of the reduction per remaining index
    dim = dim % 3
    ap, bp, cp = (t.movedim(dim, -1) for t in (a, b, c))
    X, Y, R = ap.shape
    stats = torch.empty((X, Y), dtype=torch.float32, device=input1.device)
    BLOCK_ROWS, BLOCK_R = 16, 64
    _lse_kernel[(triton.cdiv(X * Y, BLOCK_ROWS),)](
        ap, bp, cp, stats, X * Y, Y, R, *ap.stride(), *bp.stride(), *cp.stride(),
        BLOCK_ROWS=BLOCK_ROWS, BLOCK_R=BLOCK_R)
    lse = stats.unsqueeze(dim).expand(shape)  # the same value all along `dim`
    seed = int.from_bytes(os.urandom(4), "little") & 0x7FFFFFFF
    scale = 0.0 if p >= 1.0 else 1.0 / (1.0 - p)
    BN, BP, BK = 64, 64, 32
    grid = (triton.cdiv(N, BN), triton.cdiv(P, BP), B)
    _logsoftmax_dropout_bmm_kernel[grid](
        a, b, c, lse, mat2, y, N, K, P, *a.stride(), *b.stride(), *c.stride(), *lse.stride(), *mat2.stride(),
        *y.stride(), seed, float(p), scale, TRAINING=bool(training), BLOCK_N=BN, BLOCK_P=BP, BLOCK_K=BK,
        num_warps=4)
    return y
