import torch
import triton
import triton.language as tl


# Eigendecomposition of a general real matrix, one matrix per program, in float64 (complex values as
# separate real and imaginary planes): (1) Householder reduction to upper Hessenberg form H = Q^T A Q;
# (2) shifted QR iterations in complex arithmetic (Wilkinson shifts, an exceptional shift every 10
# iterations without progress, deflation when a subdiagonal entry drops below eps times its diagonal
# neighbours) until H is upper triangular (the complex Schur form T = Q^H A Q); (3) eigenvectors of T
# by back substitution (y_i[i] = 1, (T - lambda_i I) y_i = 0 above it); (4) V = Q Y with tl.dot,
# columns normalized to unit 2-norm. tl.debug_barrier() separates phases that read back what other
# threads of the program wrote.


@triton.jit
def _hessenberg(A, Hr, Qr, VS, n, s_ab, s_am, s_an, BLOCK: tl.constexpr):
    b = tl.program_id(0).to(tl.int64)
    hb = Hr + b * n * n
    qb = Qr + b * n * n
    vb = VS + b * n
    lanes = tl.arange(0, BLOCK)
    for r0 in range(0, n, BLOCK):
        r = r0 + lanes
        for c0 in range(0, n, BLOCK):
            c = c0 + lanes
            msk = (r < n)[:, None] & (c < n)[None, :]
            x = tl.load(A + b * s_ab + r.to(tl.int64)[:, None] * s_am + c.to(tl.int64)[None, :] * s_an, mask=msk)
            tl.store(hb + r.to(tl.int64)[:, None] * n + c[None, :], x.to(tl.float64), mask=msk)
            tl.store(qb + r.to(tl.int64)[:, None] * n + c[None, :], tl.where(r[:, None] == c[None, :], 1.0, 0.0),
                     mask=msk)
    for j in range(0, n - 2):
        tl.debug_barrier()
        alpha = tl.load(hb + (j + 1) * n + j)
        big = tl.zeros([BLOCK], dtype=tl.float64)
        for i0 in range(j + 2, n, BLOCK):
            i = i0 + lanes
            big = tl.maximum(big, tl.abs(tl.load(hb + i.to(tl.int64) * n + j, mask=i < n, other=0.0)))
        scale = tl.where(tl.max(big, 0) > 0, tl.max(big, 0), 1.0)
        ss = tl.zeros([BLOCK], dtype=tl.float64)
        for i0 in range(j + 2, n, BLOCK):
            i = i0 + lanes
            x = tl.load(hb + i.to(tl.int64) * n + j, mask=i < n, other=0.0) / scale
            ss += x * x
        xnorm = scale * tl.sqrt(tl.sum(ss, 0))
        s2 = tl.maximum(tl.abs(alpha), xnorm)
        s2 = tl.where(s2 > 0, s2, 1.0)
        nrm = s2 * tl.sqrt((alpha / s2) * (alpha / s2) + (xnorm / s2) * (xnorm / s2))
        beta = tl.where(alpha >= 0, -nrm, nrm)
        trivial = xnorm == 0
        tau = tl.where(trivial, 0.0, (beta - alpha) / beta)
        inv = tl.where(trivial, 0.0, 1.0 / (alpha - beta))
        beta = tl.where(trivial, alpha, beta)
        tl.store(vb + j + 1, 1.0)
        for i0 in range(j + 2, n, BLOCK):
            i = i0 + lanes
            im_ = i < n
            tl.store(vb + i, tl.load(hb + i.to(tl.int64) * n + j, mask=im_) * inv, mask=im_)
            tl.store(hb + i.to(tl.int64) * n + j, tl.zeros([BLOCK], dtype=tl.float64), mask=im_)
        tl.store(hb + (j + 1) * n + j, beta)
        tl.debug_barrier()
        # H[j+1:, j+1:] = (I - tau v v^T) H[j+1:, j+1:]
        for c0 in range(j + 1, n, BLOCK):
            c = c0 + lanes
            cm = c < n
            w = tl.zeros([BLOCK], dtype=tl.float64)
            for i0 in range(j + 1, n, BLOCK):
                i = i0 + lanes
                im_ = i < n
                v = tl.load(vb + i, mask=im_, other=0.0)
                t = tl.load(hb + i.to(tl.int64)[:, None] * n + c[None, :], mask=im_[:, None] & cm[None, :], other=0.0)
                w += tl.sum(v[:, None] * t, axis=0)
            for i0 in range(j + 1, n, BLOCK):
                i = i0 + lanes
                im_ = i < n
                v = tl.load(vb + i, mask=im_, other=0.0)
                off = i.to(tl.int64)[:, None] * n + c[None, :]
                msk = im_[:, None] & cm[None, :]
                tl.store(hb + off, tl.load(hb + off, mask=msk) - tau * v[:, None] * w[None, :], mask=msk)
        tl.debug_barrier()
        # H[:, j+1:] = H[:, j+1:] (I - tau v v^T), and the same for Q
        for r0 in range(0, n, BLOCK):
            r = r0 + lanes
            rm = r < n
            wh = tl.zeros([BLOCK], dtype=tl.float64)
            wq = tl.zeros([BLOCK], dtype=tl.float64)
            for c0 in range(j + 1, n, BLOCK):
                c = c0 + lanes
                cm = c < n
                v = tl.load(vb + c, mask=cm, other=0.0)
                off = r.to(tl.int64)[:, None] * n + c[None, :]
                msk = rm[:, None] & cm[None, :]
                wh += tl.sum(tl.load(hb + off, mask=msk, other=0.0) * v[None, :], axis=1)
                wq += tl.sum(tl.load(qb + off, mask=msk, other=0.0) * v[None, :], axis=1)
            for c0 in range(j + 1, n, BLOCK):
                c = c0 + lanes
                cm = c < n
                v = tl.load(vb + c, mask=cm, other=0.0)
                off = r.to(tl.int64)[:, None] * n + c[None, :]
                msk = rm[:, None] & cm[None, :]
                tl.store(hb + off, tl.load(hb + off, mask=msk) - tau * wh[:, None] * v[None, :], mask=msk)
                tl.store(qb + off, tl.load(qb + off, mask=msk) - tau * wq[:, None] * v[None, :], mask=msk)


@triton.jit
def _csqrt(x, y):
    # principal square root of x + iy (|x + iy| computed without overflow)
    m = tl.maximum(tl.abs(x), tl.abs(y))
    m = tl.where(m > 0, m, 1.0)
    r = m * tl.sqrt((x / m) * (x / m) + (y / m) * (y / m))
    re = tl.sqrt(tl.maximum((r + x) * 0.5, 0.0))
    im = tl.sqrt(tl.maximum((r - x) * 0.5, 0.0))
    return re, tl.where(y < 0, -im, im)


@triton.jit
def _schur(Hr, Hi, Qr, Qi, CS, ITS, n, eps, MAXIT, BLOCK: tl.constexpr):
    b = tl.program_id(0).to(tl.int64)
    hr = Hr + b * n * n
    hi_ = Hi + b * n * n
    qr = Qr + b * n * n
    qi = Qi + b * n * n
    cs = CS + b * n * 4
    lanes = tl.arange(0, BLOCK)
    hi = b * 0 + n - 1
    its = b * 0
    total = b * 0
    while (hi > 0) & (total < MAXIT):
        tl.debug_barrier()
        # lo: the last negligible subdiagonal entry in 1..hi (0 if none)
        lo = b * 0
        for l0 in range(1, hi + 1, BLOCK):
            l = l0 + lanes
            lm = l <= hi
            sr = tl.load(hr + l.to(tl.int64) * n + l - 1, mask=lm, other=0.0)
            si = tl.load(hi_ + l.to(tl.int64) * n + l - 1, mask=lm, other=0.0)
            ar = tl.load(hr + (l - 1).to(tl.int64) * (n + 1), mask=lm, other=0.0)
            ai = tl.load(hi_ + (l - 1).to(tl.int64) * (n + 1), mask=lm, other=0.0)
            dr = tl.load(hr + l.to(tl.int64) * (n + 1), mask=lm, other=0.0)
            di = tl.load(hi_ + l.to(tl.int64) * (n + 1), mask=lm, other=0.0)
            sub = tl.abs(sr) + tl.abs(si)
            tst = tl.abs(ar) + tl.abs(ai) + tl.abs(dr) + tl.abs(di)
            neg = lm & ((sub <= eps * tst) | (sub <= 1e-300))
            lo = tl.maximum(lo, tl.max(tl.where(neg, l, 0), 0).to(lo.dtype))
        if lo > 0:
            tl.store(hr + lo * n + lo - 1, 0.0)
            tl.store(hi_ + lo * n + lo - 1, 0.0)
        if lo == hi:
            hi -= 1
            its = its * 0
        else:
            # Wilkinson shift: the eigenvalue of the trailing 2 x 2 block nearest its last entry
            ar = tl.load(hr + (hi - 1) * (n + 1))
            ai = tl.load(hi_ + (hi - 1) * (n + 1))
            br = tl.load(hr + (hi - 1) * n + hi)
            bi = tl.load(hi_ + (hi - 1) * n + hi)
            cr = tl.load(hr + hi * n + hi - 1)
            ci = tl.load(hi_ + hi * n + hi - 1)
            dr = tl.load(hr + hi * (n + 1))
            di = tl.load(hi_ + hi * (n + 1))
            hr_ = (ar - dr) * 0.5
            hi2 = (ai - di) * 0.5
            zr = hr_ * hr_ - hi2 * hi2 + (br * cr - bi * ci)
            zi = 2.0 * hr_ * hi2 + (br * ci + bi * cr)
            qr_, qi_ = _csqrt(zr, zi)
            mr = (ar + dr) * 0.5
            mi = (ai + di) * 0.5
            l1r = mr + qr_
            l1i = mi + qi_
            l2r = mr - qr_
            l2i = mi - qi_
            dist1 = (l1r - dr) * (l1r - dr) + (l1i - di) * (l1i - di)
            near1 = dist1 <= (l2r - dr) * (l2r - dr) + (l2i - di) * (l2i - di)
            mur = tl.where(near1, l1r, l2r)
            mui = tl.where(near1, l1i, l2i)
            if its % 10 == 9:
                mur = dr + 0.75 * (tl.abs(cr) + tl.abs(ci))
                mui = di
            # explicit QR step on rows/columns lo..hi: H - mu I = G^H R, H <- R G^H + mu I
            for l0 in range(lo, hi + 1, BLOCK):
                l = l0 + lanes
                lm = l <= hi
                d_off = l.to(tl.int64) * (n + 1)
                tl.store(hr + d_off, tl.load(hr + d_off, mask=lm) - mur, mask=lm)
                tl.store(hi_ + d_off, tl.load(hi_ + d_off, mask=lm) - mui, mask=lm)
            for k in range(lo, hi):
                tl.debug_barrier()
                xr = tl.load(hr + k * (n + 1))
                xi = tl.load(hi_ + k * (n + 1))
                yr = tl.load(hr + (k + 1) * n + k)
                yi = tl.load(hi_ + (k + 1) * n + k)
                rr = tl.sqrt(xr * xr + xi * xi + yr * yr + yi * yi)
                rr = tl.where(rr > 0, rr, 1.0)
                c_r = xr / rr
                c_i = xi / rr
                s_r = yr / rr
                s_i = yi / rr
                tl.store(cs + k * 4, c_r)
                tl.store(cs + k * 4 + 1, c_i)
                tl.store(cs + k * 4 + 2, s_r)
                tl.store(cs + k * 4 + 3, s_i)
                # rows k, k+1 (columns k..n-1): row_k' = conj(c) row_k + conj(s) row_k+1,
                # row_k+1' = -s row_k + c row_k+1
                for c0 in range(k, n, BLOCK):
                    col = c0 + lanes
                    cm = col < n
                    o1 = k * n + col
                    o2 = (k + 1) * n + col
                    ur = tl.load(hr + o1, mask=cm, other=0.0)
                    ui = tl.load(hi_ + o1, mask=cm, other=0.0)
                    vr = tl.load(hr + o2, mask=cm, other=0.0)
                    vi = tl.load(hi_ + o2, mask=cm, other=0.0)
                    tl.store(hr + o1, c_r * ur + c_i * ui + s_r * vr + s_i * vi, mask=cm)
                    tl.store(hi_ + o1, c_r * ui - c_i * ur + s_r * vi - s_i * vr, mask=cm)
                    tl.store(hr + o2, -(s_r * ur - s_i * ui) + (c_r * vr - c_i * vi), mask=cm)
                    tl.store(hi_ + o2, -(s_r * ui + s_i * ur) + (c_r * vi + c_i * vr), mask=cm)
            for k in range(lo, hi):
                tl.debug_barrier()
                c_r = tl.load(cs + k * 4)
                c_i = tl.load(cs + k * 4 + 1)
                s_r = tl.load(cs + k * 4 + 2)
                s_i = tl.load(cs + k * 4 + 3)
                # columns k, k+1 times G^H: col_k' = c col_k + s col_k+1, col_k+1' = -conj(s) col_k + conj(c) col_k+1
                # (rows 0..k+1 of H, every row of Q)
                for r0 in range(0, n, BLOCK):
                    row = r0 + lanes
                    rm = row < n
                    hm = row <= k + 1
                    o1 = row.to(tl.int64) * n + k
                    o2 = o1 + 1
                    ur = tl.load(hr + o1, mask=hm, other=0.0)
                    ui = tl.load(hi_ + o1, mask=hm, other=0.0)
                    vr = tl.load(hr + o2, mask=hm, other=0.0)
                    vi = tl.load(hi_ + o2, mask=hm, other=0.0)
                    tl.store(hr + o1, c_r * ur - c_i * ui + s_r * vr - s_i * vi, mask=hm)
                    tl.store(hi_ + o1, c_r * ui + c_i * ur + s_r * vi + s_i * vr, mask=hm)
                    tl.store(hr + o2, -(s_r * ur + s_i * ui) + (c_r * vr + c_i * vi), mask=hm)
                    tl.store(hi_ + o2, -(s_r * ui - s_i * ur) + (c_r * vi - c_i * vr), mask=hm)
                    ur = tl.load(qr + o1, mask=rm, other=0.0)
                    ui = tl.load(qi + o1, mask=rm, other=0.0)
                    vr = tl.load(qr + o2, mask=rm, other=0.0)
                    vi = tl.load(qi + o2, mask=rm, other=0.0)
                    tl.store(qr + o1, c_r * ur - c_i * ui + s_r * vr - s_i * vi, mask=rm)
                    tl.store(qi + o1, c_r * ui + c_i * ur + s_r * vi + s_i * vr, mask=rm)
                    tl.store(qr + o2, -(s_r * ur + s_i * ui) + (c_r * vr + c_i * vi), mask=rm)
                    tl.store(qi + o2, -(s_r * ui - s_i * ur) + (c_r * vi - c_i * vr), mask=rm)
            tl.debug_barrier()
            for l0 in range(lo, hi + 1, BLOCK):
                l = l0 + lanes
                lm = l <= hi
                d_off = l.to(tl.int64) * (n + 1)
                tl.store(hr + d_off, tl.load(hr + d_off, mask=lm) + mur, mask=lm)
                tl.store(hi_ + d_off, tl.load(hi_ + d_off, mask=lm) + mui, mask=lm)
            its += 1
            total += 1
    tl.store(ITS + b, total.to(tl.int32))


@triton.jit
def _eigvecs_tri(Hr, Hi, Yr, Yi, n, eps, BLOCK: tl.constexpr):
    # Y (upper triangular, unit diagonal): column i is the eigenvector of T for lambda_i = T[i, i];
    # rows from the bottom up: Y[k, i] = -(sum_{j > k} T[k, j] Y[j, i]) / (T[k, k] - lambda_i), i > k
    b = tl.program_id(0).to(tl.int64)
    hr = Hr + b * n * n
    hi_ = Hi + b * n * n
    yr = Yr + b * n * n
    yi = Yi + b * n * n
    lanes = tl.arange(0, BLOCK)
    for q in range(0, n):
        k = n - 1 - q
        tl.debug_barrier()
        tkr = tl.load(hr + k * (n + 1))
        tki = tl.load(hi_ + k * (n + 1))
        for i0 in range(0, n, BLOCK):
            i = i0 + lanes
            im_ = i < n
            accr = tl.zeros([BLOCK], dtype=tl.float64)
            acci = tl.zeros([BLOCK], dtype=tl.float64)
            for j0 in range(k + 1, n, BLOCK):
                j = j0 + lanes
                jm = j < n
                tr = tl.load(hr + k * n + j, mask=jm, other=0.0)
                ti = tl.load(hi_ + k * n + j, mask=jm, other=0.0)
                off = j.to(tl.int64)[:, None] * n + i[None, :]
                msk = jm[:, None] & im_[None, :]
                ar = tl.load(yr + off, mask=msk, other=0.0)
                ai = tl.load(yi + off, mask=msk, other=0.0)
                accr += tl.sum(tr[:, None] * ar - ti[:, None] * ai, axis=0)
                acci += tl.sum(tr[:, None] * ai + ti[:, None] * ar, axis=0)
            lr = tl.load(hr + i.to(tl.int64) * (n + 1), mask=im_, other=0.0)
            li = tl.load(hi_ + i.to(tl.int64) * (n + 1), mask=im_, other=0.0)
            dr = tkr - lr
            di = tki - li
            # a (near-)zero denominator (a repeated eigenvalue) is replaced by eps |lambda_i|, as in
            # LAPACK's ?trevc
            smin = tl.maximum(eps * (tl.abs(lr) + tl.abs(li)), 1e-290)
            small = tl.abs(dr) + tl.abs(di) < smin
            dr = tl.where(small, smin, dr)
            di = tl.where(small, 0.0, di)
            den = dr * dr + di * di
            vr = -(accr * dr + acci * di) / den
            vi = -(acci * dr - accr * di) / den
            vr = tl.where(i == k, 1.0, tl.where(i > k, vr, 0.0))
            vi = tl.where(i > k, vi, 0.0)
            tl.store(yr + k * n + i, vr, mask=im_)
            tl.store(yi + k * n + i, vi, mask=im_)


@triton.jit
def _cmm(Ar, Ai, Br, Bi, Cr, Ci, n, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # C = A @ B for complex n x n matrices held as real and imaginary planes
    b = tl.program_id(0).to(tl.int64)
    r = tl.program_id(1) * BM + tl.arange(0, BM)
    c = tl.program_id(2) * BN + tl.arange(0, BN)
    accr = tl.zeros([BM, BN], dtype=tl.float64)
    acci = tl.zeros([BM, BN], dtype=tl.float64)
    for k0 in range(0, n, BK):
        kk = k0 + tl.arange(0, BK)
        am = (r < n)[:, None] & (kk < n)[None, :]
        bm = (kk < n)[:, None] & (c < n)[None, :]
        aoff = b * n * n + r.to(tl.int64)[:, None] * n + kk[None, :]
        boff = b * n * n + kk.to(tl.int64)[:, None] * n + c[None, :]
        ar = tl.load(Ar + aoff, mask=am, other=0.0)
        ai = tl.load(Ai + aoff, mask=am, other=0.0)
        br = tl.load(Br + boff, mask=bm, other=0.0)
        bi = tl.load(Bi + boff, mask=bm, other=0.0)
        accr += tl.dot(ar, br, input_precision="ieee") - tl.dot(ai, bi, input_precision="ieee")
        acci += tl.dot(ar, bi, input_precision="ieee") + tl.dot(ai, br, input_precision="ieee")
    off = b * n * n + r.to(tl.int64)[:, None] * n + c[None, :]
    msk = (r < n)[:, None] & (c < n)[None, :]
    tl.store(Cr + off, accr, mask=msk)
    tl.store(Ci + off, acci, mask=msk)


def _schur_vectors(A):
    """Schur form T = Q^H A Q of each matrix of A (batch flattened) and the eigenvectors Y of T (upper
    triangular, unit diagonal), all as float64 real/imaginary planes: (Tr, Ti, Qr, Qi, Yr, Yi)."""
    *batch, n, n2 = A.shape
    if n != n2:
        raise RuntimeError("A must be a batch of square matrices")
    nb = 1
    for s in batch:
        nb *= int(s)
    dev = A.device
    f64 = torch.float64
    Hr = torch.empty((nb, n, n), dtype=f64, device=dev)
    Hi = torch.zeros((nb, n, n), dtype=f64, device=dev)
    Qr = torch.empty((nb, n, n), dtype=f64, device=dev)
    Qi = torch.zeros((nb, n, n), dtype=f64, device=dev)
    Yr = torch.zeros((nb, n, n), dtype=f64, device=dev)
    Yi = torch.zeros((nb, n, n), dtype=f64, device=dev)
    if nb == 0 or n == 0:
        return Hr, Hi, Qr, Qi, Yr, Yi
    A3 = A.reshape(nb, n, n)
    VS = torch.empty((nb, n), dtype=f64, device=dev)
    BLOCK = 64 if n > 32 else 32
    _hessenberg[(nb,)](A3, Hr, Qr, VS, n, *A3.stride(), BLOCK=BLOCK)
    CS = torch.empty((nb, n, 4), dtype=f64, device=dev)
    its = torch.empty((nb,), dtype=torch.int32, device=dev)
    _schur[(nb,)](Hr, Hi, Qr, Qi, CS, its, n, 2.0 ** -53, 30 * max(n, 10), BLOCK=BLOCK)
    _eigvecs_tri[(nb,)](Hr, Hi, Yr, Yi, n, 2.0 ** -53, BLOCK=BLOCK)
    return Hr, Hi, Qr, Qi, Yr, Yi


@triton.jit
def _atan2(y, x):
    # float64 atan2 without libdevice: a = atan(min/max) in [0, pi/4] by two reductions
    # (t > tan(pi/8): atan t = pi/4 + atan((t-1)/(t+1)); then the half-angle step
    # atan r = 2 atan(r / (1 + sqrt(1 + r^2))), |r| <= 0.2) and 13 terms of the Taylor series, then
    # the octant from the signs and the order of |x| and |y|
    ax = tl.abs(x)
    ay = tl.abs(y)
    mx = tl.maximum(ax, ay)
    t = tl.minimum(ax, ay) / tl.where(mx > 0, mx, 1.0)
    big = t > 0.41421356237309503
    r = tl.where(big, (t - 1.0) / (t + 1.0), t)
    r = r / (1.0 + tl.sqrt(1.0 + r * r))
    r2 = r * r
    s = 1.0 / 25.0
    for i in tl.static_range(11, -1, -1):
        s = 1.0 / (2 * i + 1) - r2 * s
    a = 2.0 * r * s
    a = tl.where(big, 0.7853981633974483 + a, a)
    a = tl.where(ay > ax, 1.5707963267948966 - a, a)
    a = tl.where(x < 0, 3.141592653589793 - a, a)
    return tl.where(y < 0, -a, a)


@triton.jit
def _power_similarity(Tr, Ti, Yr, Yi, Xr, Xi, K, n, BLOCK: tl.constexpr):
    # X = Y diag(lambda^k) Y^-1 (= f(T) for the Schur form T = Y diag(lambda) Y^-1), Y unit upper
    # triangular: column by column, X[:, j] = lambda_j^k Y[:, j] - sum_{i<j} X[:, i] Y[i, j].
    # lambda^k = exp(k log lambda) with the principal logarithm (arg in (-pi, pi]).
    b = tl.program_id(0).to(tl.int64)
    lanes = tl.arange(0, BLOCK)
    base = b * n * n
    kr = tl.load(K)      # k in float64 (a Python float kernel argument would be passed as float32)
    ki = tl.load(K + 1)
    for j in range(0, n):
        tl.debug_barrier()
        lr = tl.load(Tr + base + j * (n + 1))
        li = tl.load(Ti + base + j * (n + 1))
        m = tl.maximum(tl.abs(lr), tl.abs(li))
        m = tl.where(m > 0, m, 1.0)
        lnr = tl.log(m) + 0.5 * tl.log((lr / m) * (lr / m) + (li / m) * (li / m))
        arg = _atan2(li, lr)
        er = kr * lnr - ki * arg
        ei = kr * arg + ki * lnr
        mag = tl.exp(er)
        fr = mag * tl.cos(ei)
        fi = mag * tl.sin(ei)
        for r0 in range(0, n, BLOCK):
            r = r0 + lanes
            rm = r < n
            yr = tl.load(Yr + base + r.to(tl.int64) * n + j, mask=rm, other=0.0)
            yi = tl.load(Yi + base + r.to(tl.int64) * n + j, mask=rm, other=0.0)
            accr = fr * yr - fi * yi
            acci = fr * yi + fi * yr
            for i0 in range(0, j, BLOCK):
                i = i0 + lanes
                imask = i < j
                cr = tl.load(Yr + base + i.to(tl.int64) * n + j, mask=imask, other=0.0)
                ci = tl.load(Yi + base + i.to(tl.int64) * n + j, mask=imask, other=0.0)
                off = base + r.to(tl.int64)[:, None] * n + i[None, :]
                msk = rm[:, None] & imask[None, :]
                xr = tl.load(Xr + off, mask=msk, other=0.0)
                xi = tl.load(Xi + off, mask=msk, other=0.0)
                accr -= tl.sum(xr * cr[None, :] - xi * ci[None, :], axis=1)
                acci -= tl.sum(xr * ci[None, :] + xi * cr[None, :], axis=1)
            tl.store(Xr + base + r.to(tl.int64) * n + j, accr, mask=rm)
            tl.store(Xi + base + r.to(tl.int64) * n + j, acci, mask=rm)


@triton.jit
def _cmm_bh(Ar, Ai, Br, Bi, OUT, n, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # OUT (interleaved complex) = A @ B^H for complex n x n planes
    b = tl.program_id(0).to(tl.int64)
    r = tl.program_id(1) * BM + tl.arange(0, BM)
    c = tl.program_id(2) * BN + tl.arange(0, BN)
    accr = tl.zeros([BM, BN], dtype=tl.float64)
    acci = tl.zeros([BM, BN], dtype=tl.float64)
    for k0 in range(0, n, BK):
        kk = k0 + tl.arange(0, BK)
        am = (r < n)[:, None] & (kk < n)[None, :]
        bm = (kk < n)[:, None] & (c < n)[None, :]
        aoff = b * n * n + r.to(tl.int64)[:, None] * n + kk[None, :]
        boff = b * n * n + c.to(tl.int64)[None, :] * n + kk[:, None]  # B^H[kk, c] = conj(B[c, kk])
        ar = tl.load(Ar + aoff, mask=am, other=0.0)
        ai = tl.load(Ai + aoff, mask=am, other=0.0)
        br = tl.load(Br + boff, mask=bm, other=0.0)
        bi = -tl.load(Bi + boff, mask=bm, other=0.0)
        accr += tl.dot(ar, br, input_precision="ieee") - tl.dot(ai, bi, input_precision="ieee")
        acci += tl.dot(ar, bi, input_precision="ieee") + tl.dot(ai, br, input_precision="ieee")
    off = (b * n * n + r.to(tl.int64)[:, None] * n + c[None, :]) * 2
    msk = (r < n)[:, None] & (c < n)[None, :]
    tl.store(OUT + off, accr.to(OUT.dtype.element_ty), mask=msk)
    tl.store(OUT + off + 1, acci.to(OUT.dtype.element_ty), mask=msk)


def matrix_power_eig(A, k, *, out=None):
    *batch, n, _ = A.shape
    cdt = torch.complex64 if A.dtype == torch.float32 else torch.complex128
    k = complex(k)
    Tr, Ti, Qr, Qi, Yr, Yi = _schur_vectors(A)
    nb = Tr.shape[0]
    res = torch.empty((*batch, n, n), dtype=cdt, device=A.device)
    if nb and n:
        # A = Q T Q^H and T = Y diag(lambda) Y^-1, so A^k = Q (Y diag(lambda^k) Y^-1) Q^H
        Xr = torch.empty_like(Tr)
        Xi = torch.empty_like(Ti)
        BLOCK = 64 if n > 32 else 32
        kt = torch.full((2,), k.real, dtype=torch.float64, device=A.device)
        kt[1].fill_(k.imag)
        _power_similarity[(nb,)](Tr, Ti, Yr, Yi, Xr, Xi, kt, n, BLOCK=BLOCK)
        g = (nb, triton.cdiv(n, 32), triton.cdiv(n, 32))
        Pr = torch.empty_like(Tr)
        Pi = torch.empty_like(Ti)
        _cmm[g](Qr, Qi, Xr, Xi, Pr, Pi, n, BM=32, BN=32, BK=32)
        _cmm_bh[g](Pr, Pi, Qr, Qi, torch.view_as_real(res), n, BM=32, BN=32, BK=32)
    if out is not None:
        out.copy_(res)
        return out
    return res
