import torch
import triton
import triton.language as tl

_TILE = 4096  # elements per program tile (registers): slices up to this fit in one tile


def _next_pow2(n: int) -> int:
    return 1 << max(0, (int(n) - 1).bit_length())


@triton.jit
def _online_update(m, s, x):
    # Online softmax per lane: running max m and running sum s of exp(x - m). Written so that
    # -inf and NaN behave on GPU (where tl.maximum drops NaN) as in the interpreter:
    # an x = -inf contributes exactly 0 (never exp(-inf - -inf) = NaN), a NaN x makes s NaN,
    # and a lane whose max is still -inf has s = 0 (or NaN) to rescale.
    m_new = tl.maximum(m, x)
    alpha = tl.where(m == float("-inf"), 0.0, tl.exp(m - m_new))
    p = tl.where(x == float("-inf"), 0.0, tl.exp(x - m_new))
    return m_new, s * alpha + p


@triton.jit
def _softmax_rows_kernel(x_ptr, y_ptr, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                         SINGLE: tl.constexpr, ACC: tl.constexpr):
    # x is (M, N) row-major, softmax along N. SINGLE: BLOCK_M whole rows fit in one tile (one
    # read of x). Otherwise one row per program, two passes: online max/sum, then normalise.
    pid = tl.program_id(0)
    rows = pid.to(tl.int64) * BLOCK_M + tl.arange(0, BLOCK_M)
    row_mask = rows < M
    base = rows * N  # int64: M * N may exceed 2**31
    cols = tl.arange(0, BLOCK_N)
    if SINGLE:
        mask = row_mask[:, None] & (cols < N)[None, :]
        offs = base[:, None] + cols[None, :]
        # Padding is -inf so it adds exp(-inf) = 0 to the sums.
        x = tl.load(x_ptr + offs, mask=mask, other=float("-inf")).to(ACC)
        m = tl.max(x, axis=1)
        e = tl.exp(x - m[:, None])
        s = tl.sum(e, axis=1)
        y = e / s[:, None]
        tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=mask)
    else:
        m = tl.full([BLOCK_M, BLOCK_N], float("-inf"), ACC)
        s = tl.zeros([BLOCK_M, BLOCK_N], ACC)
        for n0 in range(0, N, BLOCK_N):
            c = n0 + cols
            mask = row_mask[:, None] & (c < N)[None, :]
            x = tl.load(x_ptr + base[:, None] + c[None, :], mask=mask, other=float("-inf")).to(ACC)
            m, s = _online_update(m, s, x)
        # Merge the lanes: rescale each lane's sum to the row maximum.
        m_row = tl.max(m, axis=1)
        scaled = tl.where(m == float("-inf"), s, s * tl.exp(m - m_row[:, None]))
        s_row = tl.sum(scaled, axis=1)
        for n0 in range(0, N, BLOCK_N):
            c = n0 + cols
            mask = row_mask[:, None] & (c < N)[None, :]
            offs = base[:, None] + c[None, :]
            x = tl.load(x_ptr + offs, mask=mask, other=float("-inf")).to(ACC)
            y = tl.exp(x - m_row[:, None]) / s_row[:, None]
            tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _softmax_cols_kernel(x_ptr, y_ptr, N, K, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                         SINGLE: tl.constexpr, ACC: tl.constexpr):
    # x is (M, N, K) row-major, softmax along N; a program owns BLOCK_K adjacent columns of one m
    # and reads [BLOCK_N, BLOCK_K] tiles (contiguous along K).
    pid = tl.program_id(0)
    k_blocks = tl.cdiv(K, BLOCK_K)
    mi = (pid // k_blocks).to(tl.int64)
    ks = (pid % k_blocks).to(tl.int64) * BLOCK_K + tl.arange(0, BLOCK_K)
    k_mask = ks < K
    base = mi * N * K
    ns = tl.arange(0, BLOCK_N)
    if SINGLE:
        mask = (ns < N)[:, None] & k_mask[None, :]
        offs = base + ns[:, None] * K + ks[None, :]
        x = tl.load(x_ptr + offs, mask=mask, other=float("-inf")).to(ACC)
        m = tl.max(x, axis=0)
        e = tl.exp(x - m[None, :])
        s = tl.sum(e, axis=0)
        y = e / s[None, :]
        tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=mask)
    else:
        m = tl.full([BLOCK_N, BLOCK_K], float("-inf"), ACC)
        s = tl.zeros([BLOCK_N, BLOCK_K], ACC)
        for n0 in range(0, N, BLOCK_N):
            n = n0 + ns
            mask = (n < N)[:, None] & k_mask[None, :]
            x = tl.load(x_ptr + base + n[:, None] * K + ks[None, :], mask=mask,
                        other=float("-inf")).to(ACC)
            m, s = _online_update(m, s, x)
        m_col = tl.max(m, axis=0)
        scaled = tl.where(m == float("-inf"), s, s * tl.exp(m - m_col[None, :]))
        s_col = tl.sum(scaled, axis=0)
        for n0 in range(0, N, BLOCK_N):
            n = n0 + ns
            mask = (n < N)[:, None] & k_mask[None, :]
            offs = base + n[:, None] * K + ks[None, :]
            x = tl.load(x_ptr + offs, mask=mask, other=float("-inf")).to(ACC)
            y = tl.exp(x - m_col[None, :]) / s_col[None, :]
            tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


def softmax(input: torch.Tensor, dim, dtype=None) -> torch.Tensor:
    x = input if dtype is None else input.to(dtype)
    if not x.dtype.is_floating_point:
        raise RuntimeError(f"softmax needs a floating-point dtype, got {x.dtype}")
    nd = x.dim()
    if not -max(nd, 1) <= dim < max(nd, 1):
        raise IndexError(f"Dimension out of range (got {dim} for a {nd}-d tensor)")
    x = x.contiguous()
    y = torch.empty_like(x)
    if x.numel() == 0:
        return y
    shape = list(x.shape) if nd else [1]
    d = dim % len(shape)
    M = 1
    for v in shape[:d]:
        M *= v
    N = shape[d]
    K = 1
    for v in shape[d + 1:]:
        K *= v
    # float64 stays float64; float32 (and half types) compute in float32.
    acc = tl.float64 if x.dtype == torch.float64 else tl.float32
    if K == 1:
        if N <= _TILE:
            block_n = _next_pow2(N)
            block_m = max(1, min(_TILE // block_n, _next_pow2(M)))
            single = True
        else:
            block_n, block_m, single = 2048, 1, False
        _softmax_rows_kernel[(triton.cdiv(M, block_m),)](x, y, M, N, BLOCK_M=block_m,
                                                         BLOCK_N=block_n, SINGLE=single, ACC=acc)
    else:
        block_k = min(_next_pow2(K), 64)
        if N * block_k <= _TILE:
            block_n, single = _next_pow2(N), True
        else:
            block_n, single = max(1, _TILE // block_k // 2), False
        grid = (M * triton.cdiv(K, block_k),)
        _softmax_cols_kernel[grid](x, y, N, K, BLOCK_N=block_n, BLOCK_K=block_k, SINGLE=single,
                                   ACC=acc)
    return y
