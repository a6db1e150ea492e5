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


@triton.jit
def _mul(a, b):
    return a * b


@triton.jit
def _qr_det(W, TAU, OUT, n, BLOCK: tl.constexpr):
    # det(A) = det(Q) prod(diag(R)); each H_j with tau_j != 0 is a reflection (det -1), tau_j = 0 is
    # the identity, so det(Q) = (-1)^(number of nonzero tau). Product taken in float64.
    b = tl.program_id(0).to(tl.int64)
    prod = tl.full([BLOCK], 1.0, tl.float64)
    refl = tl.zeros([BLOCK], dtype=tl.int32)
    for i0 in range(0, n, BLOCK):
        i = i0 + tl.arange(0, BLOCK)
        im = i < n
        prod = prod * tl.load(W + b * n * n + i.to(tl.int64) * (n + 1), mask=im, other=1.0).to(tl.float64)
        t = tl.load(TAU + b * n + i, mask=im, other=0.0)
        refl += tl.where(t != 0, 1, 0)
    det = tl.reduce(prod, 0, _mul)
    det = tl.where(tl.sum(refl, 0) % 2 == 1, -det, det)
    tl.store(OUT + b, det.to(OUT.dtype.element_ty))


def determinant_via_qr(A, *, mode='reduced', out=None):
    if mode not in ("reduced", "complete"):
        raise RuntimeError("determinant_via_qr: mode must be 'reduced' or 'complete' (mode='r' has no Q)")
    n = A.shape[-1]
    if A.dim() < 2 or A.shape[-2] != n:
        raise RuntimeError("determinant_via_qr: A must be a batch of square matrices")
    batch = A.shape[:-2]
    if n == 0:
        d = torch.ones(batch, dtype=A.dtype, device=A.device)
    else:
        # for a square A the reduced and complete factorizations coincide
        W, tau = _qr_factor(A)
        d = torch.empty(batch, dtype=A.dtype, device=A.device)
        if W.shape[0]:
            _qr_det[(W.shape[0],)](W, tau, d, n, BLOCK=64)
    if out is not None:
        out.copy_(d)
        return out
    return d
