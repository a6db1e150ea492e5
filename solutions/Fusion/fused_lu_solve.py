import torch
import triton
import triton.language as tl


# LU with partial pivoting, right-looking and blocked by panels of PNB columns, then L y = b and U x = y.
# The row interchanges are applied to A's rows (and to the multipliers found so far) but never to b:
# L U = P^T A, and the task asks for the solution of L U x = b.
#
# Every step that reads what an earlier step wrote is its own kernel launch: no kernel reads global
# memory that another thread of the same launch writes (a thread stores only elements it loaded itself,
# or elements no other thread of the launch reads). The multipliers go to their own buffer L, so the
# launch that computes column j's multipliers never overwrites the column it reads.
# Per column j of a panel: _lu_pivot (one program per matrix: pivot search, row interchange) and
# _lu_col (multipliers, update of the panel's remaining columns). Per panel: _lu_u12 (the block row
# right of the panel, L11^-1 A12) and _lu_gemm (the trailing matrix, A22 -= L21 U12, with tl.dot).
PNB = 32  # panel width
TB = 32   # diagonal block of the substitutions


@triton.jit
def _copy_in(A, S, n, s_ab, s_am, s_an, BM: tl.constexpr):
    # S (contiguous, batch-major) = A (any strides)
    b = tl.program_id(0).to(tl.int64)
    r = tl.program_id(1) * BM + tl.arange(0, BM)
    c = tl.program_id(2) * BM + tl.arange(0, BM)
    msk = (r < n)[:, None] & (c < n)[None, :]
    x = tl.load(A + b * s_ab + r.to(tl.int64)[:, None] * s_am + c.to(tl.int64)[None, :] * s_an, mask=msk)
    tl.store(S + b * n * n + r.to(tl.int64)[:, None] * n + c[None, :], x, mask=msk)


@triton.jit
def _lu_pivot(S, L, n, j, BLOCK: tl.constexpr):
    # p = the row >= j holding the largest |S[p, j]| (the first such row on a tie), then rows j and p
    # interchanged: in S (columns j .. n-1) and in L (columns 0 .. j-1, the multipliers found so far).
    # The search's loads all finish before the reductions that give p, i.e. before any store.
    b = tl.program_id(0).to(tl.int64)
    sb = S + b * n * n
    lb = L + b * n * n
    offs = tl.arange(0, BLOCK)
    best = tl.zeros([BLOCK], dtype=tl.float32) - 1.0
    bidx = tl.zeros([BLOCK], dtype=tl.int32)
    for i0 in range(j, n, BLOCK):
        r = i0 + offs
        v = tl.abs(tl.load(sb + r.to(tl.int64) * n + j, mask=r < n, other=0.0)).to(tl.float32)
        v = tl.where(r < n, v, -1.0)
        take = v > best   # strict: the earlier row stays on a tie
        best = tl.where(take, v, best)
        bidx = tl.where(take, r, bidx)
    top = tl.max(best, 0)
    p = tl.min(tl.where(best == top, bidx, n), 0)
    if p != j:
        for c0 in range(0, n, BLOCK):
            c = c0 + offs
            ms = (c >= j) & (c < n)
            sj = tl.load(sb + j * n + c, mask=ms)
            sp = tl.load(sb + p * n + c, mask=ms)
            tl.store(sb + j * n + c, sp, mask=ms)
            tl.store(sb + p * n + c, sj, mask=ms)
            ml = c < j
            lj = tl.load(lb + j * n + c, mask=ml)
            lp = tl.load(lb + p * n + c, mask=ml)
            tl.store(lb + j * n + c, lp, mask=ml)
            tl.store(lb + p * n + c, lj, mask=ml)


@triton.jit
def _lu_col(S, L, n, j, jend, BM: tl.constexpr, PNB: tl.constexpr):
    # rows i > j: l_i = S[i, j] / S[j, j] (stored in L), and the panel's columns c in (j, jend) updated,
    # S[i, c] -= l_i S[j, c]. Column j and row j of S are only read here.
    b = tl.program_id(0).to(tl.int64)
    sb = S + b * n * n
    lb = L + b * n * n
    rows = j + 1 + tl.program_id(1) * BM + tl.arange(0, BM)
    rm = rows < n
    piv = tl.load(sb + j * n + j)
    l = tl.load(sb + rows.to(tl.int64) * n + j, mask=rm, other=0.0) / piv
    tl.store(lb + rows.to(tl.int64) * n + j, l, mask=rm)
    pc = j + 1 + tl.arange(0, PNB)
    pm = pc < jend
    u = tl.load(sb + j * n + pc, mask=pm, other=0.0)
    off = rows.to(tl.int64)[:, None] * n + pc[None, :]
    msk = rm[:, None] & pm[None, :]
    t = tl.load(sb + off, mask=msk, other=0.0)
    tl.store(sb + off, t - l[:, None] * u[None, :], mask=msk)


@triton.jit
def _lu_u12(S, L, n, j0, jb, PNB: tl.constexpr, BN: tl.constexpr):
    # U12 = L11^-1 A12 for one BN-column tile right of the panel, by forward substitution in registers
    # (L11 = the panel's unit lower triangle, in L)
    b = tl.program_id(0).to(tl.int64)
    sb = S + b * n * n
    lb = L + b * n * n
    r = tl.arange(0, PNB)
    rm = r < jb
    lmask = rm[:, None] & rm[None, :] & (r[:, None] > r[None, :])
    l11 = tl.load(lb + (j0 + r).to(tl.int64)[:, None] * n + (j0 + r)[None, :], mask=lmask, other=0.0)
    c = j0 + jb + tl.program_id(1) * BN + tl.arange(0, BN)
    off = (j0 + r).to(tl.int64)[:, None] * n + c[None, :]
    msk = rm[:, None] & (c < n)[None, :]
    x = tl.load(sb + off, mask=msk, other=0.0)
    for k in range(0, jb):
        xk = tl.sum(tl.where(r[:, None] == k, x, 0.0), axis=0)     # row k, final
        lk = tl.sum(tl.where(r[None, :] == k, l11, 0.0), axis=1)   # L11[:, k], zero on and above row k
        x = x - lk[:, None] * xk[None, :]
    tl.store(sb + off, x, mask=msk)


@triton.jit
def _lu_gemm(S, L, n, j0, jb, PNB: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    # A22[rows, cols] -= L21[rows] @ U12[:, cols]; L21 (in L) and U12 (rows j0 .. j0+jb-1 of S) are only
    # read here, each A22 tile only by the program that writes it
    b = tl.program_id(0).to(tl.int64)
    sb = S + b * n * n
    lb = L + b * n * n
    s = j0 + jb
    rows = s + tl.program_id(1) * BM + tl.arange(0, BM)
    cols = s + tl.program_id(2) * BN + tl.arange(0, BN)
    rowm = rows < n
    colm = cols < n
    kk = tl.arange(0, PNB)
    km = kk < jb
    l21 = tl.load(lb + rows.to(tl.int64)[:, None] * n + (j0 + kk)[None, :], mask=rowm[:, None] & km[None, :],
                  other=0.0)
    u12 = tl.load(sb + (j0 + kk).to(tl.int64)[:, None] * n + cols[None, :], mask=km[:, None] & colm[None, :],
                  other=0.0)
    off = rows.to(tl.int64)[:, None] * n + cols[None, :]
    msk = rowm[:, None] & colm[None, :]
    acc = tl.load(sb + off, mask=msk, other=0.0) - tl.dot(l21, u12, input_precision="ieee")
    tl.store(sb + off, acc, mask=msk)


@triton.jit
def _trsm_diag(T, X, n, nrhs, i0, LOWER: tl.constexpr, UNIT: tl.constexpr, TB: tl.constexpr, BN: tl.constexpr):
    # X[i0:i0+TB] <- T[i0:i0+TB, i0:i0+TB]^-1 X[i0:i0+TB] for one BN-column tile, in registers; only T's
    # triangle (without the diagonal if UNIT) is read: the rest of L's buffer is never written
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
    if LOWER:
        tri = rr[:, None] >= rr[None, :]
    else:
        tri = rr[:, None] <= rr[None, :]
    if UNIT:
        tri = tri & (rr[:, None] != rr[None, :])
    t = tl.load(tb + ri.to(tl.int64)[:, None] * n + ri[None, :], mask=rim[:, None] & rim[None, :] & tri, other=0.0)
    for q in range(0, TB):
        if LOWER:
            k = q
        else:
            k = TB - 1 - q
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
def _trsm_update(T, X, n, nrhs, i0, LOWER: tl.constexpr, TB: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    # X[rows] -= T[rows, i0:i0+TB] @ X[i0:i0+TB] for the rows still to be solved (below the block for a
    # lower factor, above it for an upper one); the solved block is only read here
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
    t = tl.load(tb + rows.to(tl.int64)[:, None] * n + kk[None, :], mask=rm[:, None] & km[None, :], other=0.0)
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


def _lu(S, L):
    """In place: S's upper triangle becomes U, L's strict lower triangle the multipliers, with
    L U = P^T A for the partial-pivoting P (the strict lower part of S is left stale)."""
    nb, n, _ = S.shape
    BM, BN = 64, 64
    block = min(1024, triton.next_power_of_2(n))
    for j0 in range(0, n, PNB):
        jend = min(j0 + PNB, n)
        for j in range(j0, jend):
            _lu_pivot[(nb,)](S, L, n, j, BLOCK=block, num_stages=1)
            if j + 1 < n:
                _lu_col[(nb, triton.cdiv(n - j - 1, BM))](S, L, n, j, jend, BM=BM, PNB=PNB)
        rest = n - jend
        if rest > 0:
            _lu_u12[(nb, triton.cdiv(rest, BN))](S, L, n, j0, jend - j0, PNB=PNB, BN=BN)
            _lu_gemm[(nb, triton.cdiv(rest, BM), triton.cdiv(rest, BN))](S, L, n, j0, jend - j0, PNB=PNB, BM=BM,
                                                                         BN=BN)


def _tri_solve(T, X, lower, unit):
    """X <- T^-1 X in place (T's lower or upper triangle): each diagonal block is solved, then the rows
    still to be solved are updated, one launch each."""
    nb, n, nrhs = X.shape
    BM = 64
    BN = 16 if nrhs <= 16 else 32
    nblk = triton.cdiv(n, TB)
    for step in range(nblk):
        i0 = (step if lower else nblk - 1 - step) * TB
        _trsm_diag[(nb, triton.cdiv(nrhs, BN))](T, X, n, nrhs, i0, LOWER=lower, UNIT=unit, TB=TB, BN=BN)
        rows = n - i0 - TB if lower else i0
        if rows > 0:
            _trsm_update[(nb, triton.cdiv(rows, BM), triton.cdiv(nrhs, BN))](T, X, n, nrhs, i0, LOWER=lower, TB=TB,
                                                                             BM=BM, BN=BN)


def fused_lu_solve(A, b):
    n = A.shape[-1]
    batch = tuple(A.shape[:-2])
    vector = b.dim() == A.dim() - 1
    B = b.unsqueeze(-1) if vector else b
    if A.dim() < 2 or A.shape[-2] != n or tuple(B.shape[:-1]) != batch + (n,):
        raise RuntimeError(f"fused_lu_solve: A {tuple(A.shape)} and b {tuple(b.shape)} do not match")
    k = B.shape[-1]
    nb = 1
    for s in batch:
        nb *= int(s)
    X = torch.empty((nb, n, k), dtype=b.dtype, device=b.device)
    if nb and n and k:
        A3 = A.reshape(nb, n, n)
        B3 = B.reshape(nb, n, k)
        S = torch.empty((nb, n, n), dtype=A.dtype, device=A.device)
        L = torch.empty((nb, n, n), dtype=A.dtype, device=A.device)
        _copy_in[(nb, triton.cdiv(n, 32), triton.cdiv(n, 32))](A3, S, n, *A3.stride(), BM=32)
        _lu(S, L)
        _copy_rhs[(nb, triton.cdiv(n, 32), triton.cdiv(k, 32))](B3, X, n, k, *B3.stride(), BM=32, BN=32)
        _tri_solve(L, X, lower=True, unit=True)     # L y = b (b as given: no interchanges)
        _tri_solve(S, X, lower=False, unit=False)   # U x = y
    return X.reshape(b.shape)
