import torch
import triton
import triton.language as tl


# Blocked right-looking LU (LAPACK getrf order), one matrix of the batch per program along axis 0:
# for each panel of NB columns, (1) factor the panel with partial pivoting, swapping whole rows,
# (2) U12 = L11^-1 A12 (unit lower triangular solve on the panel's row block), (3) A22 -= L21 @ U12
# with tl.dot. A host loop walks the panels; the work is done in place on a contiguous copy W.
NB = 16


@triton.jit
def _lu_panel(W, PIV, m, n, k, j0, jb, s_b, s_r,
              PIVOT: tl.constexpr, BM: tl.constexpr, NB: tl.constexpr, BC: tl.constexpr):
    b = tl.program_id(0).to(tl.int64)
    base = W + b * s_b
    rows = tl.arange(0, BM)
    cols = tl.arange(0, NB)
    for jj in range(0, jb):
        # the previous column's update is read back by other threads of this program
        tl.debug_barrier()
        col = j0 + jj
        p = col
        if PIVOT:
            # partial pivoting: the first row of largest |W[i, col]|, i >= col (LAPACK's i?amax)
            best = tl.full([BM], -1.0, tl.float64)
            besti = tl.full([BM], 0, tl.int32)
            for i0 in range(col, m, BM):
                r = i0 + rows
                v = tl.abs(tl.load(base + r.to(tl.int64) * s_r + col, mask=r < m, other=0.0)).to(tl.float64)
                v = tl.where(r < m, v, -1.0)
                upd = v > best
                best = tl.where(upd, v, best)
                besti = tl.where(upd, r, besti)
            mx = tl.max(best, 0)
            p = tl.min(tl.where(best == mx, besti, m), 0)
            if p != col:
                for c0 in range(0, n, BC):
                    c = c0 + tl.arange(0, BC)
                    x = tl.load(base + col * s_r + c, mask=c < n)
                    y = tl.load(base + p.to(tl.int64) * s_r + c, mask=c < n)
                    tl.store(base + col * s_r + c, y, mask=c < n)
                    tl.store(base + p.to(tl.int64) * s_r + c, x, mask=c < n)
        tl.store(PIV + b * k + col, p.to(tl.int32))
        tl.debug_barrier()
        d = tl.load(base + col * s_r + col)
        # the rest of the pivot row inside the panel
        pc = col + 1 + cols
        pc_mask = pc < j0 + jb
        urow = tl.load(base + col * s_r + pc, mask=pc_mask, other=0.0)
        for i0 in range(col + 1, m, BM):
            r = i0 + rows
            rm = r < m
            roff = r.to(tl.int64) * s_r
            v = tl.load(base + roff + col, mask=rm, other=0.0)
            # an exactly zero pivot leaves its column as it is (LAPACK); the matrix is singular
            l = tl.where(d != 0, v / d, v)
            tl.store(base + roff + col, l, mask=rm)
            t = tl.load(base + roff[:, None] + pc[None, :], mask=rm[:, None] & pc_mask[None, :], other=0.0)
            t = t - l[:, None] * urow[None, :]
            tl.store(base + roff[:, None] + pc[None, :], t, mask=rm[:, None] & pc_mask[None, :])


@triton.jit
def _lu_trsm_u12(W, n, j0, jb, s_b, s_r, NB: tl.constexpr, BN: tl.constexpr):
    # U12 = L11^-1 A12 for one tile of BN columns right of the panel (L11 unit lower, NB x NB)
    b = tl.program_id(0).to(tl.int64)
    base = W + b * s_b
    r = tl.arange(0, NB)
    c = j0 + jb + tl.program_id(1) * BN + tl.arange(0, BN)
    rm = r < jb
    cm = c < n
    roff = (j0 + r).to(tl.int64) * s_r
    L = tl.load(base + roff[:, None] + (j0 + r)[None, :], mask=rm[:, None] & rm[None, :], other=0.0)
    X = tl.load(base + roff[:, None] + c[None, :], mask=rm[:, None] & cm[None, :], other=0.0)
    for rr in range(0, jb):
        xr = tl.sum(tl.where(r[:, None] == rr, X, 0.0), axis=0)
        lc = tl.sum(tl.where(r[None, :] == rr, L, 0.0), axis=1)
        lc = tl.where(r > rr, lc, 0.0)
        X = X - lc[:, None] * xr[None, :]
    tl.store(base + roff[:, None] + c[None, :], X, mask=rm[:, None] & cm[None, :])


@triton.jit
def _lu_update(W, m, n, j0, jb, s_b, s_r, NB: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    # A22 -= L21 @ U12 (one BM x BN tile of the trailing matrix)
    b = tl.program_id(0).to(tl.int64)
    base = W + b * s_b
    r = j0 + jb + tl.program_id(1) * BM + tl.arange(0, BM)
    c = j0 + jb + tl.program_id(2) * BN + tl.arange(0, BN)
    kk = tl.arange(0, NB)
    rm = r < m
    cm = c < n
    km = kk < jb
    roff = r.to(tl.int64) * s_r
    l21 = tl.load(base + roff[:, None] + (j0 + kk)[None, :], mask=rm[:, None] & km[None, :], other=0.0)
    u12 = tl.load(base + (j0 + kk).to(tl.int64)[:, None] * s_r + c[None, :], mask=km[:, None] & cm[None, :], other=0.0)
    a = tl.load(base + roff[:, None] + c[None, :], mask=rm[:, None] & cm[None, :], other=0.0)
    a = a - tl.dot(l21, u12, input_precision="ieee")
    tl.store(base + roff[:, None] + c[None, :], a, mask=rm[:, None] & cm[None, :])


@triton.jit
def _copy_in(A, W, m, n, s_ab, s_am, s_an, s_b, s_r, BM: tl.constexpr, BN: tl.constexpr):
    # W (contiguous) = A (any strides); batch index along axis 0
    b = tl.program_id(0).to(tl.int64)
    r = tl.program_id(1) * BM + tl.arange(0, BM)
    c = tl.program_id(2) * BN + tl.arange(0, BN)
    msk = (r < m)[:, None] & (c < n)[None, :]
    x = tl.load(A + b * s_ab + r.to(tl.int64)[:, None] * s_am + c.to(tl.int64)[None, :] * s_an, mask=msk)
    tl.store(W + b * s_b + r.to(tl.int64)[:, None] * s_r + c[None, :], x, mask=msk)


def _lu_factor(A, pivot):
    """In-place blocked LU of a contiguous copy of A (batch flattened): returns (W, piv)."""
    *batch, m, n = A.shape
    nb = 1
    for s in batch:
        nb *= int(s)
    k = min(m, n)
    W = torch.empty((nb, m, n), dtype=A.dtype, device=A.device)
    piv = torch.empty((nb, k), dtype=torch.int32, device=A.device)
    if nb == 0 or m == 0 or n == 0:
        return W, piv
    A3 = A.reshape(nb, m, n)  # a view when A's batch dims can be merged, else a copy
    BM, BN = 32, 32
    _copy_in[(nb, triton.cdiv(m, BM), triton.cdiv(n, BN))](A3, W, m, n, *A3.stride(), m * n, n, BM=BM, BN=BN)
    for j0 in range(0, k, NB):
        jb = min(NB, k - j0)
        _lu_panel[(nb,)](W, piv, m, n, k, j0, jb, m * n, n, PIVOT=pivot, BM=64, NB=NB, BC=64)
        rest_c = n - j0 - jb
        rest_r = m - j0 - jb
        if rest_c > 0:
            _lu_trsm_u12[(nb, triton.cdiv(rest_c, 64))](W, n, j0, jb, m * n, n, NB=NB, BN=64)
            if rest_r > 0:
                _lu_update[(nb, triton.cdiv(rest_r, BM), triton.cdiv(rest_c, BN))](
                    W, m, n, j0, jb, m * n, n, NB=NB, BM=BM, BN=BN)
    return W, piv


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


def invert_matrix_lu(A, *, pivot=True, out=None):
    n = A.shape[-1]
    if A.dim() < 2 or A.shape[-2] != n:
        raise RuntimeError("invert_matrix_lu: A must be a batch of square matrices")
    batch = A.shape[:-2]
    W, piv = _lu_factor(A, pivot)
    nb = W.shape[0]
    # A = P L U, so A^-1 = U^-1 L^-1 P^T: X starts as P^T (the identity's rows interchanged like A's)
    X = torch.empty((nb, n, n), dtype=A.dtype, device=A.device)
    if nb and n:
        _permute_rows[(nb, triton.cdiv(n, 64))](piv, X, X, n, n, n, 0, 0, 0, IDENTITY=True, BM=64, BN=32)
        _tri_solve(W, X, lower=True, unit=True)
        _tri_solve(W, X, lower=False, unit=False)
    X = X.reshape(*batch, n, n)
    if out is not None:
        out.copy_(X)
        return out
    return X
