import math

import torch
import triton
import triton.language as tl

_TILE = 4096          # elements of one [BLOCK_R, BLOCK_D] tile
_MAX_BLOCK_D = 1024   # longer rows are streamed in chunks


@triton.jit
def _pow_abs(v, p, MODE: tl.constexpr):
    # |v|^p for the norm's terms: MODE 1 -> p = 1, 2 -> p = 2, 3 -> p = inf (the value itself, to be
    # max-reduced), 0 -> general p > 0 as 2^(p log2|v|) (0 stays 0: log2(0) = -inf).
    a = tl.abs(v)
    if MODE == 1:
        return a
    elif MODE == 2:
        return a * a
    elif MODE == 3:
        return a
    else:
        return tl.exp2(p * tl.log2(a))


@triton.jit
def _reduce(t, MODE: tl.constexpr):
    if MODE == 3:
        return tl.max(t, axis=1)
    else:
        return tl.sum(t, axis=1)


@triton.jit
def _root(s, p, MODE: tl.constexpr):
    if MODE == 1:
        return s
    elif MODE == 2:
        return tl.sqrt(s)
    elif MODE == 3:
        return s
    else:
        return tl.where(s > 0.0, tl.exp2(tl.log2(s) / p), 0.0)


@triton.jit
def _pd_normalize_kernel(a_ptr, b_ptr, out_ptr, R, D, sar, sad, sbr, sbd, p, eps_norm, eps_dist,
                         MODE: tl.constexpr, BLOCK_R: tl.constexpr, BLOCK_D: tl.constexpr):
    # Sweep 1 takes both rows' p-norms, sweep 2 (from cache) the norm of a/|a| - b/|b| + eps: the
    # normalized rows exist only in registers.
    pid = tl.program_id(0)
    r = pid.to(tl.int64) * BLOCK_R + tl.arange(0, BLOCK_R)
    rmask = r < R
    cols = tl.arange(0, BLOCK_D)
    sa = tl.zeros([BLOCK_R], dtype=tl.float32)
    sb = tl.zeros([BLOCK_R], dtype=tl.float32)
    for d0 in range(0, D, BLOCK_D):
        d = (d0 + cols).to(tl.int64)
        mask = rmask[:, None] & (d < D)[None, :]
        a = tl.load(a_ptr + (r * sar)[:, None] + d[None, :] * sad, mask=mask, other=0.0)
        b = tl.load(b_ptr + (r * sbr)[:, None] + d[None, :] * sbd, mask=mask, other=0.0)
        if MODE == 3:
            sa = tl.maximum(sa, _reduce(_pow_abs(a, p, MODE), MODE))
            sb = tl.maximum(sb, _reduce(_pow_abs(b, p, MODE), MODE))
        else:
            sa += _reduce(_pow_abs(a, p, MODE), MODE)
            sb += _reduce(_pow_abs(b, p, MODE), MODE)
    inv_a = 1.0 / tl.maximum(_root(sa, p, MODE), eps_norm)
    inv_b = 1.0 / tl.maximum(_root(sb, p, MODE), eps_norm)
    acc = tl.zeros([BLOCK_R], dtype=tl.float32)
    for d0 in range(0, D, BLOCK_D):
        d = (d0 + cols).to(tl.int64)
        mask = rmask[:, None] & (d < D)[None, :]
        a = tl.load(a_ptr + (r * sar)[:, None] + d[None, :] * sad, mask=mask, other=0.0)
        b = tl.load(b_ptr + (r * sbr)[:, None] + d[None, :] * sbd, mask=mask, other=0.0)
        diff = tl.where(mask, a * inv_a[:, None] - b * inv_b[:, None] + eps_dist, 0.0)
        if MODE == 3:
            acc = tl.maximum(acc, _reduce(_pow_abs(diff, p, MODE), MODE))
        else:
            acc += _reduce(_pow_abs(diff, p, MODE), MODE)
    tl.store(out_ptr + r, _root(acc, p, MODE), mask=rmask)


def fused_pairwise_distance_normalize(x1, x2, p_norm=2.0, eps_norm=1e-12, eps_distance=1e-06, keepdim=False):
    if x1.dim() != 2 or x1.shape != x2.shape:
        raise NotImplementedError("x1 and x2 must be (N, D) matrices of one shape")
    R, D = x1.shape
    p = float(p_norm)
    if p <= 0:
        raise ValueError("p_norm must be positive")
    mode = 3 if math.isinf(p) else 1 if p == 1.0 else 2 if p == 2.0 else 0
    out = torch.empty((R, 1) if keepdim else (R,), dtype=torch.float32, device=x1.device)
    BLOCK_D = min(triton.next_power_of_2(max(D, 1)), _MAX_BLOCK_D)
    BLOCK_R = max(1, min(_TILE // BLOCK_D, triton.next_power_of_2(max(R, 1))))
    if R:
        _pd_normalize_kernel[(triton.cdiv(R, BLOCK_R),)](
            x1, x2, out, R, D, x1.stride(0), x1.stride(1), x2.stride(0), x2.stride(1),
            p if mode == 0 else 1.0, float(eps_norm), float(eps_distance),
            MODE=mode, BLOCK_R=BLOCK_R, BLOCK_D=BLOCK_D, num_warps=8)
    return out
