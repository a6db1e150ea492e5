import torch
import triton
import triton.language as tl


@triton.jit
def _trsm_diag(T, X, n, nrhs, i0, s_tb, s_ti, s_tj, s_xb, s_xi, s_xj,
               LOWER: tl.constexpr, UNIT: tl.constexpr, NB: tl.constexpr, BN: tl.constexpr):
    # X[i0:i0+NB] <- T[i0:i0+NB, i0:i0+NB]^-1 X[i0:i0+NB] for one BN-column tile, by substitution in
    # registers (element (i, j) of T at T + i*s_ti + j*s_tj: a transposed factor is the same kernel
    # with its strides swapped)
    b = tl.program_id(0).to(tl.int64)
    tb = T + b * s_tb
    xb = X + b * s_xb
    c = tl.program_id(1) * BN + tl.arange(0, BN)
    cm = c < nrhs
    rr = tl.arange(0, NB)
    ri = i0 + rr
    rim = ri < n
    xoff = ri.to(tl.int64)[:, None] * s_xi + c[None, :] * s_xj
    acc = tl.load(xb + xoff, mask=rim[:, None] & cm[None, :], other=0.0)
    t = tl.load(tb + ri.to(tl.int64)[:, None] * s_ti + ri.to(tl.int64)[None, :] * s_tj,
                mask=rim[:, None] & rim[None, :], other=0.0)
    for q in range(0, NB):
        if LOWER:
            k = q
        else:
            k = NB - 1 - q
        xk = tl.sum(tl.where(rr[:, None] == k, acc, 0.0), axis=0)
        if not UNIT:
            dk = tl.sum(tl.sum(tl.where((rr[:, None] == k) & (rr[None, :] == k), t, 0.0), axis=1), axis=0)
            xk = xk / tl.where(i0 + k < n, dk, 1.0)
        xk = tl.where(i0 + k < n, xk, 0.0)
        tk = tl.sum(tl.where(rr[None, :] == k, t, 0.0), axis=1)
        if LOWER:
            tk = tl.where(rr > k, tk, 0.0)
        else:
            tk = tl.where(rr < k, tk, 0.0)
        acc = tl.where(rr[:, None] == k, xk[None, :], acc - tk[:, None] * xk[None, :])
    tl.store(xb + xoff, acc, mask=rim[:, None] & cm[None, :])


@triton.jit
def _trsm_update(T, X, n, nrhs, i0, s_tb, s_ti, s_tj, s_xb, s_xi, s_xj,
                 LOWER: tl.constexpr, NB: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    # X[rows] -= T[rows, i0:i0+NB] @ X[i0:i0+NB] for the rows still to be solved (after the block
    # for a lower factor, before it for an upper one), one BM x BN tile per program
    b = tl.program_id(0).to(tl.int64)
    tb = T + b * s_tb
    xb = X + b * s_xb
    if LOWER:
        rows = i0 + NB + tl.program_id(1) * BM + tl.arange(0, BM)
        rm = rows < n
    else:
        rows = tl.program_id(1) * BM + tl.arange(0, BM)
        rm = rows < i0
    c = tl.program_id(2) * BN + tl.arange(0, BN)
    cm = c < nrhs
    kk = i0 + tl.arange(0, NB)
    km = kk < n
    t = tl.load(tb + rows.to(tl.int64)[:, None] * s_ti + kk.to(tl.int64)[None, :] * s_tj,
                mask=rm[:, None] & km[None, :], other=0.0)
    xk = tl.load(xb + kk.to(tl.int64)[:, None] * s_xi + c[None, :] * s_xj, mask=km[:, None] & cm[None, :], other=0.0)
    xoff = rows.to(tl.int64)[:, None] * s_xi + c[None, :] * s_xj
    x = tl.load(xb + xoff, mask=rm[:, None] & cm[None, :], other=0.0)
    x = x - tl.dot(t, xk, input_precision="ieee")
    tl.store(xb + xoff, x, mask=rm[:, None] & cm[None, :])


@triton.jit
def _permute_rows(PIV, B, X, n, nrhs, k, s_bb, s_bi, s_bj, IDENTITY: tl.constexpr, BM: tl.constexpr,
                  BN: tl.constexpr):
    # X (contiguous, batch-major) = rows of B (or of the identity) in the order LU's interchanges
    # leave them: X[pos] = B[src(pos)], src found by undoing the swaps PIV[k-1], ..., PIV[0].
    b = tl.program_id(0).to(tl.int64)
    pos = tl.program_id(1) * BM + tl.arange(0, BM)
    src = pos
    for t in range(0, k):
        tt = k - 1 - t
        pv = tl.load(PIV + b * k + tt)
        src = tl.where(src == tt, pv, tl.where(src == pv, tt, src))
    pm = pos < n
    for c0 in range(0, nrhs, BN):
        c = c0 + tl.arange(0, BN)
        msk = pm[:, None] & (c < nrhs)[None, :]
        if IDENTITY:
            v = tl.where(src[:, None] == c[None, :], 1.0, 0.0)
        else:
            v = tl.load(B + b * s_bb + src.to(tl.int64)[:, None] * s_bi + c[None, :].to(tl.int64) * s_bj, mask=msk)
        tl.store(X + b * n * nrhs + pos.to(tl.int64)[:, None] * nrhs + c[None, :], v.to(X.dtype.element_ty), mask=msk)


def _tri_solve(T3, X3, lower, unit, transpose=False):
    """X3 <- op(T3)^-1 X3 in place (blocked, right-looking: each diagonal block is solved, then the
    rows still to be solved are updated in parallel); T3 (nb or 1, n, n), X3 (nb, n, nrhs)."""
    nb, n, nrhs = X3.shape
    if nb == 0 or n == 0 or nrhs == 0:
        return
    s_tb = T3.stride(0) if T3.shape[0] > 1 else 0
    s_ti, s_tj = T3.stride(1), T3.stride(2)
    if transpose:
        s_ti, s_tj = s_tj, s_ti
    TB, BM = 32, 64
    BN = 16 if nrhs <= 16 else 32
    nblk = triton.cdiv(n, TB)
    for step in range(nblk):
        i0 = (step if lower else nblk - 1 - step) * TB
        _trsm_diag[(nb, triton.cdiv(nrhs, BN))](T3, X3, n, nrhs, i0, s_tb, s_ti, s_tj, *X3.stride(),
                                               LOWER=lower, UNIT=unit, NB=TB, BN=BN)
        rows = n - i0 - TB if lower else i0
        if rows > 0:
            _trsm_update[(nb, triton.cdiv(rows, BM), triton.cdiv(nrhs, BN))](
                T3, X3, n, nrhs, i0, s_tb, s_ti, s_tj, *X3.stride(), LOWER=lower, NB=TB, BM=BM, BN=BN)


@triton.jit
def _copy_rhs(B, X, n, k, s_bb, s_bi, s_bj, BM: tl.constexpr, BN: tl.constexpr):
    b = tl.program_id(0).to(tl.int64)
    r = tl.program_id(1) * BM + tl.arange(0, BM)
    c = tl.program_id(2) * BN + tl.arange(0, BN)
    msk = (r < n)[:, None] & (c < k)[None, :]
    v = tl.load(B + b * s_bb + r.to(tl.int64)[:, None] * s_bi + c.to(tl.int64)[None, :] * s_bj, mask=msk)
    tl.store(X + b * n * k + r.to(tl.int64)[:, None] * k + c[None, :], v, mask=msk)


@triton.jit
def _add_scaled(X, Y, ALPHA, n, k, s_yb, s_yi, s_yj, BM: tl.constexpr, BN: tl.constexpr):
    # X += alpha * Y (Y broadcast to X's shape through zero strides); alpha is read from a float64
    # tensor: a Python float kernel argument would be passed as float32
    b = tl.program_id(0).to(tl.int64)
    alpha = tl.load(ALPHA)
    r = tl.program_id(1) * BM + tl.arange(0, BM)
    c = tl.program_id(2) * BN + tl.arange(0, BN)
    msk = (r < n)[:, None] & (c < k)[None, :]
    xo = X + b * n * k + r.to(tl.int64)[:, None] * k + c[None, :]
    y = tl.load(Y + b * s_yb + r.to(tl.int64)[:, None] * s_yi + c.to(tl.int64)[None, :] * s_yj, mask=msk)
    tl.store(xo, tl.load(xo, mask=msk) + alpha * y, mask=msk)


def _batch_broadcast(a, b):
    out = []
    for i in range(max(len(a), len(b))):
        x = a[len(a) - 1 - i] if i < len(a) else 1
        y = b[len(b) - 1 - i] if i < len(b) else 1
        if x != y and x != 1 and y != 1:
            raise RuntimeError(f"batch dimensions {tuple(a)} and {tuple(b)} do not broadcast")
        out.append(max(x, y) if min(x, y) != 0 else 0)
    return tuple(reversed(out))


def solve_and_add_scaled_vector(A, b, y, alpha):
    if b.dim() < 2:
        raise RuntimeError("solve_and_add_scaled_vector: b must have at least 2 dimensions (n, k)")
    n, k = b.shape[-2], b.shape[-1]
    batch = _batch_broadcast(tuple(A.shape[:-2]), tuple(b.shape[:-2]))
    nb = 1
    for s in batch:
        nb *= s
    X = torch.empty((nb, n, k), dtype=b.dtype, device=b.device)
    if nb and n and k:
        B3 = b.expand(*batch, n, k).reshape(nb, n, k)
        A3 = A.expand(*batch, n, n).reshape(nb, n, n)
        grid = (nb, triton.cdiv(n, 32), triton.cdiv(k, 32))
        _copy_rhs[grid](B3, X, n, k, *B3.stride(), BM=32, BN=32)
        # x = A^-1 b with A upper triangular (its lower triangle is never read)
        _tri_solve(A3, X, lower=False, unit=False)
        # x += alpha * y, y broadcast to x's shape (views only: expand gives zero strides)
        Y3 = y.expand(*batch, n, k).reshape(nb, n, k) if nb > 0 else y
        alpha_t = torch.full((1,), float(alpha), dtype=torch.float64, device=b.device)
        _add_scaled[grid](X, Y3, alpha_t, n, k, *Y3.stride(), BM=32, BN=32)
    return X.reshape(*batch, n, k)
