import torch
import triton
import triton.language as tl

_TILE = 4096  # elements per program tile (registers): slices up to this fit in one tile


def _next_pow2(n: int) -> int:
    return 1 << max(0, (int(n) - 1).bit_length())


@triton.jit
def _load_logs(ptr, offs, mask, LOG_T: tl.constexpr, ACC: tl.constexpr):
    # log in the input's precision (LOG_T), then converted to the softmax precision (ACC).
    # Padding loads 1.0 and is then set to -inf, so it adds exp(-inf) = 0 to the sums.
    x = tl.load(ptr + offs, mask=mask, other=1.0).to(LOG_T)
    return tl.where(mask, tl.log(x).to(ACC), float("-inf"))


@triton.jit
def _online_update(m, s, l):
    # Online softmax per lane: running max m and running sum s of exp(l - m). l = -inf (x = 0)
    # contributes exactly 0 (never exp(-inf - -inf) = NaN); a NaN l (x < 0 or NaN) makes s NaN,
    # on the GPU too, where tl.maximum drops NaN.
    m_new = tl.maximum(m, l)
    alpha = tl.where(m == float("-inf"), 0.0, tl.exp(m - m_new))
    p = tl.where(l == float("-inf"), 0.0, tl.exp(l - m_new))
    return m_new, s * alpha + p


@triton.jit
def _softmax_log_rows_kernel(x_ptr, y_ptr, M, N, s_m, s_n, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                             SINGLE: tl.constexpr, LOG_T: tl.constexpr, ACC: tl.constexpr):
    # Softmax along N of an (M, N) view with strides (s_m, s_n); y is (M, N) contiguous.
    # SINGLE: BLOCK_M whole rows fit in one tile (one read of x). Otherwise one row per program and
    # two passes: online max/sum over the logs, then normalise.
    pid = tl.program_id(0)
    rows = pid.to(tl.int64) * BLOCK_M + tl.arange(0, BLOCK_M)
    row_mask = rows < M
    xbase = rows * s_m  # int64: M * N may exceed 2**31
    ybase = rows * N
    cols = tl.arange(0, BLOCK_N)
    if SINGLE:
        mask = row_mask[:, None] & (cols < N)[None, :]
        l = _load_logs(x_ptr, xbase[:, None] + cols[None, :].to(tl.int64) * s_n, mask, LOG_T, ACC)
        m = tl.max(l, axis=1)
        # A row of zeros has m = -inf: its exp(-inf - 0) = 0 sum to 0 and 0 / 0 gives NaN, as in torch.
        m = tl.where(m == float("-inf"), 0.0, m)
        e = tl.exp(l - m[:, None])
        s = tl.sum(e, axis=1)
        y = e / s[:, None]
        tl.store(y_ptr + ybase[:, None] + cols[None, :], y.to(y_ptr.dtype.element_ty), mask=mask)
    else:
        m = tl.full([BLOCK_M, BLOCK_N], float("-inf"), ACC)
        s = tl.zeros([BLOCK_M, BLOCK_N], ACC)
        for n0 in range(0, N, BLOCK_N):
            c = n0 + cols
            mask = row_mask[:, None] & (c < N)[None, :]
            l = _load_logs(x_ptr, xbase[:, None] + c[None, :].to(tl.int64) * s_n, mask, LOG_T, ACC)
            m, s = _online_update(m, s, l)
        # Merge the lanes: rescale each lane's sum to the row maximum.
        m_row = tl.max(m, axis=1)
        scaled = tl.where(m == float("-inf"), s, s * tl.exp(m - m_row[:, None]))
        s_row = tl.sum(scaled, axis=1)
        m_row = tl.where(m_row == float("-inf"), 0.0, m_row)
        for n0 in range(0, N, BLOCK_N):
            c = n0 + cols
            mask = row_mask[:, None] & (c < N)[None, :]
            l = _load_logs(x_ptr, xbase[:, None] + c[None, :].to(tl.int64) * s_n, mask, LOG_T, ACC)
            y = tl.exp(l - m_row[:, None]) / s_row[:, None]
            tl.store(y_ptr + ybase[:, None] + c[None, :], y.to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _softmax_log_cols_kernel(x_ptr, y_ptr, N, K, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                             SINGLE: tl.constexpr, LOG_T: tl.constexpr, ACC: tl.constexpr):
    # x and y are (M, N, K) row-major, softmax along N; a program owns BLOCK_K adjacent columns of
    # one m and reads [BLOCK_N, BLOCK_K] tiles (contiguous along K).
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
        l = _load_logs(x_ptr, offs, mask, LOG_T, ACC)
        m = tl.max(l, axis=0)
        m = tl.where(m == float("-inf"), 0.0, m)
        e = tl.exp(l - m[None, :])
        s = tl.sum(e, axis=0)
        y = e / s[None, :]
        tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=mask)
    else:
        m = tl.full([BLOCK_N, BLOCK_K], float("-inf"), ACC)
        s = tl.zeros([BLOCK_N, BLOCK_K], ACC)
        for n0 in range(0, N, BLOCK_N):
            n = n0 + ns
            mask = (n < N)[:, None] & k_mask[None, :]
            l = _load_logs(x_ptr, base + n[:, None] * K + ks[None, :], mask, LOG_T, ACC)
            m, s = _online_update(m, s, l)
        m_col = tl.max(m, axis=0)
        scaled = tl.where(m == float("-inf"), s, s * tl.exp(m - m_col[None, :]))
        s_col = tl.sum(scaled, axis=0)
        m_col = tl.where(m_col == float("-inf"), 0.0, m_col)
        for n0 in range(0, N, BLOCK_N):
            n = n0 + ns
            mask = (n < N)[:, None] & k_mask[None, :]
            offs = base + n[:, None] * K + ks[None, :]
            l = _load_logs(x_ptr, offs, mask, LOG_T, ACC)
            y = tl.exp(l - m_col[None, :]) / s_col[None, :]
            tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


def _tl_float(dtype):
    return tl.float64 if dtype == torch.float64 else tl.float32


def fused_softmax_log(input: torch.Tensor, dim=-1, dtype=None) -> torch.Tensor:
    if not input.dtype.is_floating_point:
        raise RuntimeError(f"fused_softmax_log needs a floating-point input, got {input.dtype}")
    out_dtype = input.dtype if dtype is None else dtype
    nd = input.dim()
    if not -max(nd, 1) <= dim < max(nd, 1):
        raise IndexError(f"Dimension out of range (got {dim} for a {nd}-d tensor)")
    y = torch.empty(input.shape, dtype=out_dtype, device=input.device)
    if input.numel() == 0:
        return y
    shape = list(input.shape) if nd else [1]
    d = dim % len(shape)
    M = 1
    for v in shape[:d]:
        M *= v
    N = shape[d]
    K = 1
    for v in shape[d + 1:]:
        K *= v
    # log in the input's precision, softmax in the output's (float64 stays float64, else float32).
    log_t, acc = _tl_float(input.dtype), _tl_float(out_dtype)
    if K == 1:
        # Rows: a 2-D strided view serves contiguous, strided-last-dim and transposed inputs alike.
        x = input.reshape(M, N)
        s_m, s_n = x.stride()
        if N <= _TILE:
            block_n = _next_pow2(N)
            block_m = max(1, min(_TILE // block_n, _next_pow2(M)))
            single = True
        else:
            block_n, block_m, single = 2048, 1, False
        _softmax_log_rows_kernel[(triton.cdiv(M, block_m),)](x, y, M, N, s_m, s_n, BLOCK_M=block_m,
                                                             BLOCK_N=block_n, SINGLE=single, LOG_T=log_t, ACC=acc)
    else:
        x = input.contiguous()
        block_k = min(_next_pow2(K), 64)
        if N * block_k <= _TILE:
            block_n, single = _next_pow2(N), True
        else:
            block_n, single = max(1, _TILE // block_k // 2), False
        grid = (M * triton.cdiv(K, block_k),)
        _softmax_log_cols_kernel[grid](x, y, N, K, BLOCK_N=block_n, BLOCK_K=block_k, SINGLE=single,
                                       LOG_T=log_t, ACC=acc)
    return y
