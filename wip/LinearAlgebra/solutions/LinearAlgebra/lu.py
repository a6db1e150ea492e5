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
def _lu_unpack(W, PIV, P, L, U, m, n, k, PIVOT: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    # one program per matrix: L (m x k, unit lower), U (k x n, upper), P (m x m) with A = P L U
    b = tl.program_id(0).to(tl.int64)
    w = W + b * m * n
    rows = tl.arange(0, BM)
    cols = tl.arange(0, BN)
    for r0 in range(0, m, BM):
        r = r0 + rows
        for c0 in range(0, n, BN):
            c = c0 + cols
            msk = (r < m)[:, None] & (c < n)[None, :]
            x = tl.load(w + r.to(tl.int64)[:, None] * n + c[None, :], mask=msk, other=0.0)
            lo = r[:, None] > c[None, :]
            lval = tl.where(lo, x, tl.where(r[:, None] == c[None, :], 1.0, 0.0))
            tl.store(L + b * m * k + r.to(tl.int64)[:, None] * k + c[None, :], lval.to(x.dtype),
                     mask=msk & (c < k)[None, :])
            tl.store(U + b * k * n + r.to(tl.int64)[:, None] * n + c[None, :], tl.where(lo, 0.0, x).to(x.dtype),
                     mask=msk & (r < k)[:, None])
    if PIVOT:
        # perm[i] = row of A that ends in position i after the interchanges; P[perm[i], i] = 1.
        # The permutation is built in the first column of P's storage row by row... kept simple:
        # P is zeroed, then each position i is traced back through the swaps.
        for r0 in range(0, m, BM):
            r = r0 + rows
            for c0 in range(0, m, BN):
                c = c0 + cols
                tl.store(P + b * m * m + r.to(tl.int64)[:, None] * m + c[None, :],
                         tl.zeros([BM, BN], dtype=P.dtype.element_ty), mask=(r < m)[:, None] & (c < m)[None, :])
        tl.debug_barrier()  # the zeros are in place before the ones land
        for i0 in range(0, m, BM):
            pos = i0 + rows
            # apply the swaps in reverse to find which original row lands at each final position
            src = pos
            for t in range(0, k):
                tt = k - 1 - t
                pv = tl.load(PIV + b * k + tt)
                src = tl.where(src == tt, pv, tl.where(src == pv, tt, src))
            tl.store(P + b * m * m + src.to(tl.int64) * m + pos, tl.full([BM], 1.0, P.dtype.element_ty), mask=pos < m)


def lu(A, pivot=True, out=None):
    *batch, m, n = A.shape
    k = min(m, n)
    W, piv = _lu_factor(A, pivot)
    nb = W.shape[0]
    dev, dt = A.device, A.dtype
    L = torch.empty((*batch, m, k), dtype=dt, device=dev)
    U = torch.empty((*batch, k, n), dtype=dt, device=dev)
    P = torch.empty((*batch, m, m) if pivot else (0,), dtype=dt, device=dev)
    if nb and m and n:
        _lu_unpack[(nb,)](W, piv, P, L, U, m, n, k, PIVOT=pivot, BM=32, BN=32)
    elif pivot and nb and m:
        # n == 0: L and U are empty, P is the identity
        _eye[(nb,)](P, m, BM=32)
    if out is not None:
        for dst, src in zip(out, (P, L, U)):
            dst.copy_(src)
        return tuple(out)
    return P, L, U


@triton.jit
def _eye(P, m, BM: tl.constexpr):
    b = tl.program_id(0).to(tl.int64)
    r = tl.arange(0, BM)
    for r0 in range(0, m, BM):
        rr = r0 + r
        for c0 in range(0, m, BM):
            cc = c0 + r
            v = tl.where(rr[:, None] == cc[None, :], 1.0, 0.0)
            tl.store(P + b * m * m + rr[:, None] * m + cc[None, :], v.to(P.dtype.element_ty),
                     mask=(rr < m)[:, None] & (cc < m)[None, :])
