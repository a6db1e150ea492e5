import math

import torch
import triton
import triton.language as tl

# How the p-norm of step 1 is accumulated (a constexpr, so each kernel is specialised).
_P_GENERAL, _P_ONE, _P_TWO, _P_INF = 0, 1, 2, 3


def _mode(p: float) -> int:
    p = float(p)
    if math.isinf(p):
        return _P_INF
    return {1.0: _P_ONE, 2.0: _P_TWO}.get(p, _P_GENERAL)


def _next_pow2(n: int) -> int:
    return 1 << max(0, int(n) - 1).bit_length()


@triton.jit
def _pnorm(acc_p, acc_sq, inv_p, axis: tl.constexpr, MODE: tl.constexpr):
    # Finish the p-norm from its per-lane accumulators (MODE 2 reuses the sum of squares).
    if MODE == 2:
        r = tl.sqrt(tl.sum(acc_sq, axis=axis))
    elif MODE == 3:
        r = tl.max(acc_p, axis=axis)
    elif MODE == 1:
        r = tl.sum(acc_p, axis=axis)
    else:
        r = tl.exp2(tl.log2(tl.sum(acc_p, axis=axis)) * inv_p)
    return r


@triton.jit
def _accumulate_p(acc, v, p, MODE: tl.constexpr):
    a = tl.abs(v)
    if MODE == 3:
        acc = tl.maximum(acc, a)
    elif MODE == 1:
        acc += a
    elif MODE == 0:
        acc += tl.exp2(p * tl.log2(a))  # |v|^p; 0 gives 0
    return acc


@triton.jit
def _normalized_cosine_kernel(x1_ptr, x2_ptr, out_ptr, NV, L, INNER,
                              s1o, s1l, s1i, s2o, s2l, s2i, p, inv_p, eps_n, eps_s,
                              MODE: tl.constexpr, BLOCK_V: tl.constexpr, BLOCK_L: tl.constexpr):
    # Inputs are (OUTER, L, INNER) views; vector v = o * INNER + i runs along L. One pass gathers, in
    # fp32 per-lane accumulators, x1.x2, |x1|^2, |x2|^2 and the two p-norm sums; the closed form
    #   a = x1 / d1, d1 = max(||x1||_p, eps_n),  ||a||_2 = ||x1||_2 / d1,
    #   result = (x1.x2) / (d1 max(||a||_2, eps_s)) / (d2 max(||b||_2, eps_s))
    # equals the step-by-step definition without materialising a or b.
    pid = tl.program_id(0)
    v = pid * BLOCK_V + tl.arange(0, BLOCK_V)
    vmask = v < NV
    v64 = v.to(tl.int64)  # int64: offsets may exceed 2**31
    o = v64 // INNER
    i = v64 % INNER
    base1 = o * s1o + i * s1i
    base2 = o * s2o + i * s2i
    dot = tl.zeros([BLOCK_V, BLOCK_L], dtype=tl.float32)
    sq1 = tl.zeros([BLOCK_V, BLOCK_L], dtype=tl.float32)
    sq2 = tl.zeros([BLOCK_V, BLOCK_L], dtype=tl.float32)
    pn1 = tl.zeros([BLOCK_V, BLOCK_L], dtype=tl.float32)
    pn2 = tl.zeros([BLOCK_V, BLOCK_L], dtype=tl.float32)
    for l0 in range(0, L, BLOCK_L):
        ls = (l0 + tl.arange(0, BLOCK_L)).to(tl.int64)
        m = vmask[:, None] & (ls < L)[None, :]
        a = tl.load(x1_ptr + base1[:, None] + ls[None, :] * s1l, mask=m, other=0.0).to(tl.float32)
        b = tl.load(x2_ptr + base2[:, None] + ls[None, :] * s2l, mask=m, other=0.0).to(tl.float32)
        dot += a * b
        sq1 += a * a
        sq2 += b * b
        pn1 = _accumulate_p(pn1, a, p, MODE)
        pn2 = _accumulate_p(pn2, b, p, MODE)
    d = tl.sum(dot, axis=1)
    n1 = _pnorm(pn1, sq1, inv_p, 1, MODE)
    n2 = _pnorm(pn2, sq2, inv_p, 1, MODE)
    d1 = tl.maximum(n1, eps_n)
    d2 = tl.maximum(n2, eps_n)
    c1 = tl.maximum(tl.sqrt(tl.sum(sq1, axis=1)) / d1, eps_s)
    c2 = tl.maximum(tl.sqrt(tl.sum(sq2, axis=1)) / d2, eps_s)
    res = (d / (d1 * c1)) / (d2 * c2)
    tl.store(out_ptr + v64, res, mask=vmask)


def normalized_cosine_similarity(x1, x2, dim=1, eps_similarity=1e-08, p_norm=2, eps_norm=1e-12):
    shape = torch.broadcast_shapes(x1.shape, x2.shape)
    nd = len(shape)
    k = dim % nd
    out_shape = shape[:k] + shape[k + 1:]
    out = torch.empty(out_shape, dtype=torch.float32, device=x1.device)
    outer, L, inner = math.prod(shape[:k]), shape[k], math.prod(shape[k + 1:])
    nv = outer * inner
    if nv == 0:
        return out
    # (OUTER, L, INNER) views of the broadcast inputs (stride 0 along broadcast dimensions; a copy only
    # when the merged dimensions cannot be viewed so).
    a = x1.expand(shape).reshape(outer, L, inner)
    b = x2.expand(shape).reshape(outer, L, inner)
    mode = _mode(p_norm)
    if inner == 1:  # vectors contiguous along L: tiles span L
        block_l = min(256, max(16, _next_pow2(L)))
        block_v = max(1, min(2048 // block_l, _next_pow2(nv)))
    else:  # neighbouring vectors are adjacent in memory: tiles span vectors
        block_v = min(64, _next_pow2(nv))
        block_l = min(max(16, 2048 // block_v), max(16, _next_pow2(L)))
    _normalized_cosine_kernel[(triton.cdiv(nv, block_v),)](
        a, b, out, nv, L, inner, a.stride(0), a.stride(1), a.stride(2), b.stride(0), b.stride(1), b.stride(2),
        float(p_norm) if mode == _P_GENERAL else 1.0, 1.0 / float(p_norm) if mode == _P_GENERAL else 1.0,
        float(eps_norm), float(eps_similarity), MODE=mode, BLOCK_V=block_v, BLOCK_L=block_l, num_warps=4)
    return out
