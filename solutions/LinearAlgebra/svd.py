import torch
import triton
import triton.language as tl


# Householder QR (LAPACK geqrf/orgqr conventions), one matrix of the batch per program along axis 0,
# panels of NB columns: the panel kernel computes the panel's reflectors H_j = I - tau_j v_j v_j^T
# (v_j stored below the diagonal of column j, v_j[j] = 1 implicit, beta_j = R[j, j] on the diagonal)
# and applies each to the rest of the panel; the apply kernel then applies the panel's NB reflectors
# to BN-column tiles of the trailing matrix in parallel. Q is formed by applying the reflectors in
# reverse order to the identity. Norms are scaled by the column's largest magnitude (no overflow).
NB = 16


@triton.jit
def _copy_in(A, W, m, n, s_ab, s_am, s_an, BM: tl.constexpr, BN: tl.constexpr):
    b = tl.program_id(0).to(tl.int64)
    r = tl.program_id(1) * BM + tl.arange(0, BM)
    c = tl.program_id(2) * BN + tl.arange(0, BN)
    msk = (r < m)[:, None] & (c < n)[None, :]
    x = tl.load(A + b * s_ab + r.to(tl.int64)[:, None] * s_am + c.to(tl.int64)[None, :] * s_an, mask=msk)
    tl.store(W + b * m * n + r.to(tl.int64)[:, None] * n + c[None, :], x, mask=msk)


@triton.jit
def _qr_panel(W, TAU, m, n, k, j0, jb, BM: tl.constexpr, NB: tl.constexpr):
    b = tl.program_id(0).to(tl.int64)
    base = W + b * m * n
    rows = tl.arange(0, BM)
    for jj in range(0, jb):
        tl.debug_barrier()  # the previous reflector's update is read back by other threads
        j = j0 + jj
        alpha = tl.load(base + j * n + j)
        # ||W[j+1:, j]||, scaled by its largest magnitude
        big = tl.zeros([BM], dtype=alpha.dtype)
        for i0 in range(j + 1, m, BM):
            r = i0 + rows
            big = tl.maximum(big, tl.abs(tl.load(base + r.to(tl.int64) * n + j, mask=r < m, other=0.0)))
        big = tl.max(big, 0)
        scale = tl.where(big > 0, big, 1.0)
        ss = tl.zeros([BM], dtype=alpha.dtype)
        for i0 in range(j + 1, m, BM):
            r = i0 + rows
            x = tl.load(base + r.to(tl.int64) * n + j, mask=r < m, other=0.0) / scale
            ss += x * x
        xnorm = scale * tl.sqrt(tl.sum(ss, 0))
        # beta = -sign(alpha) * ||(alpha, x)||; tau = (beta - alpha) / beta; v = x / (alpha - beta)
        s2 = tl.maximum(tl.abs(alpha), xnorm)
        s2 = tl.where(s2 > 0, s2, 1.0)
        nrm = s2 * tl.sqrt((alpha / s2) * (alpha / s2) + (xnorm / s2) * (xnorm / s2))
        beta = tl.where(alpha >= 0, -nrm, nrm)
        trivial = xnorm == 0
        tau = tl.where(trivial, 0.0, (beta - alpha) / beta)
        inv = tl.where(trivial, 1.0, 1.0 / (alpha - beta))
        beta = tl.where(trivial, alpha, beta)
        tl.store(TAU + b * k + j, tau)
        tl.debug_barrier()
        tl.store(base + j * n + j, beta)
        for i0 in range(j + 1, m, BM):
            r = i0 + rows
            rm = r < m
            tl.store(base + r.to(tl.int64) * n + j, tl.load(base + r.to(tl.int64) * n + j, mask=rm) * inv, mask=rm)
        # apply H_j to the panel's columns j+1 .. j0+jb-1: w = v^T W[j:, c]; W[j:, c] -= tau v w
        tl.debug_barrier()
        pc = j + 1 + tl.arange(0, NB)
        pm = pc < j0 + jb
        w = tl.load(base + j * n + pc, mask=pm, other=0.0)
        for i0 in range(j + 1, m, BM):
            r = i0 + rows
            rm = r < m
            v = tl.load(base + r.to(tl.int64) * n + j, mask=rm, other=0.0)
            t = tl.load(base + r.to(tl.int64)[:, None] * n + pc[None, :], mask=rm[:, None] & pm[None, :], other=0.0)
            w += tl.sum(v[:, None] * t, axis=0)
        tl.store(base + j * n + pc, tl.load(base + j * n + pc, mask=pm) - tau * w, mask=pm)
        tl.debug_barrier()
        for i0 in range(j + 1, m, BM):
            r = i0 + rows
            rm = r < m
            v = tl.load(base + r.to(tl.int64) * n + j, mask=rm, other=0.0)
            off = r.to(tl.int64)[:, None] * n + pc[None, :]
            msk = rm[:, None] & pm[None, :]
            tl.store(base + off, tl.load(base + off, mask=msk) - tau * v[:, None] * w[None, :], mask=msk)


@triton.jit
def _qr_apply(W, TAU, M, m, n, k, mcols, j0, jb, c0, REVERSE: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    # One BN-column tile of M (m x mcols, contiguous): M <- H_{j0+jb-1} ... H_{j0} M (H_{j0} applied
    # first: the trailing update, Q^T A), or with REVERSE M <- H_{j0} ... H_{j0+jb-1} M (H_{j0+jb-1}
    # applied first: forming Q = H_0 H_1 ... H_{k-1} from its right end).
    b = tl.program_id(0).to(tl.int64)
    vb = W + b * m * n
    mb = M + b * m * mcols
    cols = c0 + tl.program_id(1) * BN + tl.arange(0, BN)
    cm = cols < mcols
    rows = tl.arange(0, BM)
    for q in range(0, jb):
        tl.debug_barrier()  # the previous reflector's update is read back by other threads
        if REVERSE:
            j = j0 + jb - 1 - q
        else:
            j = j0 + q
        tau = tl.load(TAU + b * k + j)
        w = tl.load(mb + j * mcols + cols, mask=cm, other=0.0)
        for i0 in range(j + 1, m, BM):
            r = i0 + rows
            rm = r < m
            v = tl.load(vb + r.to(tl.int64) * n + j, mask=rm, other=0.0)
            t = tl.load(mb + r.to(tl.int64)[:, None] * mcols + cols[None, :], mask=rm[:, None] & cm[None, :], other=0.0)
            w += tl.sum(v[:, None] * t, axis=0)
        tl.store(mb + j * mcols + cols, tl.load(mb + j * mcols + cols, mask=cm) - tau * w, mask=cm)
        tl.debug_barrier()
        for i0 in range(j + 1, m, BM):
            r = i0 + rows
            rm = r < m
            v = tl.load(vb + r.to(tl.int64) * n + j, mask=rm, other=0.0)
            off = r.to(tl.int64)[:, None] * mcols + cols[None, :]
            msk = rm[:, None] & cm[None, :]
            tl.store(mb + off, tl.load(mb + off, mask=msk) - tau * v[:, None] * w[None, :], mask=msk)


def _qr_factor(A):
    """Householder QR of a contiguous copy of A (batch flattened): W (nb, m, n) holds R on and above
    the diagonal and the reflectors below it, tau (nb, k)."""
    *batch, m, n = A.shape
    nb = 1
    for s in batch:
        nb *= int(s)
    k = min(m, n)
    W = torch.empty((nb, m, n), dtype=A.dtype, device=A.device)
    tau = torch.empty((nb, k), dtype=A.dtype, device=A.device)
    if nb == 0 or m == 0 or n == 0:
        return W, tau
    A3 = A.reshape(nb, m, n)
    _copy_in[(nb, triton.cdiv(m, 32), triton.cdiv(n, 32))](A3, W, m, n, *A3.stride(), BM=32, BN=32)
    BN = 32
    for j0 in range(0, k, NB):
        jb = min(NB, k - j0)
        _qr_panel[(nb,)](W, tau, m, n, k, j0, jb, BM=64, NB=NB)
        rest = n - j0 - jb
        if rest > 0:
            _qr_apply[(nb, triton.cdiv(rest, BN))](W, tau, W, m, n, k, n, j0, jb, j0 + jb, REVERSE=False, BM=64, BN=BN)
    return W, tau


@triton.jit
def _eye_cols(Q, m, qc, BM: tl.constexpr, BN: tl.constexpr):
    b = tl.program_id(0).to(tl.int64)
    r = tl.program_id(1) * BM + tl.arange(0, BM)
    c = tl.program_id(2) * BN + tl.arange(0, BN)
    v = tl.where(r[:, None] == c[None, :], 1.0, 0.0)
    tl.store(Q + b * m * qc + r.to(tl.int64)[:, None] * qc + c[None, :], v.to(Q.dtype.element_ty),
             mask=(r < m)[:, None] & (c < qc)[None, :])


def _qr_form_q(W, tau, qc):
    """Q (nb, m, qc): the first qc columns of H_0 H_1 ... H_{k-1}."""
    nb, m, n = W.shape
    k = tau.shape[1]
    Q = torch.empty((nb, m, qc), dtype=W.dtype, device=W.device)
    if nb == 0 or m == 0 or qc == 0:
        return Q
    _eye_cols[(nb, triton.cdiv(m, 32), triton.cdiv(qc, 32))](Q, m, qc, BM=32, BN=32)
    BN = 32
    last = ((k - 1) // NB) * NB if k else 0
    for j0 in range(last, -1, -NB):
        jb = min(NB, k - j0)
        if jb <= 0 or qc - j0 <= 0:
            continue
        # columns < j0 of Q are still identity columns there, which H_j (j >= j0) leaves unchanged
        _qr_apply[(nb, triton.cdiv(qc - j0, BN))](W, tau, Q, m, n, k, qc, j0, jb, j0, REVERSE=True, BM=64, BN=BN)
    return Q


# SVD by QR-preconditioned one-sided Jacobi: for M = A (m >= n) or A^T (m < n), M = Q R (Householder,
# above), then Jacobi rotations of R's columns (W = R V, V the product of the rotations) until they
# are mutually orthogonal; the columns are sorted by norm, and a Householder QR of W = Q_w R_w gives
# sigma_j = ||W[:, j]|| and U_R = Q_w (column signs fixed by R_w's diagonal), which also completes the basis where a
# sigma is 0. Then M = (Q[:, :n] U_R) diag(sigma) V^T. Each Jacobi step rotates n/2 disjoint column
# pairs (round-robin order) in parallel, PB pairs per program; the host loops over steps and sweeps
# and stops when a sweep found every pair orthogonal to sqrt(n) * eps.
PB = 32


@triton.jit
def _jacobi_step(Wm, V, FLAG, n, npad, step, tol, PB: tl.constexpr, BR: tl.constexpr, SINGLE: tl.constexpr):
    b = tl.program_id(0).to(tl.int64)
    wb = Wm + b * n * n
    vb = V + b * n * n
    i = tl.program_id(1) * PB + tl.arange(0, PB)
    half = npad // 2
    # circle method: position 0 fixed, positions 1 .. npad-1 rotate by `step`
    p = tl.where(i == 0, 0, (i - 1 + step) % (npad - 1) + 1)
    q = (npad - 1 - i - 1 + step) % (npad - 1) + 1
    lo = tl.minimum(p, q)
    hi = tl.maximum(p, q)
    ok = (i < half) & (hi < n)
    rows = tl.arange(0, BR)
    if SINGLE:
        # all rows in one tile (n <= BR): load the four columns once
        msk = ok[:, None] & (rows < n)[None, :]
        off_lo = rows.to(tl.int64)[None, :] * n + lo[:, None]
        off_hi = rows.to(tl.int64)[None, :] * n + hi[:, None]
        x = tl.load(wb + off_lo, mask=msk, other=0.0).to(tl.float64)
        y = tl.load(wb + off_hi, mask=msk, other=0.0).to(tl.float64)
        alpha = tl.sum(x * x, axis=1)
        beta = tl.sum(y * y, axis=1)
        gamma = tl.sum(x * y, axis=1)
    else:
        alpha = tl.zeros([PB], dtype=tl.float64)
        beta = tl.zeros([PB], dtype=tl.float64)
        gamma = tl.zeros([PB], dtype=tl.float64)
        for r0 in range(0, n, BR):
            r = r0 + rows
            msk = ok[:, None] & (r < n)[None, :]
            x = tl.load(wb + r.to(tl.int64)[None, :] * n + lo[:, None], mask=msk, other=0.0).to(tl.float64)
            y = tl.load(wb + r.to(tl.int64)[None, :] * n + hi[:, None], mask=msk, other=0.0).to(tl.float64)
            alpha += tl.sum(x * x, axis=1)
            beta += tl.sum(y * y, axis=1)
            gamma += tl.sum(x * y, axis=1)
    # rotate where the pair is not yet orthogonal to tol (relative): the Rutishauser rotation that
    # zeroes gamma, t = sign(zeta) / (|zeta| + sqrt(1 + zeta^2)), zeta = (beta - alpha) / (2 gamma)
    off = tl.abs(gamma) / tl.sqrt(tl.where(alpha * beta > 0, alpha * beta, 1.0))
    rot = ok & (alpha > 0) & (beta > 0) & (off > tol)
    zeta = (beta - alpha) / (2.0 * tl.where(rot, gamma, 1.0))
    az = tl.abs(zeta)
    t = tl.where(az > 1e100, 0.5 / az, 1.0 / (az + tl.sqrt(1.0 + tl.where(az > 1e100, 0.0, az * az))))
    t = tl.where(zeta < 0, -t, t)
    c = 1.0 / tl.sqrt(1.0 + t * t)
    s = c * t
    c = tl.where(rot, c, 1.0)
    s = tl.where(rot, s, 0.0)
    # applied as x' = x - s (y + tau x), y' = y + s (x - tau y), tau = s / (1 + c): small rotations
    # become small corrections, which rounds less than c x - s y
    tau = s / (1.0 + c)
    # one flag for the whole batch: the largest off-orthogonality that was rotated away
    tl.atomic_max(FLAG, tl.max(tl.where(rot, off, 0.0), 0).to(tl.float32))
    if SINGLE:
        msk = msk & rot[:, None]
        tl.store(wb + off_lo, (x - s[:, None] * (y + tau[:, None] * x)).to(Wm.dtype.element_ty), mask=msk)
        tl.store(wb + off_hi, (y + s[:, None] * (x - tau[:, None] * y)).to(Wm.dtype.element_ty), mask=msk)
        x = tl.load(vb + off_lo, mask=msk, other=0.0).to(tl.float64)
        y = tl.load(vb + off_hi, mask=msk, other=0.0).to(tl.float64)
        tl.store(vb + off_lo, (x - s[:, None] * (y + tau[:, None] * x)).to(V.dtype.element_ty), mask=msk)
        tl.store(vb + off_hi, (y + s[:, None] * (x - tau[:, None] * y)).to(V.dtype.element_ty), mask=msk)
    else:
        for r0 in range(0, n, BR):
            r = r0 + rows
            msk = (ok & rot)[:, None] & (r < n)[None, :]
            off_lo = r.to(tl.int64)[None, :] * n + lo[:, None]
            off_hi = r.to(tl.int64)[None, :] * n + hi[:, None]
            x = tl.load(wb + off_lo, mask=msk, other=0.0).to(tl.float64)
            y = tl.load(wb + off_hi, mask=msk, other=0.0).to(tl.float64)
            tl.store(wb + off_lo, (x - s[:, None] * (y + tau[:, None] * x)).to(Wm.dtype.element_ty), mask=msk)
            tl.store(wb + off_hi, (y + s[:, None] * (x - tau[:, None] * y)).to(Wm.dtype.element_ty), mask=msk)
            x = tl.load(vb + off_lo, mask=msk, other=0.0).to(tl.float64)
            y = tl.load(vb + off_hi, mask=msk, other=0.0).to(tl.float64)
            tl.store(vb + off_lo, (x - s[:, None] * (y + tau[:, None] * x)).to(V.dtype.element_ty), mask=msk)
            tl.store(vb + off_hi, (y + s[:, None] * (x - tau[:, None] * y)).to(V.dtype.element_ty), mask=msk)


@triton.jit
def _normalize_v(Wm, V, n, BJ: tl.constexpr, BR: tl.constexpr):
    # rounding in the rotations lets V's column norms drift from 1 (by ~1e2 u after many sweeps):
    # v_j /= ||v_j|| and w_j /= ||v_j||, which keeps W V^T (= R) exactly what it was
    b = tl.program_id(0).to(tl.int64)
    j = tl.program_id(1) * BJ + tl.arange(0, BJ)
    jm = j < n
    rows = tl.arange(0, BR)
    ss = tl.zeros([BJ], dtype=tl.float64)
    for r0 in range(0, n, BR):
        r = r0 + rows
        x = tl.load(V + b * n * n + r.to(tl.int64)[None, :] * n + j[:, None], mask=jm[:, None] & (r < n)[None, :],
                    other=0.0).to(tl.float64)
        ss += tl.sum(x * x, axis=1)
    inv = 1.0 / tl.sqrt(tl.where(ss > 0, ss, 1.0))
    for r0 in range(0, n, BR):
        r = r0 + rows
        msk = jm[:, None] & (r < n)[None, :]
        off = b * n * n + r.to(tl.int64)[None, :] * n + j[:, None]
        tl.store(V + off, (tl.load(V + off, mask=msk).to(tl.float64) * inv[:, None]).to(V.dtype.element_ty), mask=msk)
        tl.store(Wm + off, (tl.load(Wm + off, mask=msk).to(tl.float64) * inv[:, None]).to(Wm.dtype.element_ty),
                 mask=msk)


@triton.jit
def _upper_square_and_eye(W0, R, V, m, n, BM: tl.constexpr):
    # R (n x n) = upper triangle of the QR's W0 (m x n); V = I
    b = tl.program_id(0).to(tl.int64)
    r = tl.program_id(1) * BM + tl.arange(0, BM)
    c = tl.program_id(2) * BM + tl.arange(0, BM)
    msk = (r < n)[:, None] & (c < n)[None, :]
    x = tl.load(W0 + b * m * n + r.to(tl.int64)[:, None] * n + c[None, :], mask=msk & (r[:, None] <= c[None, :]),
                other=0.0)
    off = b * n * n + r.to(tl.int64)[:, None] * n + c[None, :]
    tl.store(R + off, x, mask=msk)
    tl.store(V + off, tl.where(r[:, None] == c[None, :], 1.0, 0.0).to(V.dtype.element_ty), mask=msk)


@triton.jit
def _column_norms(Wm, NRM, n, BJ: tl.constexpr, BR: tl.constexpr):
    # squared column norms, computed once: the sort below compares these stored values, since the
    # same sum reduced in two tile shapes can round differently in compiled code (a column would
    # then rank before itself and two columns share a position)
    b = tl.program_id(0).to(tl.int64)
    j = tl.program_id(1) * BJ + tl.arange(0, BJ)
    jm = j < n
    rows = tl.arange(0, BR)
    nj = tl.zeros([BJ], dtype=tl.float64)
    for r0 in range(0, n, BR):
        r = r0 + rows
        x = tl.load(Wm + b * n * n + r.to(tl.int64)[None, :] * n + j[:, None], mask=jm[:, None] & (r < n)[None, :],
                    other=0.0).to(tl.float64)
        nj += tl.sum(x * x, axis=1)
    tl.store(NRM + b * n + j, nj, mask=jm)


@triton.jit
def _sort_columns(Wm, V, NRM, W2, V2, S, n, BJ: tl.constexpr, BI: tl.constexpr, BR: tl.constexpr):
    # position of column j = number of columns with a larger norm (ties: lower index first); columns
    # of Wm and V are copied to that position in W2 and V2, and the norms (the singular values, in
    # descending order by construction) to S
    b = tl.program_id(0).to(tl.int64)
    j = tl.program_id(1) * BJ + tl.arange(0, BJ)
    jm = j < n
    rows = tl.arange(0, BR)
    nj = tl.load(NRM + b * n + j, mask=jm, other=0.0)
    pos = tl.zeros([BJ], dtype=tl.int32)
    for i0 in range(0, n, BI):
        ii = i0 + tl.arange(0, BI)
        ni = tl.load(NRM + b * n + ii, mask=ii < n, other=0.0)
        before = (ni[None, :] > nj[:, None]) | ((ni[None, :] == nj[:, None]) & (ii[None, :] < j[:, None]))
        pos += tl.sum(tl.where(before & (ii < n)[None, :], 1, 0), axis=1)
    tl.store(S + b * n + pos, tl.sqrt(nj).to(S.dtype.element_ty), mask=jm)
    for r0 in range(0, n, BR):
        r = r0 + rows
        msk = jm[:, None] & (r < n)[None, :]
        src = b * n * n + r.to(tl.int64)[None, :] * n + j[:, None]
        dst = b * n * n + r.to(tl.int64)[None, :] * n + pos[:, None]
        tl.store(W2 + dst, tl.load(Wm + src, mask=msk), mask=msk)
        tl.store(V2 + dst, tl.load(V + src, mask=msk), mask=msk)


@triton.jit
def _bmm(A, B, C, M, N, K, s_ab, s_am, s_ak, s_bb, s_bk, s_bn, s_cb, s_cm, s_cn,
         BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # C[b] = A[b] @ B[b] (any strides), float32 inputs at full precision ("ieee"), float64 natively
    b = tl.program_id(0).to(tl.int64)
    r = tl.program_id(1) * BM + tl.arange(0, BM)
    c = tl.program_id(2) * BN + tl.arange(0, BN)
    acc = tl.zeros([BM, BN], dtype=tl.float32 if A.dtype.element_ty == tl.float32 else tl.float64)
    for k0 in range(0, K, BK):
        kk = k0 + tl.arange(0, BK)
        a = tl.load(A + b * s_ab + r.to(tl.int64)[:, None] * s_am + kk.to(tl.int64)[None, :] * s_ak,
                    mask=(r < M)[:, None] & (kk < K)[None, :], other=0.0)
        bb = tl.load(B + b * s_bb + kk.to(tl.int64)[:, None] * s_bk + c.to(tl.int64)[None, :] * s_bn,
                     mask=(kk < K)[:, None] & (c < N)[None, :], other=0.0)
        acc = tl.dot(a, bb, acc, input_precision="ieee", out_dtype=acc.dtype)  # Triton 3.6 wants it named
    tl.store(C + b * s_cb + r.to(tl.int64)[:, None] * s_cm + c.to(tl.int64)[None, :] * s_cn,
             acc.to(C.dtype.element_ty), mask=(r < M)[:, None] & (c < N)[None, :])


def _mm(A, B, C):
    """C = A @ B for 3-D tensors (batch, M, K) @ (batch, K, N) -> C (batch, M, N), any strides."""
    nb, M, K = A.shape
    N = B.shape[2]
    if nb == 0 or M == 0 or N == 0:
        return
    BM, BN, BK = 32, 32, 32
    _bmm[(nb, triton.cdiv(M, BM), triton.cdiv(N, BN))](A, B, C, M, N, K, *A.stride(), *B.stride(), *C.stride(),
                                                      BM=BM, BN=BN, BK=BK)


@triton.jit
def _signs(W2, U, n, BM: tl.constexpr):
    # U's column j (Q_w's) multiplied by sign(R_w[j, j])
    b = tl.program_id(0).to(tl.int64)
    j = tl.program_id(1) * BM + tl.arange(0, BM)
    jm = j < n
    d = tl.load(W2 + b * n * n + j.to(tl.int64) * (n + 1), mask=jm, other=1.0)
    sg = tl.where(d < 0, -1.0, 1.0)
    for r0 in range(0, n, BM):
        r = r0 + tl.arange(0, BM)
        msk = (r < n)[:, None] & jm[None, :]
        off = b * n * n + r.to(tl.int64)[:, None] * n + j[None, :]
        tl.store(U + off, tl.load(U + off, mask=msk) * sg[None, :].to(U.dtype.element_ty), mask=msk)


def _svd(A, full_matrices, want_vectors=True):
    """(U, S, Vh) of A (*, m, n): U (nb, m, m or k), S (nb, k), Vh (nb, k or n, n), batch flattened."""
    *batch, m, n = A.shape
    nb = 1
    for s in batch:
        nb *= int(s)
    k = min(m, n)
    trans = m < n
    M = A.mT if trans else A
    mm, nn = (n, m) if trans else (m, n)
    dev, dt = A.device, A.dtype
    S = torch.empty((nb, k), dtype=dt, device=dev)
    uc = m if full_matrices else k
    vr = n if full_matrices else k
    U = torch.empty((nb, m, uc), dtype=dt, device=dev)
    Vh = torch.empty((nb, vr, n), dtype=dt, device=dev)
    if nb == 0:
        return U, S, Vh
    if k == 0:
        # no singular values; the full bases are identities
        if full_matrices:
            _eye_cols[(nb, triton.cdiv(m, 32), triton.cdiv(m, 32))](U, m, m, BM=32, BN=32)
            _eye_cols[(nb, triton.cdiv(n, 32), triton.cdiv(n, 32))](Vh, n, n, BM=32, BN=32)
        return U, S, Vh
    # 1. M = Q0 R
    W0, tau0 = _qr_factor(M)
    R = torch.empty((nb, nn, nn), dtype=dt, device=dev)
    V = torch.empty((nb, nn, nn), dtype=dt, device=dev)
    g = (nb, triton.cdiv(nn, 32), triton.cdiv(nn, 32))
    _upper_square_and_eye[g](W0, R, V, mm, nn, BM=32)
    # 2. one-sided Jacobi on R's columns
    npad = nn + (nn % 2)
    flag = torch.empty((1,), dtype=torch.float32, device=dev)
    eps = 2.0 ** -24 if dt == torch.float32 else 2.0 ** -53
    tol = max(nn, 1) ** 0.5 * eps
    pb = min(triton.next_power_of_2(max(npad // 2, 1)), PB)
    br = min(triton.next_power_of_2(nn), 64)
    if npad >= 2:
        for sweep in range(40):
            flag.zero_()
            for step in range(npad - 1):
                _jacobi_step[(nb, triton.cdiv(npad // 2, pb))](R, V, flag, nn, npad, step, tol, PB=pb, BR=br,
                                                                SINGLE=nn <= br)
            if flag.item() <= tol:
                break
    _normalize_v[(nb, triton.cdiv(nn, 16))](R, V, nn, BJ=16, BR=32)
    # 3. sort columns by norm, descending
    W2 = torch.empty_like(R)
    V2 = torch.empty_like(V)
    NRM = torch.empty((nb, nn), dtype=torch.float64, device=dev)
    _column_norms[(nb, triton.cdiv(nn, 16))](R, NRM, nn, BJ=16, BR=32)
    _sort_columns[(nb, triton.cdiv(nn, 16))](R, V, NRM, W2, V2, S, nn, BJ=16, BI=32, BR=32)
    # 4. W2 = Q_w R_w with R_w diagonal up to rounding: U_R = Q_w diag(sign(R_w[j, j]))
    Ww, tauw = _qr_factor(W2)
    UR = _qr_form_q(Ww, tauw, nn)
    _signs[(nb, triton.cdiv(nn, 32))](Ww, UR, nn, BM=32)
    # 5. U_M = Q0 [U_R, 0; 0, I]: Q0[:, :nn] @ U_R, and Q0's other columns for the full basis
    qc = mm if full_matrices else nn
    Q0 = _qr_form_q(W0, tau0, qc)
    UM = torch.empty((nb, mm, qc), dtype=dt, device=dev)
    _mm(Q0[:, :, :nn], UR, UM[:, :, :nn])
    if qc > nn:
        _copy_block[(nb, triton.cdiv(mm, 32), triton.cdiv(qc - nn, 32))](Q0, UM, mm, qc, nn, BM=32, BN=32)
    if not trans:
        _copy_t[(nb, triton.cdiv(mm, 32), triton.cdiv(qc, 32))](UM, U, mm, qc, *UM.stride(), *U.stride(), BM=32, BN=32)
        _copy_t[(nb, triton.cdiv(nn, 32), triton.cdiv(nn, 32))](V2, Vh, nn, nn, V2.stride(0), V2.stride(2),
                                                               V2.stride(1), *Vh.stride(), BM=32, BN=32)
    else:
        # A = M^T = V2 diag(S) U_M^T: U = V2, Vh = U_M^T
        _copy_t[(nb, triton.cdiv(nn, 32), triton.cdiv(nn, 32))](V2, U, nn, nn, *V2.stride(), *U.stride(), BM=32, BN=32)
        _copy_t[(nb, triton.cdiv(qc, 32), triton.cdiv(mm, 32))](UM, Vh, qc, mm, UM.stride(0), UM.stride(2),
                                                               UM.stride(1), *Vh.stride(), BM=32, BN=32)
    return U, S, Vh


@triton.jit
def _copy_block(Q0, UM, m, qc, nn, BM: tl.constexpr, BN: tl.constexpr):
    # UM[:, nn:] = Q0[:, nn:]
    b = tl.program_id(0).to(tl.int64)
    r = tl.program_id(1) * BM + tl.arange(0, BM)
    c = nn + tl.program_id(2) * BN + tl.arange(0, BN)
    msk = (r < m)[:, None] & (c < qc)[None, :]
    off = b * m * qc + r.to(tl.int64)[:, None] * qc + c[None, :]
    tl.store(UM + off, tl.load(Q0 + off, mask=msk), mask=msk)


@triton.jit
def _copy_t(X, Y, rows, cols, s_xb, s_xr, s_xc, s_yb, s_yr, s_yc, BM: tl.constexpr, BN: tl.constexpr):
    # Y[b, i, j] = X[b, i, j] with the given strides (a transposed copy is the same with X's swapped)
    b = tl.program_id(0).to(tl.int64)
    r = tl.program_id(1) * BM + tl.arange(0, BM)
    c = tl.program_id(2) * BN + tl.arange(0, BN)
    msk = (r < rows)[:, None] & (c < cols)[None, :]
    x = tl.load(X + b * s_xb + r.to(tl.int64)[:, None] * s_xr + c.to(tl.int64)[None, :] * s_xc, mask=msk)
    tl.store(Y + b * s_yb + r.to(tl.int64)[:, None] * s_yr + c.to(tl.int64)[None, :] * s_yc, x, mask=msk)


def svd(A, full_matrices=True):
    *batch, m, n = A.shape
    U, S, Vh = _svd(A, full_matrices)
    return U.reshape(*batch, *U.shape[1:]), S.reshape(*batch, S.shape[1]), Vh.reshape(*batch, *Vh.shape[1:])
