import math

import torch
import triton
import triton.language as tl

_BLOCK_M = 32     # rows of y per program: n / 32 programs keep an H200 busy from n ~ 4096 on
_BLOCK_N = 128    # columns of A per loaded tile
_BLOCK_P = 1024   # partials summed per step of the final reduction

# How |y_i|^p is formed and the partials combined (a constexpr, so each kernel is specialised).
_P_GENERAL, _P_ONE, _P_TWO, _P_INF = 0, 1, 2, 3


@triton.jit
def _symv_norm_partial_kernel(a_ptr, x_ptr, part_ptr, nan_ptr, n, s_am, s_an, s_x, alpha, beta, p,
                              P_MODE: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # Program i computes y for rows [i*BLOCK_M, (i+1)*BLOCK_M) -- y_r = sum_c A[r, c] x[c] in fp32
    # -- and writes one partial of the norm: sum_r |y_r|^p, or max_r |y_r| for p = inf (then it also
    # counts NaNs, since a max may drop them). The partials are combined by a second kernel, so the
    # result does not depend on scheduling (no atomics).
    pid = tl.program_id(0)
    rows = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    row_mask = rows < n
    row_off = rows.to(tl.int64) * s_am  # int64: n * n may exceed 2**31
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for c0 in range(0, n, BLOCK_N):
        cols = c0 + tl.arange(0, BLOCK_N)
        col_mask = cols < n
        a = tl.load(a_ptr + row_off[:, None] + cols[None, :].to(tl.int64) * s_an,
                    mask=row_mask[:, None] & col_mask[None, :], other=0.0).to(tl.float32)
        xv = tl.load(x_ptr + cols.to(tl.int64) * s_x, mask=col_mask, other=0.0).to(tl.float32)
        acc += a * xv[None, :]  # per-lane partial dot products, reduced once at the end
    t = alpha * tl.sum(acc, axis=1)
    y = t + beta * t
    ay = tl.abs(y)
    if P_MODE == 3:
        term = tl.where(row_mask, ay, 0.0)
        tl.store(part_ptr + pid, tl.max(term, axis=0))
        tl.store(nan_ptr + pid, tl.sum(((y != y) & row_mask).to(tl.int32), axis=0))
    else:
        if P_MODE == 2:
            term = y * y
        elif P_MODE == 1:
            term = ay
        else:
            # |y|^p = 2^(p log2|y|); log2(0) = -inf gives 0, NaN stays NaN.
            term = tl.exp2(p * tl.log2(ay))
        term = tl.where(row_mask, term, 0.0)
        tl.store(part_ptr + pid, tl.sum(term, axis=0))


@triton.jit
def _norm_finalize_kernel(part_ptr, nan_ptr, out_ptr, num_parts, inv_p,
                          P_MODE: tl.constexpr, BLOCK_P: tl.constexpr):
    offs = tl.arange(0, BLOCK_P)
    if P_MODE == 3:
        best = tl.zeros([BLOCK_P], dtype=tl.float32)
        nans = tl.zeros([BLOCK_P], dtype=tl.int32)
        for start in range(0, num_parts, BLOCK_P):
            idx = start + offs
            m = idx < num_parts
            best = tl.maximum(best, tl.load(part_ptr + idx, mask=m, other=0.0))
            nans += tl.load(nan_ptr + idx, mask=m, other=0)
        res = tl.max(best, axis=0)
        res = tl.where(tl.sum(nans, axis=0) > 0, float("nan"), res)
    else:
        total = tl.zeros([BLOCK_P], dtype=tl.float32)
        for start in range(0, num_parts, BLOCK_P):
            idx = start + offs
            total += tl.load(part_ptr + idx, mask=idx < num_parts, other=0.0)
        s = tl.sum(total, axis=0)
        if P_MODE == 2:
            res = tl.sqrt(s)
        elif P_MODE == 1:
            res = s
        else:
            res = tl.exp2(tl.log2(s) * inv_p)  # s^(1/p); s = 0 gives 0
    tl.store(out_ptr, res.to(out_ptr.dtype.element_ty))


def symmetric_matrix_vector_norm(A: torch.Tensor, x: torch.Tensor, alpha: float, beta: float,
                                 p: float = 2.0) -> torch.Tensor:
    n = x.shape[0]
    assert A.shape == (n, n), "A must be (n, n) and x (n,)"
    p = float(p)
    if math.isinf(p):
        mode = _P_INF
    elif p == 2.0:
        mode = _P_TWO
    elif p == 1.0:
        mode = _P_ONE
    else:
        mode = _P_GENERAL
    out = torch.empty((), dtype=torch.float32, device=A.device)
    num_parts = triton.cdiv(n, _BLOCK_M)
    parts = torch.empty(max(num_parts, 1), dtype=torch.float32, device=A.device)
    nans = torch.empty(max(num_parts, 1), dtype=torch.int32, device=A.device)
    if n > 0:
        _symv_norm_partial_kernel[(num_parts,)](
            A, x, parts, nans, n, A.stride(0), A.stride(1), x.stride(0), float(alpha), float(beta),
            p if mode == _P_GENERAL else 1.0, P_MODE=mode, BLOCK_M=_BLOCK_M, BLOCK_N=_BLOCK_N,
            num_warps=4)
    _norm_finalize_kernel[(1,)](parts, nans, out, num_parts, 1.0 / p if mode == _P_GENERAL else 1.0,
                                P_MODE=mode, BLOCK_P=_BLOCK_P)
    return out
