import math

import torch
import triton
import triton.language as tl

# How |v|^p is formed and combined (a constexpr, so each kernel is specialised per norm).
_P_GENERAL, _P_ONE, _P_TWO, _P_INF = 0, 1, 2, 3


def _mode(p: float) -> int:
    p = float(p)
    if math.isinf(p):
        return _P_INF
    return {1.0: _P_ONE, 2.0: _P_TWO}.get(p, _P_GENERAL)


def _next_pow2(n: int) -> int:
    return 1 << max(0, int(n) - 1).bit_length()


@triton.jit
def _pow_abs(a, p, MODE: tl.constexpr):
    # |v|^p for a = |v| >= 0 (MODE 3, the max-norm, uses a itself).
    if MODE == 2:
        r = a * a
    elif MODE == 0:
        r = tl.exp2(p * tl.log2(a))  # log2(0) = -inf gives 0; NaN stays NaN
    else:
        r = a
    return r


@triton.jit
def _root(s, inv_p, MODE: tl.constexpr):
    if MODE == 2:
        r = tl.sqrt(s)
    elif MODE == 0:
        r = tl.exp2(tl.log2(s) * inv_p)
    else:
        r = s
    return r


@triton.jit
def _row_distance_kernel(x1_ptr, x2_ptr, d_ptr, R, D, s1r, s1d, s2r, s2d, p, inv_p, eps_d,
                         MODE: tl.constexpr, BLOCK_R: tl.constexpr, BLOCK_D: tl.constexpr):
    # d[r] = ||x1[r, :] - x2[r, :]||_p + eps_d for BLOCK_R rows; fp32 per-lane accumulators,
    # reduced once per row at the end.
    pid = tl.program_id(0)
    rows = pid * BLOCK_R + tl.arange(0, BLOCK_R)
    rmask = rows < R
    r64 = rows.to(tl.int64)  # int64: R * D may exceed 2**31
    acc = tl.zeros([BLOCK_R, BLOCK_D], dtype=tl.float32)
    nans = tl.zeros([BLOCK_R, BLOCK_D], dtype=tl.int32)
    for d0 in range(0, D, BLOCK_D):
        cols = d0 + tl.arange(0, BLOCK_D)
        m = rmask[:, None] & (cols < D)[None, :]
        c64 = cols.to(tl.int64)
        a = tl.load(x1_ptr + r64[:, None] * s1r + c64[None, :] * s1d, mask=m, other=0.0).to(tl.float32)
        b = tl.load(x2_ptr + r64[:, None] * s2r + c64[None, :] * s2d, mask=m, other=0.0).to(tl.float32)
        diff = tl.abs(a - b)
        if MODE == 3:
            # A max may drop NaN on the GPU: count NaNs on the side.
            acc = tl.maximum(acc, diff)
            nans += (diff != diff).to(tl.int32)
        else:
            acc += _pow_abs(diff, p, MODE)
    if MODE == 3:
        dist = tl.max(acc, axis=1)
        dist = tl.where(tl.sum(nans, axis=1) > 0, float("nan"), dist)
    else:
        dist = _root(tl.sum(acc, axis=1), inv_p, MODE)
    tl.store(d_ptr + rows, dist + eps_d, mask=rmask)


@triton.jit
def _normalize_kernel(d_ptr, out_ptr, L, INNER, p, inv_p, eps_n,
                      MODE: tl.constexpr, BLOCK_L: tl.constexpr, BLOCK_I: tl.constexpr):
    # d is contiguous (OUTER, L, INNER); program (o, ib) normalizes the INNER columns
    # [ib*BLOCK_I, (ib+1)*BLOCK_I) of outer index o along L: out = d / max(||d||_p, eps_n).
    o = tl.program_id(0)
    inner = tl.program_id(1) * BLOCK_I + tl.arange(0, BLOCK_I)
    imask = inner < INNER
    base = o.to(tl.int64) * L * INNER
    acc = tl.zeros([BLOCK_L, BLOCK_I], dtype=tl.float32)
    nans = tl.zeros([BLOCK_L, BLOCK_I], dtype=tl.int32)
    for l0 in range(0, L, BLOCK_L):
        ls = l0 + tl.arange(0, BLOCK_L)
        m = (ls < L)[:, None] & imask[None, :]
        offs = base + ls[:, None].to(tl.int64) * INNER + inner[None, :]
        a = tl.abs(tl.load(d_ptr + offs, mask=m, other=0.0))
        if MODE == 3:
            acc = tl.maximum(acc, a)
            nans += (a != a).to(tl.int32)
        else:
            acc += _pow_abs(a, p, MODE)
    if MODE == 3:
        nrm = tl.max(acc, axis=0)
        nrm = tl.where(tl.sum(nans, axis=0) > 0, float("nan"), nrm)
    else:
        nrm = _root(tl.sum(acc, axis=0), inv_p, MODE)
    # clamp(min=eps) keeps NaN (tl.maximum might not).
    denom = tl.where(nrm != nrm, nrm, tl.maximum(nrm, eps_n))
    for l0 in range(0, L, BLOCK_L):
        ls = l0 + tl.arange(0, BLOCK_L)
        m = (ls < L)[:, None] & imask[None, :]
        offs = base + ls[:, None].to(tl.int64) * INNER + inner[None, :]
        v = tl.load(d_ptr + offs, mask=m, other=0.0)
        tl.store(out_ptr + offs, v / denom[None, :], mask=m)


def normalize_pairwise_distance(x1, x2, p_distance=2.0, eps_distance=1e-06, keepdim=False, p_norm=2,
                                dim_norm=1, eps_norm=1e-12):
    assert x1.shape == x2.shape and x1.dim() >= 2, "x1 and x2 must have the same shape (..., D)"
    D = x1.shape[-1]
    lead = tuple(x1.shape[:-1])
    dshape = lead + ((1,) if keepdim else ())
    dim = dim_norm % len(dshape)
    R = math.prod(lead)
    out = torch.empty(dshape, dtype=torch.float32, device=x1.device)
    if R == 0:
        return out
    # (R, D) views (a copy only for layouts that cannot be viewed so).
    a = x1.reshape(R, D)
    b = x2.reshape(R, D)
    d = torch.empty(dshape, dtype=torch.float32, device=x1.device)
    md = _mode(p_distance)
    block_d = min(128, max(16, _next_pow2(D)))
    block_r = max(1, 4096 // block_d)
    _row_distance_kernel[(triton.cdiv(R, block_r),)](
        a, b, d, R, D, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
        float(p_distance) if md == _P_GENERAL else 1.0, 1.0 / float(p_distance) if md == _P_GENERAL else 1.0,
        float(eps_distance), MODE=md, BLOCK_R=block_r, BLOCK_D=block_d, num_warps=4)
    L = dshape[dim]
    outer = math.prod(dshape[:dim])
    inner = math.prod(dshape[dim + 1:])
    mn = _mode(p_norm)
    block_i = min(64, _next_pow2(inner))
    block_l = min(max(1, 4096 // block_i), _next_pow2(L))
    _normalize_kernel[(outer, triton.cdiv(inner, block_i))](
        d, out, L, inner, float(p_norm) if mn == _P_GENERAL else 1.0,
        1.0 / float(p_norm) if mn == _P_GENERAL else 1.0, float(eps_norm),
        MODE=mn, BLOCK_L=block_l, BLOCK_I=block_i, num_warps=4)
    return out
