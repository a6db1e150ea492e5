import torch
import triton
import triton.language as tl


# Cholesky A = L L^T (blocked, right-looking, LAPACK potrf order), then L y = b and L^T x = y (blocked
# substitutions), all in float32. Every dependent step is its own kernel launch: no kernel reads global
# memory that another thread of the same launch writes (each thread stores only the elements it loaded
# itself), so the GPU needs no ordering between a program's threads.
NB = 16   # panel width of the factorization
TB = 32   # diagonal block of the substitutions


@triton.jit
def _copy_in(A, W, n, s_ab, s_am, s_an, BM: tl.constexpr):
    # W (contiguous, batch-major) = A (any strides)
    b = tl.program_id(0).to(tl.int64)
    r = tl.program_id(1) * BM + tl.arange(0, BM)
    c = tl.program_id(2) * BM + tl.arange(0, BM)
    msk = (r < n)[:, None] & (c < n)[None, :]
    x = tl.load(A + b * s_ab + r.to(tl.int64)[:, None] * s_am + c.to(tl.int64)[None, :] * s_an, mask=msk)
    tl.store(W + b * n * n + r.to(tl.int64)[:, None] * n + c[None, :], x, mask=msk)


@triton.jit
def _chol_diag(W, n, j0, jb, NB: tl.constexpr):
    # factor the jb x jb diagonal block at (j0, j0) in registers (one program per matrix)
    b = tl.program_id(0).to(tl.int64)
    base = W + b * n * n
    r = tl.arange(0, NB)
    rm = r < jb
    msk = rm[:, None] & rm[None, :]
    off = (j0 + r).to(tl.int64)[:, None] * n + (j0 + r)[None, :]
    a = tl.load(base + off, mask=msk, other=0.0)
    for c in range(0, jb):
        d = tl.sqrt(tl.sum(tl.sum(tl.where((r[:, None] == c) & (r[None, :] == c), a, 0.0), axis=1), axis=0))
        below = r > c
        col = tl.sum(tl.where(r[None, :] == c, a, 0.0), axis=1)
        col = tl.where(below, col / d, tl.where(r == c, d, 0.0))
        a = tl.where(r[None, :] == c, col[:, None], a)
        # trailing part of the block: a[i, j] -= l_i l_j for i, j > c
        upd = below[:, None] & below[None, :]
        a = tl.where(upd, a - col[:, None] * col[None, :], a)
    tl.store(base + off, a, mask=msk & (r[:, None] >= r[None, :]))


@triton.jit
def _chol_panel(W, n, j0, jb, NB: tl.constexpr, BM: tl.constexpr):
    # L21 = A21 L11^-T for BM rows below the diagonal block: column c of X is
    # (A21[:, c] - sum_{p<c} X[:, p] L11[c, p]) / L11[c, c], solved in registers
    b = tl.program_id(0).to(tl.int64)
    base = W + b * n * n
    r = tl.arange(0, NB)
    rm = r < jb
    rows = j0 + jb + tl.program_id(1) * BM + tl.arange(0, BM)
    rowm = rows < n
    lmask = rm[:, None] & rm[None, :] & (r[:, None] >= r[None, :])
    l11 = tl.load(base + (j0 + r).to(tl.int64)[:, None] * n + (j0 + r)[None, :], mask=lmask, other=0.0)
    xoff = rows.to(tl.int64)[:, None] * n + (j0 + r)[None, :]
    xm = rowm[:, None] & rm[None, :]
    x = tl.load(base + xoff, mask=xm, other=0.0)
    for c in range(0, jb):
        dcc = tl.sum(tl.sum(tl.where((r[:, None] == c) & (r[None, :] == c), l11, 0.0), axis=1), axis=0)
        xc = tl.sum(tl.where(r[None, :] == c, x, 0.0), axis=1) / dcc
        lc = tl.sum(tl.where(r[None, :] == c, l11, 0.0), axis=1)   # L11[c', c] for c' > c
        later = (r > c)[None, :]
        x = tl.where(r[None, :] == c, xc[:, None], tl.where(later, x - xc[:, None] * lc[None, :], x))
    tl.store(base + xoff, x, mask=xm)


@triton.jit
def _chol_update(W, n, j0, jb, NB: tl.constexpr, BM: tl.constexpr):
    # A22[rows, cols] -= L21[rows] @ L21[cols]^T on the tiles that meet the lower triangle; L21 (columns
    # j0 .. j0+jb-1) is only read here, A22 (columns >= j0+jb) only by the tile that writes it
    b = tl.program_id(0).to(tl.int64)
    pm = tl.program_id(1)
    pn = tl.program_id(2)
    if pn <= pm:
        base = W + b * n * n
        s = j0 + jb
        rows = s + pm * BM + tl.arange(0, BM)
        cols = s + pn * BM + tl.arange(0, BM)
        kk = tl.arange(0, NB)
        km = kk < jb
        rowm = rows < n
        colm = cols < n
        lr = tl.load(base + rows.to(tl.int64)[:, None] * n + (j0 + kk)[None, :], mask=rowm[:, None] & km[None, :],
                     other=0.0)
        lc = tl.load(base + cols.to(tl.int64)[:, None] * n + (j0 + kk)[None, :], mask=colm[:, None] & km[None, :],
                     other=0.0)
        aoff = rows.to(tl.int64)[:, None] * n + cols[None, :]
        am = rowm[:, None] & colm[None, :]
        acc = tl.load(base + aoff, mask=am, other=0.0) - tl.dot(lr, tl.trans(lc), input_precision="ieee")
        tl.store(base + aoff, acc, mask=am)


@triton.jit
def _trsm_diag(T, X, n, nrhs, i0, s_ti, s_tj, LOWER: tl.constexpr, TB: tl.constexpr, BN: tl.constexpr):
    # X[i0:i0+TB] <- T[i0:i0+TB, i0:i0+TB]^-1 X[i0:i0+TB] for one BN-column tile, by substitution in
    # registers; element (i, j) of T is at T + i*s_ti + j*s_tj (L^T is L with its strides swapped)
    b = tl.program_id(0).to(tl.int64)
    tb = T + b * n * n
    xb = X + b * n * nrhs
    c = tl.program_id(1) * BN + tl.arange(0, BN)
    cm = c < nrhs
    rr = tl.arange(0, TB)
    ri = i0 + rr
    rim = ri < n
    xoff = ri.to(tl.int64)[:, None] * nrhs + c[None, :]
    acc = tl.load(xb + xoff, mask=rim[:, None] & cm[None, :], other=0.0)
    t = tl.load(tb + ri.to(tl.int64)[:, None] * s_ti + ri.to(tl.int64)[None, :] * s_tj,
                mask=rim[:, None] & rim[None, :], other=0.0)
    for q in range(0, TB):
        if LOWER:
            k = q
        else:
            k = TB - 1 - q
        xk = tl.sum(tl.where(rr[:, None] == k, acc, 0.0), axis=0)
        dk = tl.sum(tl.sum(tl.where((rr[:, None] == k) & (rr[None, :] == k), t, 0.0), axis=1), axis=0)
        xk = tl.where(i0 + k < n, xk / tl.where(i0 + k < n, dk, 1.0), 0.0)
        tk = tl.sum(tl.where(rr[None, :] == k, t, 0.0), axis=1)
        if LOWER:
            tk = tl.where(rr > k, tk, 0.0)
        else:
            tk = tl.where(rr < k, tk, 0.0)
        acc = tl.where(rr[:, None] == k, xk[None, :], acc - tk[:, None] * xk[None, :])
    tl.store(xb + xoff, acc, mask=rim[:, None] & cm[None, :])


@triton.jit
def _trsm_update(T, X, n, nrhs, i0, s_ti, s_tj, LOWER: tl.constexpr, TB: tl.constexpr, BM: tl.constexpr,
                 BN: tl.constexpr):
    # X[rows] -= T[rows, i0:i0+TB] @ X[i0:i0+TB] for the rows still to be solved (after the block for a
    # lower factor, before it for an upper one); the solved block is only read here
    b = tl.program_id(0).to(tl.int64)
    tb = T + b * n * n
    xb = X + b * n * nrhs
    if LOWER:
        rows = i0 + TB + tl.program_id(1) * BM + tl.arange(0, BM)
        rm = rows < n
    else:
        rows = tl.program_id(1) * BM + tl.arange(0, BM)
        rm = rows < i0
    c = tl.program_id(2) * BN + tl.arange(0, BN)
    cm = c < nrhs
    kk = i0 + tl.arange(0, TB)
    km = kk < n
    t = tl.load(tb + rows.to(tl.int64)[:, None] * s_ti + kk.to(tl.int64)[None, :] * s_tj,
                mask=rm[:, None] & km[None, :], other=0.0)
    xk = tl.load(xb + kk.to(tl.int64)[:, None] * nrhs + c[None, :], mask=km[:, None] & cm[None, :], other=0.0)
    xoff = rows.to(tl.int64)[:, None] * nrhs + c[None, :]
    x = tl.load(xb + xoff, mask=rm[:, None] & cm[None, :], other=0.0)
    x = x - tl.dot(t, xk, input_precision="ieee")
    tl.store(xb + xoff, x, mask=rm[:, None] & cm[None, :])


@triton.jit
def _copy_rhs(B, X, n, k, s_bb, s_bi, s_bj, BM: tl.constexpr, BN: tl.constexpr):
    b = tl.program_id(0).to(tl.int64)
    r = tl.program_id(1) * BM + tl.arange(0, BM)
    c = tl.program_id(2) * BN + tl.arange(0, BN)
    msk = (r < n)[:, None] & (c < k)[None, :]
    v = tl.load(B + b * s_bb + r.to(tl.int64)[:, None] * s_bi + c.to(tl.int64)[None, :] * s_bj, mask=msk)
    tl.store(X + b * n * k + r.to(tl.int64)[:, None] * k + c[None, :], v, mask=msk)


def _factor(A3, W):
    """W (nb, n, n) <- the Cholesky factor of A3 in its lower triangle (upper triangle: A's)."""
    nb, n, _ = A3.shape
    BM = 32
    _copy_in[(nb, triton.cdiv(n, BM), triton.cdiv(n, BM))](A3, W, n, *A3.stride(), BM=BM)
    for j0 in range(0, n, NB):
        jb = min(NB, n - j0)
        _chol_diag[(nb,)](W, n, j0, jb, NB=NB)
        rest = n - j0 - jb
        if rest > 0:
            t = triton.cdiv(rest, BM)
            _chol_panel[(nb, t)](W, n, j0, jb, NB=NB, BM=BM)
            _chol_update[(nb, t, t)](W, n, j0, jb, NB=NB, BM=BM)


def _tri_solve(W, X, lower, transpose):
    """X <- op(T)^-1 X in place, T the lower triangle of W (read transposed when ``transpose``): each
    diagonal block is solved, then the rows still to be solved are updated (one launch each)."""
    nb, n, nrhs = X.shape
    s_ti, s_tj = (1, n) if transpose else (n, 1)
    BM = 64
    BN = 16 if nrhs <= 16 else 32
    nblk = triton.cdiv(n, TB)
    for step in range(nblk):
        i0 = (step if lower else nblk - 1 - step) * TB
        _trsm_diag[(nb, triton.cdiv(nrhs, BN))](W, X, n, nrhs, i0, s_ti, s_tj, LOWER=lower, TB=TB, BN=BN)
        rows = n - i0 - TB if lower else i0
        if rows > 0:
            _trsm_update[(nb, triton.cdiv(rows, BM), triton.cdiv(nrhs, BN))](
                W, X, n, nrhs, i0, s_ti, s_tj, LOWER=lower, TB=TB, BM=BM, BN=BN)


def fused_cholesky_solve(A, b):
    n = A.shape[-1]
    if A.shape[-2] != n or b.dim() < 2 or b.shape[-2] != n:
        raise RuntimeError(f"fused_cholesky_solve: A {tuple(A.shape)} and b {tuple(b.shape)} do not match")
    k = b.shape[-1]
    batch = torch.broadcast_shapes(A.shape[:-2], b.shape[:-2])
    nb = 1
    for s in batch:
        nb *= int(s)
    X = torch.empty((nb, n, k), dtype=b.dtype, device=b.device)
    if nb and n and k:
        A3 = A.expand(*batch, n, n).reshape(nb, n, n)
        B3 = b.expand(*batch, n, k).reshape(nb, n, k)
        W = torch.empty((nb, n, n), dtype=A.dtype, device=A.device)
        _factor(A3, W)
        _copy_rhs[(nb, triton.cdiv(n, 32), triton.cdiv(k, 32))](B3, X, n, k, *B3.stride(), BM=32, BN=32)
        _tri_solve(W, X, lower=True, transpose=False)    # L y = b
        _tri_solve(W, X, lower=False, transpose=True)    # L^T x = y (L read transposed)
    return X.reshape(*batch, n, k)
