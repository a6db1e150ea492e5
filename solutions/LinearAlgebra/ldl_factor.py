import torch
import triton
import triton.language as tl


# LDL^T / LDL^H factorization with Bunch-Kaufman diagonal pivoting, in LAPACK's ?sytf2 / ?hetf2 lower
# compact form, one matrix per program. Complex matrices are interleaved (re, im) floats
# (torch.view_as_real), C = 2 floats per element; HERM selects A = L D L^H (else L D L^T, also for
# complex symmetric A). Step k takes a 1x1 pivot (kstep = 1) or a 2x2 pivot (kstep = 2) after
# interchanging row/column kk = k + kstep - 1 with kp in the trailing submatrix, then updates the
# trailing lower triangle (rank 1 or 2) in BLOCK x BLOCK tiles and stores the L column(s) in place.
BLOCK = 32
ALPHA = 0.6403882032022076  # (1 + sqrt(17)) / 8, Bunch-Kaufman's growth-minimizing threshold


@triton.jit
def _abs1(re, im, C: tl.constexpr):
    # LAPACK's cabs1 |re| + |im| for complex entries (|x| for real ones)
    if C == 2:
        return tl.abs(re) + tl.abs(im)
    else:
        return tl.abs(re)


@triton.jit
def _ld(base, off, msk, C: tl.constexpr):
    re = tl.load(base + off * C, mask=msk, other=0.0)
    if C == 2:
        im = tl.load(base + off * C + 1, mask=msk, other=0.0)
    else:
        im = re * 0.0
    return re, im


@triton.jit
def _st(base, off, re, im, msk, C: tl.constexpr):
    tl.store(base + off * C, re, mask=msk)
    if C == 2:
        tl.store(base + off * C + 1, im, mask=msk)


@triton.jit
def _ld1(base, off, C: tl.constexpr):
    re = tl.load(base + off * C)
    if C == 2:
        im = tl.load(base + off * C + 1)
    else:
        im = re * 0.0
    return re, im


@triton.jit
def _st1(base, off, re, im, C: tl.constexpr):
    tl.store(base + off * C, re)
    if C == 2:
        tl.store(base + off * C + 1, im)


@triton.jit
def _cdiv(ar, ai, br, bi):
    d = br * br + bi * bi
    return (ar * br + ai * bi) / d, (ai * br - ar * bi) / d


@triton.jit
def _bunch_kaufman(W, PIV, n, C: tl.constexpr, HERM: tl.constexpr, ALPHA: tl.constexpr, BLOCK: tl.constexpr):
    b = tl.program_id(0).to(tl.int64)
    base = W + b * n * n * C
    pbase = PIV + b * n
    lanes = tl.arange(0, BLOCK)
    k = b * 0
    while k < n:
        tl.debug_barrier()  # the previous step's updates are read back by other threads
        kr, ki = _ld1(base, k * n + k, C)
        if HERM:
            absakk = tl.abs(kr)
        else:
            absakk = _abs1(kr, ki, C)
        # largest off-diagonal entry of column k (first index of the maximum)
        best = tl.full([BLOCK], -1.0, kr.dtype)
        besti = tl.zeros([BLOCK], dtype=tl.int64)
        for i0 in range(k + 1, n, BLOCK):
            i = i0 + lanes
            re, im = _ld(base, i.to(tl.int64) * n + k, i < n, C)
            v = tl.where(i < n, _abs1(re, im, C), -1.0)
            upd = v > best
            best = tl.where(upd, v, best)
            besti = tl.where(upd, i, besti)
        colmax = tl.maximum(tl.max(best, 0), 0.0)
        imax = tl.min(tl.where(best == tl.max(best, 0), besti, n), 0)
        imax = tl.where(colmax > 0, imax, k)
        # largest off-diagonal entry of row/column imax (row imax left of it, column imax below it)
        rmax = tl.zeros([BLOCK], dtype=kr.dtype)
        for j0 in range(k, n, BLOCK):
            j = j0 + lanes
            left = (j < imax)
            below = (j > imax) & (j < n)
            off = tl.where(left, imax.to(tl.int64) * n + j, j.to(tl.int64) * n + imax)
            re, im = _ld(base, off, left | below, C)
            rmax = tl.maximum(rmax, tl.where(left | below, _abs1(re, im, C), 0.0))
        rowmax = tl.max(rmax, 0)
        pr, pi = _ld1(base, imax.to(tl.int64) * n + imax, C)
        if HERM:
            absimax = tl.abs(pr)
        else:
            absimax = _abs1(pr, pi, C)
        zero = tl.maximum(absakk, colmax) == 0
        one_k = zero | (absakk >= ALPHA * colmax) | (absakk * rowmax >= ALPHA * colmax * colmax)
        one_p = (one_k == 0) & (absimax >= ALPHA * rowmax)
        kstep = tl.where(one_k | one_p, 1, 2)
        kp = tl.where(one_k, k, imax)
        kk = k + kstep - 1
        if kp != kk:
            # interchange rows and columns kk and kp of the trailing submatrix (lower storage)
            for i0 in range(kp + 1, n, BLOCK):
                i = i0 + lanes
                m_ = i < n
                ar, ai = _ld(base, i.to(tl.int64) * n + kk, m_, C)
                br, bi = _ld(base, i.to(tl.int64) * n + kp, m_, C)
                _st(base, i.to(tl.int64) * n + kk, br, bi, m_, C)
                _st(base, i.to(tl.int64) * n + kp, ar, ai, m_, C)
            for j0 in range(kk + 1, kp, BLOCK):
                j = j0 + lanes
                m_ = j < kp
                ar, ai = _ld(base, j.to(tl.int64) * n + kk, m_, C)
                br, bi = _ld(base, kp.to(tl.int64) * n + j, m_, C)
                if HERM:
                    ai = -ai
                    bi = -bi
                _st(base, j.to(tl.int64) * n + kk, br, bi, m_, C)
                _st(base, kp.to(tl.int64) * n + j, ar, ai, m_, C)
            if HERM:
                xr, xi = _ld1(base, kp.to(tl.int64) * n + kk, C)
                _st1(base, kp.to(tl.int64) * n + kk, xr, -xi, C)
            ar, ai = _ld1(base, kk.to(tl.int64) * n + kk, C)
            br, bi = _ld1(base, kp.to(tl.int64) * n + kp, C)
            _st1(base, kk.to(tl.int64) * n + kk, br, bi, C)
            _st1(base, kp.to(tl.int64) * n + kp, ar, ai, C)
            if kstep == 2:
                ar, ai = _ld1(base, (k + 1) * n + k, C)
                br, bi = _ld1(base, kp.to(tl.int64) * n + k, C)
                _st1(base, (k + 1) * n + k, br, bi, C)
                _st1(base, kp.to(tl.int64) * n + k, ar, ai, C)
        tl.debug_barrier()
        if HERM:
            # the diagonal of a Hermitian matrix is real
            xr, xi = _ld1(base, k * n + k, C)
            _st1(base, k * n + k, xr, xi * 0.0, C)
            if kstep == 2:
                xr, xi = _ld1(base, (k + 1) * n + k + 1, C)
                _st1(base, (k + 1) * n + k + 1, xr, xi * 0.0, C)
        tl.debug_barrier()
        if zero == 0:
            # multipliers: with x = A[j, k] and y = A[j, k+1] (j beyond the pivot block) the L columns
            # are l1 = p11 x + p12 y and l2 = p21 x + p22 y, and A[i, j] -= x_i conj?(l1_j) + y_i conj?(l2_j)
            d1r, d1i = _ld1(base, k * n + k, C)
            if kstep == 1:
                if HERM:
                    p11r = 1.0 / d1r
                    p11i = p11r * 0.0
                else:
                    p11r, p11i = _cdiv(d1r * 0.0 + 1.0, d1r * 0.0, d1r, d1i)
                p12r = p11r * 0.0
                p12i = p11r * 0.0
                p21r = p11r * 0.0
                p21i = p11r * 0.0
                p22r = p11r * 0.0
                p22i = p11r * 0.0
            else:
                er, ei = _ld1(base, (k + 1) * n + k, C)
                d2r, d2i = _ld1(base, (k + 1) * n + k + 1, C)
                if HERM:
                    # zhetf2: D = |e|, d11 = re(A[k+1,k+1]) / D, d22 = re(A[k,k]) / D, tt = 1/(d11 d22 - 1),
                    # d21 = e / D, D = tt / D; wk = D (d11 x - d21 y), wkp1 = D (d22 y - conj(d21) x)
                    dabs = tl.sqrt(er * er + ei * ei)
                    d11 = d2r / dabs
                    d22 = d1r / dabs
                    tt = 1.0 / (d11 * d22 - 1.0)
                    d21r = er / dabs
                    d21i = ei / dabs
                    dd = tt / dabs
                    p11r = dd * d11
                    p11i = p11r * 0.0
                    p12r = -dd * d21r
                    p12i = -dd * d21i
                    p21r = -dd * d21r
                    p21i = dd * d21i
                    p22r = dd * d22
                    p22i = p11r * 0.0
                else:
                    # ?sytf2: d11 = A[k+1,k+1] / e, d22 = A[k,k] / e, t = 1 / (d11 d22 - 1), d21 = t / e;
                    # wk = d21 (d11 x - y), wkp1 = d21 (d22 y - x)
                    d11r, d11i = _cdiv(d2r, d2i, er, ei)
                    d22r, d22i = _cdiv(d1r, d1i, er, ei)
                    tr = d11r * d22r - d11i * d22i - 1.0
                    ti = d11r * d22i + d11i * d22r
                    tr, ti = _cdiv(tr * 0.0 + 1.0, tr * 0.0, tr, ti)
                    d21r, d21i = _cdiv(tr, ti, er, ei)
                    p11r = d21r * d11r - d21i * d11i
                    p11i = d21r * d11i + d21i * d11r
                    p12r = -d21r
                    p12i = -d21i
                    p21r = -d21r
                    p21i = -d21i
                    p22r = d21r * d22r - d21i * d22i
                    p22i = d21r * d22i + d21i * d22r
            s0 = k + kstep
            for i0 in range(s0, n, BLOCK):
                i = i0 + lanes
                im_ = i < n
                xr_i, xi_i = _ld(base, i.to(tl.int64) * n + k, im_, C)
                yr_i, yi_i = _ld(base, i.to(tl.int64) * n + k + 1, im_ & ((i * 0 + kstep) == 2), C)
                for j0 in range(s0, i0 + BLOCK, BLOCK):
                    j = j0 + lanes
                    jm = (j < n) & (j < i0 + BLOCK)
                    cr, ci = _ld(base, j.to(tl.int64) * n + k, jm, C)
                    yr, yi = _ld(base, j.to(tl.int64) * n + k + 1, jm & ((j * 0 + kstep) == 2), C)
                    l1r = p11r * cr - p11i * ci + p12r * yr - p12i * yi
                    l1i = p11r * ci + p11i * cr + p12r * yi + p12i * yr
                    l2r = p21r * cr - p21i * ci + p22r * yr - p22i * yi
                    l2i = p21r * ci + p21i * cr + p22r * yi + p22i * yr
                    if HERM:
                        l1i = -l1i
                        l2i = -l2i
                    tm = im_[:, None] & jm[None, :] & (i[:, None] >= j[None, :])
                    toff = i.to(tl.int64)[:, None] * n + j[None, :]
                    tr_, ti_ = _ld(base, toff, tm, C)
                    tr_ = tr_ - (xr_i[:, None] * l1r[None, :] - xi_i[:, None] * l1i[None, :]
                                 + yr_i[:, None] * l2r[None, :] - yi_i[:, None] * l2i[None, :])
                    ti_ = ti_ - (xr_i[:, None] * l1i[None, :] + xi_i[:, None] * l1r[None, :]
                                 + yr_i[:, None] * l2i[None, :] + yi_i[:, None] * l2r[None, :])
                    if HERM:
                        ti_ = tl.where(i[:, None] == j[None, :], 0.0, ti_)
                    _st(base, toff, tr_, ti_, tm, C)
            # store the L column(s) (the multipliers, unconjugated)
            tl.debug_barrier()
            for j0 in range(s0, n, BLOCK):
                j = j0 + lanes
                jm = j < n
                cr, ci = _ld(base, j.to(tl.int64) * n + k, jm, C)
                yr, yi = _ld(base, j.to(tl.int64) * n + k + 1, jm & ((j * 0 + kstep) == 2), C)
                l1r = p11r * cr - p11i * ci + p12r * yr - p12i * yi
                l1i = p11r * ci + p11i * cr + p12r * yi + p12i * yr
                _st(base, j.to(tl.int64) * n + k, l1r, l1i, jm, C)
                if kstep == 2:
                    l2r = p21r * cr - p21i * ci + p22r * yr - p22i * yi
                    l2i = p21r * ci + p21i * cr + p22r * yi + p22i * yr
                    _st(base, j.to(tl.int64) * n + k + 1, l2r, l2i, jm, C)
        if kstep == 1:
            tl.store(pbase + k, (kp + 1).to(tl.int32))
        else:
            tl.store(pbase + k, (-(kp + 1)).to(tl.int32))
            tl.store(pbase + k + 1, (-(kp + 1)).to(tl.int32))
        k += kstep


@triton.jit
def _copy_in_c(A, W, n, s_ab, s_am, s_an, C: tl.constexpr, BM: tl.constexpr):
    # W (contiguous, C floats per element) = A (float view with any strides, in floats)
    b = tl.program_id(0).to(tl.int64)
    r = tl.program_id(1) * BM + tl.arange(0, BM)
    c = tl.program_id(2) * BM + tl.arange(0, BM)
    msk = (r < n)[:, None] & (c < n)[None, :]
    src = A + b * s_ab + r.to(tl.int64)[:, None] * s_am + c.to(tl.int64)[None, :] * s_an
    dst = W + (b * n * n + r.to(tl.int64)[:, None] * n + c[None, :]) * C
    tl.store(dst, tl.load(src, mask=msk), mask=msk)
    if C == 2:
        tl.store(dst + 1, tl.load(src + 1, mask=msk), mask=msk)


def _as_floats(t):
    return torch.view_as_real(t) if t.is_complex() else t


def _ldl(A, hermitian):
    """Bunch-Kaufman LDL of a contiguous copy of A (batch flattened): (W, piv); W's lower triangle
    holds LAPACK's compact LD, its strict upper triangle is stale."""
    *batch, n, n2 = A.shape
    if n != n2:
        raise RuntimeError("ldl_factor: A must be a batch of square matrices")
    nb = 1
    for s in batch:
        nb *= int(s)
    W = torch.empty((nb, n, n), dtype=A.dtype, device=A.device)
    piv = torch.empty((nb, n), dtype=torch.int32, device=A.device)
    if nb == 0 or n == 0:
        return W, piv
    C = 2 if A.is_complex() else 1
    A3 = _as_floats(A.reshape(nb, n, n))
    Wf = _as_floats(W)
    _copy_in_c[(nb, triton.cdiv(n, 32), triton.cdiv(n, 32))](A3, Wf, n, A3.stride(0), A3.stride(1), A3.stride(2),
                                                             C=C, BM=32)
    _bunch_kaufman[(nb,)](Wf, piv, n, C=C, HERM=bool(hermitian) and C == 2, ALPHA=ALPHA, BLOCK=BLOCK)
    return W, piv


@triton.jit
def _lower_out(W, LD, n, C: tl.constexpr, BM: tl.constexpr):
    # LD = the lower triangle of W, zeros above the diagonal
    b = tl.program_id(0).to(tl.int64)
    r = tl.program_id(1) * BM + tl.arange(0, BM)
    c = tl.program_id(2) * BM + tl.arange(0, BM)
    msk = (r < n)[:, None] & (c < n)[None, :]
    keep = msk & (r[:, None] >= c[None, :])
    off = (b * n * n + r.to(tl.int64)[:, None] * n + c[None, :]) * C
    tl.store(LD + off, tl.load(W + off, mask=keep, other=0.0), mask=msk)
    if C == 2:
        tl.store(LD + off + 1, tl.load(W + off + 1, mask=keep, other=0.0), mask=msk)


def ldl_factor(A, hermitian=False, out=None):
    *batch, n, _ = A.shape
    W, piv = _ldl(A, hermitian)
    nb = W.shape[0]
    LD = torch.empty(A.shape, dtype=A.dtype, device=A.device)
    if nb and n:
        _lower_out[(nb, triton.cdiv(n, 32), triton.cdiv(n, 32))](_as_floats(W), _as_floats(LD), n,
                                                                 C=2 if A.is_complex() else 1, BM=32)
    piv = piv.reshape(*batch, n)
    if out is not None:
        out[0].copy_(LD)
        out[1].copy_(piv)
        return tuple(out)
    return LD, piv
