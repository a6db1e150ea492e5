import torch
import triton
import triton.language as tl


# SVD by one-sided Jacobi, then U diag(S) Vh. With M = A (m >= n) or A^T (m < n), M's columns are
# rotated in pairs, W = M V with V the product of the rotations, until they are mutually orthogonal:
# then sigma_j = ||W[:, j]||, U[:, j] = W[:, j] / sigma_j and M = U diag(sigma) V^T (A = V diag(sigma) U^T
# when M = A^T). Columns of M (and of V) are stored as rows of Wt (and Vt), so each is contiguous.
#
# A Jacobi step rotates n/2 disjoint column pairs (round-robin order), PB pairs per program; the host
# loops over steps and sweeps and stops when a sweep found every pair orthogonal to sqrt(n) * eps. Each
# program reads and writes only its own pairs' columns, every element stored by the thread that loaded
# it, after the reductions that need the whole column; dependent steps are separate launches. Inner
# products and rotations are computed in float64 (squares of float32 values can neither overflow nor
# underflow there); the factors are stored in float32.
PB = 4        # column pairs per program (at least)
SWEEPS = 30   # at most (rounding can keep the last sweep from reaching the tolerance; the product is right anyway)


@triton.jit
def _copy_t(X, Y, rows, cols, s_xr, s_xc, s_yr, s_yc, BM: tl.constexpr, BN: tl.constexpr):
    # Y[r, c] = X[r, c] with the given strides (a transposed copy is the same with Y's swapped)
    r = tl.program_id(0) * BM + tl.arange(0, BM)
    c = tl.program_id(1) * BN + tl.arange(0, BN)
    msk = (r < rows)[:, None] & (c < cols)[None, :]
    x = tl.load(X + r.to(tl.int64)[:, None] * s_xr + c.to(tl.int64)[None, :] * s_xc, mask=msk)
    tl.store(Y + r.to(tl.int64)[:, None] * s_yr + c.to(tl.int64)[None, :] * s_yc, x, mask=msk)


@triton.jit
def _eye(V, n, BM: tl.constexpr):
    r = tl.program_id(0) * BM + tl.arange(0, BM)
    c = tl.program_id(1) * BM + tl.arange(0, BM)
    v = tl.where(r[:, None] == c[None, :], 1.0, 0.0)
    tl.store(V + r.to(tl.int64)[:, None] * n + c[None, :], v.to(V.dtype.element_ty),
             mask=(r < n)[:, None] & (c < n)[None, :])


@triton.jit
def _rotate(X, lo, hi, length, ok, c, s, tau, BR: tl.constexpr):
    # rows lo and hi of X (length `length`): x' = c x - s y, y' = s x + c y, applied as x - s (y + tau x)
    # and y + s (x - tau y), tau = s / (1 + c): a small rotation becomes a small correction
    rows = tl.arange(0, BR)
    for r0 in range(0, length, BR):
        r = r0 + rows
        msk = ok[:, None] & (r < length)[None, :]
        off_lo = lo.to(tl.int64)[:, None] * length + r[None, :]
        off_hi = hi.to(tl.int64)[:, None] * length + r[None, :]
        x = tl.load(X + off_lo, mask=msk, other=0.0).to(tl.float64)
        y = tl.load(X + off_hi, mask=msk, other=0.0).to(tl.float64)
        tl.store(X + off_lo, (x - s[:, None] * (y + tau[:, None] * x)).to(X.dtype.element_ty), mask=msk)
        tl.store(X + off_hi, (y + s[:, None] * (x - tau[:, None] * y)).to(X.dtype.element_ty), mask=msk)


@triton.jit
def _jacobi_step(Wt, Vt, FLAG, nn, mm, npad, step, tol, PB: tl.constexpr, BR: tl.constexpr):
    # circle method: position 0 fixed, positions 1 .. npad-1 rotated by `step`; position i meets npad-1-i
    i = tl.program_id(0) * PB + tl.arange(0, PB)
    p = tl.where(i == 0, 0, (i - 1 + step) % (npad - 1) + 1)
    q = (npad - 2 - i + step) % (npad - 1) + 1
    lo = tl.minimum(p, q)
    hi = tl.maximum(p, q)
    ok = (i < npad // 2) & (hi < nn)
    rows = tl.arange(0, BR)
    alpha = tl.zeros([PB], dtype=tl.float64)
    beta = tl.zeros([PB], dtype=tl.float64)
    gamma = tl.zeros([PB], dtype=tl.float64)
    for r0 in range(0, mm, BR):
        r = r0 + rows
        msk = ok[:, None] & (r < mm)[None, :]
        x = tl.load(Wt + lo.to(tl.int64)[:, None] * mm + r[None, :], mask=msk, other=0.0).to(tl.float64)
        y = tl.load(Wt + hi.to(tl.int64)[:, None] * mm + r[None, :], mask=msk, other=0.0).to(tl.float64)
        alpha += tl.sum(x * x, axis=1)
        beta += tl.sum(y * y, axis=1)
        gamma += tl.sum(x * y, axis=1)
    # the rotation that makes the pair orthogonal (Rutishauser): t = sign(zeta) / (|zeta| + sqrt(1 + zeta^2)),
    # zeta = (beta - alpha) / (2 gamma); pairs already orthogonal to `tol` (relative) are left alone
    off = tl.abs(gamma) / tl.sqrt(tl.where(alpha * beta > 0, alpha * beta, 1.0))
    rot = ok & (alpha > 0) & (beta > 0) & (off > tol)
    zeta = (beta - alpha) / (2.0 * tl.where(rot, gamma, 1.0))
    az = tl.abs(zeta)
    big = az > 1e100   # zeta^2 would overflow: t = 1 / (2 |zeta|) to working precision
    t = tl.where(big, 0.5 / tl.where(big, az, 1.0), 1.0 / (az + tl.sqrt(1.0 + tl.where(big, 0.0, az * az))))
    t = tl.where(zeta < 0, -t, t)
    c = 1.0 / tl.sqrt(1.0 + t * t)
    s = tl.where(rot, c * t, 0.0)
    c = tl.where(rot, c, 1.0)
    tau = s / (1.0 + c)
    tl.atomic_max(FLAG, tl.max(tl.where(rot, off, 0.0), 0).to(tl.float32))
    _rotate(Wt, lo, hi, mm, rot, c, s, tau, BR)
    _rotate(Vt, lo, hi, nn, rot, c, s, tau, BR)


@triton.jit
def _normalize(Wt, Ut, S, nn, mm, BJ: tl.constexpr, BR: tl.constexpr):
    # sigma_j = ||column j of W||, U's column j = W's / sigma_j (zero for a zero column: it does not
    # contribute to the product)
    j = tl.program_id(0) * BJ + tl.arange(0, BJ)
    jm = j < nn
    rows = tl.arange(0, BR)
    ss = tl.zeros([BJ], dtype=tl.float64)
    for r0 in range(0, mm, BR):
        r = r0 + rows
        x = tl.load(Wt + j.to(tl.int64)[:, None] * mm + r[None, :], mask=jm[:, None] & (r < mm)[None, :],
                    other=0.0).to(tl.float64)
        ss += tl.sum(x * x, axis=1)
    sigma = tl.sqrt(ss)
    inv = tl.where(sigma > 0, 1.0 / tl.where(sigma > 0, sigma, 1.0), 0.0)
    tl.store(S + j, sigma.to(S.dtype.element_ty), mask=jm)
    for r0 in range(0, mm, BR):
        r = r0 + rows
        msk = jm[:, None] & (r < mm)[None, :]
        off = j.to(tl.int64)[:, None] * mm + r[None, :]
        x = tl.load(Wt + off, mask=msk, other=0.0).to(tl.float64)
        tl.store(Ut + off, (x * inv[:, None]).to(Ut.dtype.element_ty), mask=msk)


@triton.jit
def _reconstruct(X, Y, S, OUT, M, N, K, s_xk, s_xr, s_yk, s_yc, BM: tl.constexpr, BN: tl.constexpr,
                 BK: tl.constexpr):
    # OUT[r, c] = sum_p X[p, r] S[p] Y[p, c], element (p, r) of X at X + p*s_xk + r*s_xr (likewise Y)
    r = tl.program_id(0) * BM + tl.arange(0, BM)
    c = tl.program_id(1) * BN + tl.arange(0, BN)
    rm = r < M
    cm = c < N
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for k0 in range(0, K, BK):
        kk = k0 + tl.arange(0, BK)
        km = kk < K
        x = tl.load(X + kk.to(tl.int64)[None, :] * s_xk + r.to(tl.int64)[:, None] * s_xr, mask=rm[:, None] & km[None, :],
                    other=0.0)
        sv = tl.load(S + kk, mask=km, other=0.0)
        y = tl.load(Y + kk.to(tl.int64)[:, None] * s_yk + c.to(tl.int64)[None, :] * s_yc, mask=km[:, None] & cm[None, :],
                    other=0.0)
        acc = tl.dot(x * sv[None, :], y, acc, input_precision="ieee")
    tl.store(OUT + r.to(tl.int64)[:, None] * N + c[None, :], acc, mask=rm[:, None] & cm[None, :])


def fused_svd_reconstruct(A):
    if A.dim() != 2:
        raise RuntimeError(f"fused_svd_reconstruct: A must be a matrix, got shape {tuple(A.shape)}")
    m, n = A.shape
    out = torch.empty((m, n), dtype=A.dtype, device=A.device)
    if m == 0 or n == 0:
        return out
    trans = m < n
    mm, nn = (n, m) if trans else (m, n)   # M = A or A^T is mm x nn, mm >= nn
    dev, dt = A.device, A.dtype
    Wt = torch.empty((nn, mm), dtype=dt, device=dev)    # row j = column j of M
    Vt = torch.empty((nn, nn), dtype=dt, device=dev)    # row j = column j of V
    if trans:   # M = A^T: its column j is A's row j
        _copy_t[(triton.cdiv(m, 32), triton.cdiv(n, 32))](A, Wt, m, n, A.stride(0), A.stride(1), mm, 1, BM=32, BN=32)
    else:       # its column j is A's column j
        _copy_t[(triton.cdiv(m, 32), triton.cdiv(n, 32))](A, Wt, m, n, A.stride(0), A.stride(1), 1, mm, BM=32, BN=32)
    _eye[(triton.cdiv(nn, 32), triton.cdiv(nn, 32))](Vt, nn, BM=32)
    npad = nn + (nn % 2)
    if npad >= 2:
        flag = torch.empty((1,), dtype=torch.float32, device=dev)
        tol = nn ** 0.5 * 2.0 ** -24
        br = min(triton.next_power_of_2(mm), 256)
        # PB pairs per program, more for short columns (a tile of at most 1024 elements)
        pb = min(triton.next_power_of_2(npad // 2), max(PB, 1024 // br))
        for _ in range(SWEEPS):
            flag.zero_()
            for step in range(npad - 1):
                _jacobi_step[(triton.cdiv(npad // 2, pb),)](Wt, Vt, flag, nn, mm, npad, step, tol, PB=pb, BR=br,
                                                           num_stages=1)
            if flag.item() <= tol:
                break
    S = torch.empty((nn,), dtype=dt, device=dev)
    Ut = torch.empty((nn, mm), dtype=dt, device=dev)
    _normalize[(triton.cdiv(nn, 16),)](Wt, Ut, S, nn, mm, BJ=16, BR=64, num_stages=1)
    BM, BN, BK = 32, 32, 32
    grid = (triton.cdiv(m, BM), triton.cdiv(n, BN))
    if trans:   # A = V diag(S) U^T
        _reconstruct[grid](Vt, Ut, S, out, m, n, nn, nn, 1, mm, 1, BM=BM, BN=BN, BK=BK)
    else:       # A = U diag(S) V^T
        _reconstruct[grid](Ut, Vt, S, out, m, n, nn, mm, 1, nn, 1, BM=BM, BN=BN, BK=BK)
    return out
