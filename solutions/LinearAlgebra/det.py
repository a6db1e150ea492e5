import torch
import triton
import triton.language as tl


# Blocked right-looking LU (LAPACK getrf order) on a contiguous copy W, batch along grid axis 0.
# Rule kept by every launch below: no program reads global memory that the same launch writes,
# except a tile loaded once and stored back in place. Triton may load one value twice in two
# layouts (one copy feeding a store, the other arithmetic), so a value stored by one thread and read
# back by another thread of the same program is a race; that broke the previous single-program
# panel natively at n = 1024. Ordering therefore comes from kernel boundaries only. Per panel of NB
# columns (a host loop):
#   _panel_load      panel rows j0.. of W -> PB[0], and the per-block argmax of column j0
#   _panel_step      once per column, PB[s] -> PB[1-s]: pivot from the per-block maxima, row
#                    interchange, multipliers, rank-1 update of the panel, maxima of the next column
#   _panel_finish    PB -> W's panel columns; copies the rows the interchanges move (other columns)
#   _swap_scatter    writes those rows back interchanged
#   _lu_trsm_u12     U12 = L11^-1 A12
#   _lu_update       A22 -= L21 @ U12 (tl.dot)
NB = 16  # panel width
BM_P = 64  # panel rows per program
BC_P = 64  # columns per program of the interchange copies


@triton.jit
def _block_argmax(a, r, valid, m):
    # largest |value| among the valid rows and the first row holding it (LAPACK's i?amax)
    a = tl.where(valid, tl.abs(a), -1.0)
    mx = tl.max(a, 0)
    return mx, tl.min(tl.where(valid & (a == mx), r, m), 0)


@triton.jit
def _panel_load(W, PB, QV, QI, m, j0, jb, s_b, s_r, gmax,
                PIVOT: tl.constexpr, BM: tl.constexpr, NB: tl.constexpr):
    b = tl.program_id(0).to(tl.int64)
    g = tl.program_id(1)
    r = j0 + g * BM + tl.arange(0, BM)
    rm = r < m
    kk = tl.arange(0, NB)
    x = tl.load(W + b * s_b + r.to(tl.int64)[:, None] * s_r + (j0 + kk)[None, :],
                mask=rm[:, None] & (kk < jb)[None, :], other=0.0)
    tl.store(PB + (b * m + r.to(tl.int64))[:, None] * NB + kk[None, :], x, mask=rm[:, None])
    if PIVOT:
        v = tl.load(W + b * s_b + r.to(tl.int64) * s_r + j0, mask=rm, other=0.0)
        mx, i = _block_argmax(v, r, rm, m)
        tl.store(QV + b * gmax + g, mx)
        tl.store(QI + b * gmax + g, i)


@triton.jit
def _panel_step(PIN, POUT, QVI, QII, QVO, QIO, PIV, m, k, j0, jb, jj, gmax, G,
                PIVOT: tl.constexpr, BM: tl.constexpr, NB: tl.constexpr, GP: tl.constexpr):
    # column col = j0 + jj of the panel; reads only PIN and QVI/QII (the previous launch's output)
    b = tl.program_id(0).to(tl.int64)
    g = tl.program_id(1)
    col = j0 + jj
    p = col
    if PIVOT:
        gi = tl.arange(0, GP)
        qv = tl.load(QVI + b * gmax + gi, mask=gi < G, other=-1.0)
        qi = tl.load(QII + b * gmax + gi, mask=gi < G, other=m)
        mx = tl.max(qv, 0)
        p = tl.min(tl.where(qv == mx, qi, m), 0)
        p = tl.where(p < m, p, col)  # a column of NaN: no interchange
    pin = PIN + b * m * NB
    r = j0 + g * BM + tl.arange(0, BM)
    rm = r < m
    kk = tl.arange(0, NB)
    src = tl.where(r == col, p, tl.where(r == p, col, r)).to(tl.int64)  # rows col and p interchanged
    x = tl.load(pin + src[:, None] * NB + kk[None, :], mask=rm[:, None], other=0.0)
    v = tl.load(pin + src * NB + jj, mask=rm, other=0.0)
    d = tl.load(pin + p.to(tl.int64) * NB + jj)
    prow = tl.load(pin + p.to(tl.int64) * NB + kk)
    below = r > col
    # an exactly zero pivot leaves its column as it is (LAPACK); the matrix is singular
    l = tl.where(d != 0, v / d, v)
    upd = below[:, None] & ((kk > jj) & (kk < jb))[None, :]
    y = tl.where(upd, x - l[:, None] * prow[None, :], x)
    y = tl.where(below[:, None] & (kk == jj)[None, :], l[:, None], y)
    tl.store(POUT + (b * m + r.to(tl.int64))[:, None] * NB + kk[None, :], y, mask=rm[:, None])
    if PIVOT:
        # the next column's candidates, taken from y itself so that |L| <= 1 holds exactly
        nxt = tl.sum(tl.where((kk == jj + 1)[None, :], y, 0.0), axis=1)
        mx2, i2 = _block_argmax(nxt, r, rm & below, m)
        tl.store(QVO + b * gmax + g, mx2)
        tl.store(QIO + b * gmax + g, i2)
    if g == 0:
        tl.store(PIV + b * k + col, p.to(tl.int32))


@triton.jit
def _panel_perm(PIV, b, k, j0, jb, NB2: tl.constexpr):
    # rows the panel's interchanges touch (j0 + t and PIV[j0 + t]) and the row each receives,
    # found by undoing the interchanges in reverse
    i = tl.arange(0, NB2)
    first = i < jb
    second = (i >= jb) & (i < 2 * jb)
    pv = tl.load(PIV + b * k + j0 + i - jb, mask=second, other=0)
    pos = tl.where(first, j0 + i, pv)
    src = pos
    for t in range(0, jb):
        tt = j0 + jb - 1 - t
        q = tl.load(PIV + b * k + tt)
        src = tl.where(src == tt, q, tl.where(src == q, tt, src))
    return i, pos, src, first | second


@triton.jit
def _panel_finish(W, PB, PIV, R, m, n, k, j0, jb, s_b, s_r, G,
                  PIVOT: tl.constexpr, BM: tl.constexpr, NB: tl.constexpr, BC: tl.constexpr):
    # writes W's panel columns and reads only W's other columns: no overlap
    b = tl.program_id(0).to(tl.int64)
    g = tl.program_id(1)
    if g < G:
        r = j0 + g * BM + tl.arange(0, BM)
        kk = tl.arange(0, NB)
        msk = (r < m)[:, None] & (kk < jb)[None, :]
        x = tl.load(PB + (b * m + r.to(tl.int64))[:, None] * NB + kk[None, :], mask=msk)
        tl.store(W + b * s_b + r.to(tl.int64)[:, None] * s_r + (j0 + kk)[None, :], x, mask=msk)
    if PIVOT:
        i, pos, src, valid = _panel_perm(PIV, b, k, j0, jb, 2 * NB)
        c = g * BC + tl.arange(0, BC)
        cm = (c < n) & ((c < j0) | (c >= j0 + jb))
        msk2 = valid[:, None] & cm[None, :]
        x2 = tl.load(W + b * s_b + src.to(tl.int64)[:, None] * s_r + c[None, :], mask=msk2)
        tl.store(R + (b * 2 * NB + i)[:, None] * n + c[None, :], x2, mask=msk2)


@triton.jit
def _swap_scatter(W, PIV, R, n, k, j0, jb, s_b, s_r, NB: tl.constexpr, BC: tl.constexpr):
    # the copied rows back to their new places; each moved row is written once
    b = tl.program_id(0).to(tl.int64)
    i, pos, src, valid = _panel_perm(PIV, b, k, j0, jb, 2 * NB)
    earlier = (pos[:, None] == pos[None, :]) & (i[None, :] < i[:, None]) & valid[None, :]
    keep = valid & (src != pos) & (tl.sum(earlier.to(tl.int32), axis=1) == 0)
    c = tl.program_id(1) * BC + tl.arange(0, BC)
    cm = (c < n) & ((c < j0) | (c >= j0 + jb))
    x = tl.load(R + (b * 2 * NB + i)[:, None] * n + c[None, :], mask=keep[:, None] & cm[None, :])
    tl.store(W + b * s_b + pos.to(tl.int64)[:, None] * s_r + c[None, :], x, mask=keep[:, None] & cm[None, :])


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
    """Blocked LU of a contiguous copy of A (batch flattened): returns (W, piv)."""
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
    gmax = triton.cdiv(m, BM_P)
    PB = torch.empty((2, nb, m, NB), dtype=A.dtype, device=A.device)  # the panel, ping-pong
    QV = torch.empty((2, nb, gmax), dtype=A.dtype, device=A.device)  # per-block maxima (pivoting only)
    QI = torch.empty((2, nb, gmax), dtype=torch.int32, device=A.device)
    R = torch.empty((nb, 2 * NB, n) if pivot else (1,), dtype=A.dtype, device=A.device)  # rows interchanged
    nchunks = triton.cdiv(n, BC_P) if pivot else 0
    for j0 in range(0, k, NB):
        jb = min(NB, k - j0)
        G = triton.cdiv(m - j0, BM_P)
        _panel_load[(nb, G)](W, PB[0], QV[0], QI[0], m, j0, jb, m * n, n, gmax, PIVOT=pivot, BM=BM_P, NB=NB)
        for jj in range(jb):
            s = jj % 2
            _panel_step[(nb, G)](PB[s], PB[1 - s], QV[s], QI[s], QV[1 - s], QI[1 - s], piv, m, k, j0, jb, jj,
                                 gmax, G, PIVOT=pivot, BM=BM_P, NB=NB, GP=triton.next_power_of_2(gmax))
        _panel_finish[(nb, max(G, nchunks))](W, PB[jb % 2], piv, R, m, n, k, j0, jb, m * n, n, G,
                                            PIVOT=pivot, BM=BM_P, NB=NB, BC=BC_P)
        if pivot:
            _swap_scatter[(nb, nchunks)](W, piv, R, n, k, j0, jb, m * n, n, NB=NB, BC=BC_P)
        rest_c = n - j0 - jb
        rest_r = m - j0 - jb
        if rest_c > 0:
            _lu_trsm_u12[(nb, triton.cdiv(rest_c, 64))](W, n, j0, jb, m * n, n, NB=NB, BN=64)
            if rest_r > 0:
                _lu_update[(nb, triton.cdiv(rest_r, BM), triton.cdiv(rest_c, BN))](
                    W, m, n, j0, jb, m * n, n, NB=NB, BM=BM, BN=BN)
    return W, piv


@triton.jit
def _mul(a, b):
    return a * b


@triton.jit
def _lu_det(W, PIV, OUT, n, PIVOT: tl.constexpr, BLOCK: tl.constexpr):
    # det = (-1)^(number of row interchanges) * prod(diag(U)), the product taken in float64
    b = tl.program_id(0).to(tl.int64)
    prod = tl.full([BLOCK], 1.0, tl.float64)
    swaps = tl.zeros([BLOCK], dtype=tl.int32)
    for i0 in range(0, n, BLOCK):
        i = i0 + tl.arange(0, BLOCK)
        im = i < n
        d = tl.load(W + b * n * n + i.to(tl.int64) * (n + 1), mask=im, other=1.0).to(tl.float64)
        prod = prod * d
        if PIVOT:
            p = tl.load(PIV + b * n + i, mask=im, other=0)
            swaps += tl.where(im & (p != i), 1, 0)
    det = tl.reduce(prod, 0, _mul)
    nswap = tl.sum(swaps, 0)
    det = tl.where(nswap % 2 == 1, -det, det)
    tl.store(OUT + b, det.to(OUT.dtype.element_ty))


def _det(A, pivot):
    n = A.shape[-1]
    if A.dim() < 2 or A.shape[-2] != n:
        raise RuntimeError("det: A must be a batch of square matrices")
    batch = A.shape[:-2]
    if n == 0:
        return torch.ones(batch, dtype=A.dtype, device=A.device)  # the empty product
    W, piv = _lu_factor(A, pivot)
    out = torch.empty(batch, dtype=A.dtype, device=A.device)
    if W.shape[0]:
        _lu_det[(W.shape[0],)](W, piv, out, n, PIVOT=pivot, BLOCK=64)
    return out


def det(A):
    return _det(A, True)
