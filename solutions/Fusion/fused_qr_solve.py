import torch
import triton
import triton.language as tl


# Householder QR of the augmented matrix [A | b], then R x = (Q^T b)[:n] by back substitution. The
# reflectors H_j = I - tau_j v_j v_j^T (LAPACK geqrf conventions: v_j[j] = 1, beta_j = R[j, j]) are
# applied to b's columns as they are made, so Q is never formed. The working copy W is stored
# transposed (column c of [A | b] is row c of W, contiguous), so every column this needs is one
# contiguous stretch of memory.
#
# Per column j two launches: _house (one program: the reflector of column j) and _apply (one program
# per tile of the later columns: H_j applied to them). No kernel reads global memory that another
# thread of the same launch writes: each thread stores only elements it loaded itself, and the
# reflector a launch applies was written by the launch before. Norms are accumulated in float64, so
# squares of float32 values neither overflow nor underflow.
TB = 32  # diagonal block of the back substitution


@triton.jit
def _copy_t(X, Y, rows, cols, s_xr, s_xc, s_yr, s_yc, BM: tl.constexpr, BN: tl.constexpr):
    # Y[r, c] = X[r, c] with the given strides (the transposed copy is the same with Y's swapped)
    r = tl.program_id(0) * BM + tl.arange(0, BM)
    c = tl.program_id(1) * BN + tl.arange(0, BN)
    msk = (r < rows)[:, None] & (c < cols)[None, :]
    x = tl.load(X + r.to(tl.int64)[:, None] * s_xr + c.to(tl.int64)[None, :] * s_xc, mask=msk)
    tl.store(Y + r.to(tl.int64)[:, None] * s_yr + c.to(tl.int64)[None, :] * s_yc, x, mask=msk)


@triton.jit
def _house(W, TAU, m, j, jm, BLOCK: tl.constexpr):
    # reflector of column j (row j of W): beta = -sign(alpha) ||x||, tau = (beta - alpha) / beta,
    # v = x / (alpha - beta) below the diagonal, beta on it (jm = j * m, the column's offset)
    col = W + jm
    offs = tl.arange(0, BLOCK)
    ss = tl.zeros([BLOCK], dtype=tl.float64)
    al = tl.zeros([BLOCK], dtype=tl.float64)
    for i0 in range(j, m, BLOCK):
        r = i0 + offs
        x = tl.load(col + r, mask=r < m, other=0.0).to(tl.float64)
        al += tl.where(r == j, x, 0.0)
        ss += tl.where(r > j, x * x, 0.0)
    alpha = tl.sum(al, 0)
    xnorm2 = tl.sum(ss, 0)
    nrm = tl.sqrt(alpha * alpha + xnorm2)
    beta = tl.where(alpha >= 0, -nrm, nrm)
    trivial = xnorm2 == 0
    tau = tl.where(trivial, 0.0, (beta - alpha) / beta)
    scale = tl.where(trivial, 1.0, 1.0 / (alpha - beta))
    beta = tl.where(trivial, alpha, beta)
    tl.store(TAU + j, tau.to(TAU.dtype.element_ty))
    tl.store(col + j, beta.to(W.dtype.element_ty))
    for i0 in range(j + 1, m, BLOCK):
        r = i0 + offs
        rm = r < m
        x = tl.load(col + r, mask=rm, other=0.0).to(tl.float64)
        tl.store(col + r, (x * scale).to(W.dtype.element_ty), mask=rm)


@triton.jit
def _apply(W, TAU, m, nc, j, jm, BM: tl.constexpr, BN: tl.constexpr):
    # H_j applied to BN later columns c (rows c of W): w_c = tau (x_c[j] + v^T x_c[j+1:]), then
    # x_c[j] -= w_c and x_c[j+1:] -= w_c v. Column j (the reflector) is only read here.
    cols = j + 1 + tl.program_id(0) * BN + tl.arange(0, BN)
    cm = cols < nc
    crow = W + cols.to(tl.int64)[:, None] * m
    vcol = W + jm
    tau = tl.load(TAU + j)
    offs = tl.arange(0, BM)
    acc = tl.zeros([BN, BM], dtype=tl.float32)
    for i0 in range(j + 1, m, BM):
        r = i0 + offs
        rm = r < m
        v = tl.load(vcol + r, mask=rm, other=0.0)
        t = tl.load(crow + r[None, :], mask=cm[:, None] & rm[None, :], other=0.0)
        acc += t * v[None, :]
    xj = tl.load(W + cols.to(tl.int64) * m + j, mask=cm, other=0.0)
    w = tau * (xj + tl.sum(acc, axis=1))
    tl.store(W + cols.to(tl.int64) * m + j, xj - w, mask=cm)
    for i0 in range(j + 1, m, BM):
        r = i0 + offs
        rm = r < m
        v = tl.load(vcol + r, mask=rm, other=0.0)
        msk = cm[:, None] & rm[None, :]
        t = tl.load(crow + r[None, :], mask=msk, other=0.0)
        tl.store(crow + r[None, :], t - w[:, None] * v[None, :], mask=msk)


@triton.jit
def _trsm_diag(T, X, n, nrhs, i0, s_ti, s_tj, TB: tl.constexpr, BN: tl.constexpr):
    # X[i0:i0+TB] <- R[i0:i0+TB, i0:i0+TB]^-1 X[i0:i0+TB] (R upper triangular, element (i, j) at
    # T + i*s_ti + j*s_tj) for one BN-column tile, by back substitution in registers
    c = tl.program_id(0) * BN + tl.arange(0, BN)
    cm = c < nrhs
    rr = tl.arange(0, TB)
    ri = i0 + rr
    rim = ri < n
    xoff = ri.to(tl.int64)[:, None] * nrhs + c[None, :]
    acc = tl.load(X + xoff, mask=rim[:, None] & cm[None, :], other=0.0)
    upper = rim[:, None] & rim[None, :] & (rr[:, None] <= rr[None, :])
    t = tl.load(T + ri.to(tl.int64)[:, None] * s_ti + ri.to(tl.int64)[None, :] * s_tj, mask=upper, other=0.0)
    for q in range(0, TB):
        k = TB - 1 - q
        xk = tl.sum(tl.where(rr[:, None] == k, acc, 0.0), axis=0)
        dk = tl.sum(tl.sum(tl.where((rr[:, None] == k) & (rr[None, :] == k), t, 0.0), axis=1), axis=0)
        xk = tl.where(i0 + k < n, xk / tl.where(i0 + k < n, dk, 1.0), 0.0)
        tk = tl.sum(tl.where(rr[None, :] == k, t, 0.0), axis=1)
        tk = tl.where(rr < k, tk, 0.0)
        acc = tl.where(rr[:, None] == k, xk[None, :], acc - tk[:, None] * xk[None, :])
    tl.store(X + xoff, acc, mask=rim[:, None] & cm[None, :])


@triton.jit
def _trsm_update(T, X, n, nrhs, i0, s_ti, s_tj, TB: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    # X[rows] -= R[rows, i0:i0+TB] @ X[i0:i0+TB] for the rows above the solved block (only read here)
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    rm = rows < i0
    c = tl.program_id(1) * BN + tl.arange(0, BN)
    cm = c < nrhs
    kk = i0 + tl.arange(0, TB)
    km = kk < n
    t = tl.load(T + rows.to(tl.int64)[:, None] * s_ti + kk.to(tl.int64)[None, :] * s_tj,
                mask=rm[:, None] & km[None, :], other=0.0)
    xk = tl.load(X + kk.to(tl.int64)[:, None] * nrhs + c[None, :], mask=km[:, None] & cm[None, :], other=0.0)
    xoff = rows.to(tl.int64)[:, None] * nrhs + c[None, :]
    x = tl.load(X + xoff, mask=rm[:, None] & cm[None, :], other=0.0)
    x = x - tl.dot(t, xk, input_precision="ieee")
    tl.store(X + xoff, x, mask=rm[:, None] & cm[None, :])


def _back_substitute(W, X, m):
    """X <- R^-1 X in place, R the upper triangle of W's first n columns (R[i, c] = W[c, i])."""
    n, nrhs = X.shape
    BM = 64
    BN = 16 if nrhs <= 16 else 32
    for i0 in reversed(range(0, n, TB)):
        _trsm_diag[(triton.cdiv(nrhs, BN),)](W, X, n, nrhs, i0, 1, m, TB=TB, BN=BN)
        if i0 > 0:
            _trsm_update[(triton.cdiv(i0, BM), triton.cdiv(nrhs, BN))](W, X, n, nrhs, i0, 1, m, TB=TB, BM=BM, BN=BN)


def fused_qr_solve(A, b):
    if A.dim() != 2 or b.dim() not in (1, 2) or b.shape[0] != A.shape[0] or A.shape[0] < A.shape[1]:
        raise RuntimeError(f"fused_qr_solve: A {tuple(A.shape)} (m >= n) and b {tuple(b.shape)} do not match")
    m, n = A.shape
    B = b.unsqueeze(1) if b.dim() == 1 else b
    k = B.shape[1]
    X = torch.empty((n, k), dtype=A.dtype, device=A.device)
    if n and k:
        nc = n + k
        W = torch.empty((nc, m), dtype=A.dtype, device=A.device)   # [A | b] transposed
        tau = torch.empty((n,), dtype=A.dtype, device=A.device)
        _copy_t[(triton.cdiv(m, 32), triton.cdiv(n, 32))](A, W, m, n, A.stride(0), A.stride(1), 1, m, BM=32, BN=32)
        _copy_t[(triton.cdiv(m, 32), triton.cdiv(k, 32))](B, W[n:], m, k, B.stride(0), B.stride(1), 1, m,
                                                          BM=32, BN=32)
        block = min(1024, triton.next_power_of_2(m))
        BM, BN = 128, 16
        for j in range(n):
            _house[(1,)](W, tau, m, j, j * m, BLOCK=block, num_stages=1)
            _apply[(triton.cdiv(nc - j - 1, BN),)](W, tau, m, nc, j, j * m, BM=BM, BN=BN, num_stages=1)
        # X = (Q^T b)[:n], then R x = X
        _copy_t[(triton.cdiv(n, 32), triton.cdiv(k, 32))](W[n:], X, n, k, 1, m, k, 1, BM=32, BN=32)
        _back_substitute(W, X, m)
    return X.reshape(n) if b.dim() == 1 else X
