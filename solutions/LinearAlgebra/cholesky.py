import torch
import triton
import triton.language as tl


# Blocked right-looking Cholesky A = L L^H (LAPACK potrf order), real or complex. Complex matrices
# are handled as interleaved (re, im) float storage (torch.view_as_real), C = 2 floats per element.
# For each panel of NB columns: (1) factor the diagonal block in registers, (2) L21 = A21 L11^-H for
# blocks of rows (one program each), (3) A22 -= L21 L21^H with tl.dot on the lower tiles only.
NB = 16


@triton.jit
def _copy_in(A, W, m, n, s_ab, s_am, s_an, C: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    # W (contiguous, C floats per element) = A (float view with any strides, in floats)
    b = tl.program_id(0).to(tl.int64)
    r = tl.program_id(1) * BM + tl.arange(0, BM)
    c = tl.program_id(2) * BN + tl.arange(0, BN)
    msk = (r < m)[:, None] & (c < n)[None, :]
    src = A + b * s_ab + r.to(tl.int64)[:, None] * s_am + c.to(tl.int64)[None, :] * s_an
    dst = W + (b * m * n + r.to(tl.int64)[:, None] * n + c[None, :]) * C
    tl.store(dst, tl.load(src, mask=msk), mask=msk)
    if C == 2:
        tl.store(dst + 1, tl.load(src + 1, mask=msk), mask=msk)


@triton.jit
def _chol_diag(W, n, j0, jb, C: tl.constexpr, NB: tl.constexpr):
    b = tl.program_id(0).to(tl.int64)
    base = W + b * n * n * C
    r = tl.arange(0, NB)
    rm = r < jb
    msk = rm[:, None] & rm[None, :]
    off = ((j0 + r).to(tl.int64)[:, None] * n + (j0 + r)[None, :]) * C
    ar = tl.load(base + off, mask=msk, other=0.0)
    if C == 2:
        ai = tl.load(base + off + 1, mask=msk, other=0.0)
    else:
        ai = tl.zeros([NB, NB], dtype=ar.dtype)
    for c in range(0, jb):
        d = tl.sqrt(tl.sum(tl.sum(tl.where((r[:, None] == c) & (r[None, :] == c), ar, 0.0), axis=1), axis=0))
        below = r > c
        colr = tl.sum(tl.where(r[None, :] == c, ar, 0.0), axis=1)
        coli = tl.sum(tl.where(r[None, :] == c, ai, 0.0), axis=1)
        colr = tl.where(below, colr / d, tl.where(r == c, d, 0.0))
        coli = tl.where(below, coli / d, 0.0)
        ar = tl.where(r[None, :] == c, colr[:, None], ar)
        ai = tl.where(r[None, :] == c, coli[:, None], ai)
        # A[i, j] -= l_i conj(l_j) for i, j > c
        upd = below[:, None] & below[None, :]
        ar = tl.where(upd, ar - (colr[:, None] * colr[None, :] + coli[:, None] * coli[None, :]), ar)
        ai = tl.where(upd, ai - (coli[:, None] * colr[None, :] - colr[:, None] * coli[None, :]), ai)
    low = msk & (r[:, None] >= r[None, :])
    tl.store(base + off, ar, mask=low)
    if C == 2:
        tl.store(base + off + 1, ai, mask=low)


@triton.jit
def _chol_panel(W, n, j0, jb, C: tl.constexpr, NB: tl.constexpr, BM: tl.constexpr):
    # L21 = A21 L11^-H for BM rows below the diagonal block: column c of X = (A21[:, c] -
    # sum_{p<c} X[:, p] conj(L11[c, p])) / L11[c, c]
    b = tl.program_id(0).to(tl.int64)
    base = W + b * n * n * C
    r = tl.arange(0, NB)
    rm = r < jb
    rows = j0 + jb + tl.program_id(1) * BM + tl.arange(0, BM)
    rowm = rows < n
    loff = ((j0 + r).to(tl.int64)[:, None] * n + (j0 + r)[None, :]) * C
    lm = rm[:, None] & rm[None, :] & (r[:, None] >= r[None, :])
    lr = tl.load(base + loff, mask=lm, other=0.0)
    xoff = (rows.to(tl.int64)[:, None] * n + (j0 + r)[None, :]) * C
    xm = rowm[:, None] & rm[None, :]
    xr = tl.load(base + xoff, mask=xm, other=0.0)
    if C == 2:
        li = tl.load(base + loff + 1, mask=lm, other=0.0)
        xi = tl.load(base + xoff + 1, mask=xm, other=0.0)
    else:
        li = tl.zeros([NB, NB], dtype=lr.dtype)
        xi = tl.zeros([BM, NB], dtype=xr.dtype)
    for c in range(0, jb):
        dcc = tl.sum(tl.sum(tl.where((r[:, None] == c) & (r[None, :] == c), lr, 0.0), axis=1), axis=0)
        cr = tl.sum(tl.where(r[None, :] == c, xr, 0.0), axis=1) / dcc
        ci = tl.sum(tl.where(r[None, :] == c, xi, 0.0), axis=1) / dcc
        # l[c'] = L11[c', c] for c' > c; X[:, c'] -= x_c conj(l[c'])
        l_r = tl.sum(tl.where(r[None, :] == c, lr, 0.0), axis=1)
        l_i = tl.sum(tl.where(r[None, :] == c, li, 0.0), axis=1)
        later = (r > c)[None, :]
        xr = tl.where(r[None, :] == c, cr[:, None],
                      tl.where(later, xr - (cr[:, None] * l_r[None, :] + ci[:, None] * l_i[None, :]), xr))
        xi = tl.where(r[None, :] == c, ci[:, None],
                      tl.where(later, xi - (ci[:, None] * l_r[None, :] - cr[:, None] * l_i[None, :]), xi))
    tl.store(base + xoff, xr, mask=xm)
    if C == 2:
        tl.store(base + xoff + 1, xi, mask=xm)


@triton.jit
def _chol_update(W, n, j0, jb, C: tl.constexpr, NB: tl.constexpr, BM: tl.constexpr):
    # A22[rows, cols] -= L21[rows] @ L21[cols]^H on the tiles that meet the lower triangle
    b = tl.program_id(0).to(tl.int64)
    pm = tl.program_id(1)
    pn = tl.program_id(2)
    if pn <= pm:
        base = W + b * n * n * C
        s = j0 + jb
        rows = s + pm * BM + tl.arange(0, BM)
        cols = s + pn * BM + tl.arange(0, BM)
        kk = tl.arange(0, NB)
        km = kk < jb
        rowm = rows < n
        colm = cols < n
        aoff = (rows.to(tl.int64)[:, None] * n + cols[None, :]) * C
        am = rowm[:, None] & colm[None, :]
        roff = (rows.to(tl.int64)[:, None] * n + (j0 + kk)[None, :]) * C
        coff = (cols.to(tl.int64)[:, None] * n + (j0 + kk)[None, :]) * C
        ar_ = tl.load(base + roff, mask=rowm[:, None] & km[None, :], other=0.0)
        br_ = tl.trans(tl.load(base + coff, mask=colm[:, None] & km[None, :], other=0.0))
        acc = tl.load(base + aoff, mask=am, other=0.0) - tl.dot(ar_, br_, input_precision="ieee")
        if C == 2:
            ai_ = tl.load(base + roff + 1, mask=rowm[:, None] & km[None, :], other=0.0)
            bi_ = tl.trans(tl.load(base + coff + 1, mask=colm[:, None] & km[None, :], other=0.0))
            # (ar + i ai)(br - i bi)^T: real ar br + ai bi, imag ai br - ar bi
            acc = acc - tl.dot(ai_, bi_, input_precision="ieee")
            acci = tl.load(base + aoff + 1, mask=am, other=0.0)
            acci = acci - tl.dot(ai_, br_, input_precision="ieee") + tl.dot(ar_, bi_, input_precision="ieee")
            tl.store(base + aoff + 1, acci, mask=am)
        tl.store(base + aoff, acc, mask=am)


def _as_floats(t):
    return torch.view_as_real(t) if t.is_complex() else t


def _chol_factor(A):
    """Blocked Cholesky of a contiguous copy of A (batch flattened): the lower triangle of the
    returned W (nb, n, n) holds L; the strict upper triangle is left as it was."""
    *batch, n, n2 = A.shape
    if n != n2:
        raise RuntimeError("cholesky: A must be a batch of square matrices")
    nb = 1
    for s in batch:
        nb *= int(s)
    W = torch.empty((nb, n, n), dtype=A.dtype, device=A.device)
    if nb == 0 or n == 0:
        return W
    C = 2 if A.is_complex() else 1
    A3 = _as_floats(A.reshape(nb, n, n))
    Wf = _as_floats(W)
    BM = 32
    _copy_in[(nb, triton.cdiv(n, BM), triton.cdiv(n, BM))](A3, Wf, n, n, A3.stride(0), A3.stride(1), A3.stride(2),
                                                           C=C, BM=BM, BN=BM)
    for j0 in range(0, n, NB):
        jb = min(NB, n - j0)
        _chol_diag[(nb,)](Wf, n, j0, jb, C=C, NB=NB)
        rest = n - j0 - jb
        if rest > 0:
            _chol_panel[(nb, triton.cdiv(rest, BM))](Wf, n, j0, jb, C=C, NB=NB, BM=BM)
            t = triton.cdiv(rest, BM)
            _chol_update[(nb, t, t)](Wf, n, j0, jb, C=C, NB=NB, BM=BM)
    return W


@triton.jit
def _chol_out(W, OUT, n, UPPER: tl.constexpr, C: tl.constexpr, BM: tl.constexpr):
    # OUT = L (zeros above the diagonal) or, for upper=True, U = L^H (zeros below)
    b = tl.program_id(0).to(tl.int64)
    r = tl.program_id(1) * BM + tl.arange(0, BM)
    c = tl.program_id(2) * BM + tl.arange(0, BM)
    msk = (r < n)[:, None] & (c < n)[None, :]
    if UPPER:
        keep = r[:, None] <= c[None, :]
        src = (b * n * n + c.to(tl.int64)[None, :] * n + r[:, None]) * C
    else:
        keep = r[:, None] >= c[None, :]
        src = (b * n * n + r.to(tl.int64)[:, None] * n + c[None, :]) * C
    dst = (b * n * n + r.to(tl.int64)[:, None] * n + c[None, :]) * C
    x = tl.load(W + src, mask=msk & keep, other=0.0)
    tl.store(OUT + dst, x, mask=msk)
    if C == 2:
        xi = tl.load(W + src + 1, mask=msk & keep & (r[:, None] != c[None, :]), other=0.0)
        if UPPER:
            xi = -xi
        tl.store(OUT + dst + 1, xi, mask=msk)


def cholesky(A, upper=False, out=None):
    W = _chol_factor(A)
    n = A.shape[-1]
    res = torch.empty(A.shape, dtype=A.dtype, device=A.device)
    nb = W.shape[0]
    if nb and n:
        BM = 32
        _chol_out[(nb, triton.cdiv(n, BM), triton.cdiv(n, BM))](_as_floats(W), _as_floats(res), n, UPPER=upper,
                                                               C=2 if A.is_complex() else 1, BM=BM)
    if out is not None:
        out.copy_(res)
        return out
    return res
