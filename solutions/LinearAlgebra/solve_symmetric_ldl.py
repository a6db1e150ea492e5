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
def _ldl_solve(W, PIV, X, n, nrhs, C: tl.constexpr, HERM: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    # X <- A^-1 X for one BN-column tile, A = P_0 L_0 P_1 L_1 ... D ... (compact form in W's lower
    # triangle, as LAPACK's ?sytrs / ?hetrs): forward through the blocks (interchange, L_k^-1), solve
    # with D's 1x1 / 2x2 blocks, backward through the blocks (L_k^-T or ^-H, interchange).
    b = tl.program_id(0).to(tl.int64)
    wb = W + b * n * n * C
    xb = X + b * n * nrhs * C
    pb = PIV + b * n
    c = tl.program_id(1) * BN + tl.arange(0, BN)
    cm = c < nrhs
    rows = tl.arange(0, BM)
    # forward: X = L^-1 P^T X, block by block
    k = b * 0
    while k < n:
        tl.debug_barrier()  # rows updated as 2-D tiles are read back as rows by other threads
        p = tl.load(pb + k)
        s = tl.where(p > 0, 1, 2)
        kp = tl.where(p > 0, p, -p) - 1
        kk = k + s - 1
        if kp != kk:
            ar, ai = _ld(xb, kk * nrhs + c, cm, C)
            br, bi = _ld(xb, kp.to(tl.int64) * nrhs + c, cm, C)
            _st(xb, kk * nrhs + c, br, bi, cm, C)
            _st(xb, kp.to(tl.int64) * nrhs + c, ar, ai, cm, C)
        tl.debug_barrier()
        x0r, x0i = _ld(xb, k * nrhs + c, cm, C)
        x1r, x1i = _ld(xb, (k + 1) * nrhs + c, cm & ((c * 0 + s) == 2), C)
        for i0 in range(k + s, n, BM):
            i = i0 + rows
            im_ = i < n
            v0r, v0i = _ld(wb, i.to(tl.int64) * n + k, im_, C)
            v1r, v1i = _ld(wb, i.to(tl.int64) * n + k + 1, im_ & ((i * 0 + s) == 2), C)
            msk = im_[:, None] & cm[None, :]
            off = i.to(tl.int64)[:, None] * nrhs + c[None, :]
            tr, ti = _ld(xb, off, msk, C)
            tr = tr - (v0r[:, None] * x0r[None, :] - v0i[:, None] * x0i[None, :]
                       + v1r[:, None] * x1r[None, :] - v1i[:, None] * x1i[None, :])
            ti = ti - (v0r[:, None] * x0i[None, :] + v0i[:, None] * x0r[None, :]
                       + v1r[:, None] * x1i[None, :] + v1i[:, None] * x1r[None, :])
            _st(xb, off, tr, ti, msk, C)
        k += s
    # D's blocks
    tl.debug_barrier()
    k = b * 0
    while k < n:
        p = tl.load(pb + k)
        ar, ai = _ld1(wb, k * n + k, C)
        z0r, z0i = _ld(xb, k * nrhs + c, cm, C)
        if p > 0:
            yr, yi = _cdiv(z0r, z0i, z0r * 0.0 + ar, z0r * 0.0 + ai)
            _st(xb, k * nrhs + c, yr, yi, cm, C)
            k += 1
        else:
            er, ei = _ld1(wb, (k + 1) * n + k, C)
            dr, di = _ld1(wb, (k + 1) * n + k + 1, C)
            z1r, z1i = _ld(xb, (k + 1) * nrhs + c, cm, C)
            # D = [[a, e'], [e, d]] with e' = conj(e) (Hermitian) or e; D^-1 = [[d, -e'], [-e, a]] / det
            if HERM:
                fr = er
                fi = -ei
            else:
                fr = er
                fi = ei
            detr = ar * dr - ai * di - (er * fr - ei * fi)
            deti = ar * di + ai * dr - (er * fi + ei * fr)
            y0r = dr * z0r - di * z0i - (fr * z1r - fi * z1i)
            y0i = dr * z0i + di * z0r - (fr * z1i + fi * z1r)
            y1r = ar * z1r - ai * z1i - (er * z0r - ei * z0i)
            y1i = ar * z1i + ai * z1r - (er * z0i + ei * z0r)
            y0r, y0i = _cdiv(y0r, y0i, y0r * 0.0 + detr, y0r * 0.0 + deti)
            y1r, y1i = _cdiv(y1r, y1i, y1r * 0.0 + detr, y1r * 0.0 + deti)
            _st(xb, k * nrhs + c, y0r, y0i, cm, C)
            _st(xb, (k + 1) * nrhs + c, y1r, y1i, cm, C)
            k += 2
    # backward: X = P L^-T X (L^-H when Hermitian), blocks in reverse order
    k = b * 0 + n - 1
    while k >= 0:
        tl.debug_barrier()
        p = tl.load(pb + k)
        s = tl.where(p > 0, 1, 2)
        k0 = k - s + 1
        kp = tl.where(p > 0, p, -p) - 1
        kk = k
        acc0r = tl.zeros([BN], dtype=tl.float32 if X.dtype.element_ty == tl.float32 else tl.float64)
        acc0i = acc0r * 0.0
        acc1r = acc0r * 0.0
        acc1i = acc0r * 0.0
        for i0 in range(k + 1, n, BM):
            i = i0 + rows
            im_ = i < n
            v0r, v0i = _ld(wb, i.to(tl.int64) * n + k0, im_, C)
            v1r, v1i = _ld(wb, i.to(tl.int64) * n + k0 + 1, im_ & ((i * 0 + s) == 2), C)
            if HERM:
                v0i = -v0i
                v1i = -v1i
            msk = im_[:, None] & cm[None, :]
            tr, ti = _ld(xb, i.to(tl.int64)[:, None] * nrhs + c[None, :], msk, C)
            acc0r += tl.sum(v0r[:, None] * tr - v0i[:, None] * ti, axis=0)
            acc0i += tl.sum(v0r[:, None] * ti + v0i[:, None] * tr, axis=0)
            acc1r += tl.sum(v1r[:, None] * tr - v1i[:, None] * ti, axis=0)
            acc1i += tl.sum(v1r[:, None] * ti + v1i[:, None] * tr, axis=0)
        z0r, z0i = _ld(xb, k0 * nrhs + c, cm, C)
        _st(xb, k0 * nrhs + c, z0r - acc0r, z0i - acc0i, cm, C)
        if s == 2:
            z1r, z1i = _ld(xb, (k0 + 1) * nrhs + c, cm, C)
            _st(xb, (k0 + 1) * nrhs + c, z1r - acc1r, z1i - acc1i, cm, C)
        tl.debug_barrier()
        if kp != kk:
            ar, ai = _ld(xb, kk * nrhs + c, cm, C)
            br, bi = _ld(xb, kp.to(tl.int64) * nrhs + c, cm, C)
            _st(xb, kk * nrhs + c, br, bi, cm, C)
            _st(xb, kp.to(tl.int64) * nrhs + c, ar, ai, cm, C)
        k -= s


@triton.jit
def _copy_rhs_c(B, X, n, k, s_bb, s_bi, s_bj, C: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    bb = tl.program_id(0).to(tl.int64)
    r = tl.program_id(1) * BM + tl.arange(0, BM)
    c = tl.program_id(2) * BN + tl.arange(0, BN)
    msk = (r < n)[:, None] & (c < k)[None, :]
    src = B + bb * s_bb + r.to(tl.int64)[:, None] * s_bi + c.to(tl.int64)[None, :] * s_bj
    dst = X + (bb * n * k + r.to(tl.int64)[:, None] * k + c[None, :]) * C
    tl.store(dst, tl.load(src, mask=msk), mask=msk)
    if C == 2:
        tl.store(dst + 1, tl.load(src + 1, mask=msk), mask=msk)


def _batch_broadcast(a, b):
    out = []
    for i in range(max(len(a), len(b))):
        x = a[len(a) - 1 - i] if i < len(a) else 1
        y = b[len(b) - 1 - i] if i < len(b) else 1
        if x != y and x != 1 and y != 1:
            raise RuntimeError(f"batch dimensions {tuple(a)} and {tuple(b)} do not broadcast")
        out.append(max(x, y) if min(x, y) != 0 else 0)
    return tuple(reversed(out))


def solve_symmetric_ldl(A, b, hermitian=False, out=None):
    n = A.shape[-1]
    vector = b.dim() == 1 or (b.dim() == A.dim() - 1 and tuple(b.shape) == tuple(A.shape[:-1]))
    Bm = b.unsqueeze(-1) if vector else b
    nrhs = Bm.shape[-1]
    batch = _batch_broadcast(tuple(A.shape[:-2]), tuple(Bm.shape[:-2]))
    nb = 1
    for s in batch:
        nb *= s
    W, piv = _ldl(A.expand(*batch, n, n), hermitian)
    X = torch.empty((nb, n, nrhs), dtype=A.dtype, device=A.device)
    if nb and n and nrhs:
        C = 2 if A.is_complex() else 1
        B3 = _as_floats(Bm.expand(*batch, n, nrhs).reshape(nb, n, nrhs))
        Xf = _as_floats(X)
        _copy_rhs_c[(nb, triton.cdiv(n, 32), triton.cdiv(nrhs, 32))](B3, Xf, n, nrhs, B3.stride(0), B3.stride(1),
                                                                    B3.stride(2), C=C, BM=32, BN=32)
        _ldl_solve[(nb, triton.cdiv(nrhs, 16))](_as_floats(W), piv, Xf, n, nrhs, C=C,
                                               HERM=bool(hermitian) and C == 2, BM=32, BN=16)
    X = X.reshape(*batch, n, nrhs)
    X = X.squeeze(-1) if vector else X
    if out is not None:
        out.copy_(X)
        return out
    return X
