import math

import torch
import triton
import triton.language as tl


@triton.jit
def _linear_stats_kernel(x_ptr, w_ptr, b_ptr, y_ptr, smax_ptr, ssum_ptr, M, N, K,
                         sxm, sxk, swn, swk, sb, T,
                         HAS_BIAS: tl.constexpr, WRITE_STATS: tl.constexpr, IS_F64: tl.constexpr,
                         BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # Z = X @ W^T + b for one (BLOCK_M, BLOCK_N) tile, stored into the output buffer. With
    # WRITE_STATS (log-softmax over the last dim) the tile also leaves, per row, its maximum and
    # sum of exp(z - maximum): the row's log-sum-exp is combined from them by the next launch.
    tile_m = tl.program_id(0)
    tile_n = tl.program_id(1)
    row_ids = tile_m * BLOCK_M + tl.arange(0, BLOCK_M)
    col_ids = tile_n * BLOCK_N + tl.arange(0, BLOCK_N)
    k_ids = tl.arange(0, BLOCK_K)
    m_mask = row_ids < M
    n_mask = col_ids < N
    x_ptrs = x_ptr + row_ids[:, None].to(tl.int64) * sxm + k_ids[None, :].to(tl.int64) * sxk
    w_ptrs = w_ptr + k_ids[:, None].to(tl.int64) * swk + col_ids[None, :].to(tl.int64) * swn
    if IS_F64:
        acc = tl.zeros([BLOCK_M, BLOCK_N], tl.float64)
    else:
        acc = tl.zeros([BLOCK_M, BLOCK_N], tl.float32)
    for k0 in range(0, K, BLOCK_K):
        k_mask = k_ids < K - k0
        a = tl.load(x_ptrs, mask=m_mask[:, None] & k_mask[None, :], other=0.0)
        b = tl.load(w_ptrs, mask=k_mask[:, None] & n_mask[None, :], other=0.0)
        if IS_F64:  # float64: exact-type multiply-adds (no float64 tensor-core path to rely on)
            acc += tl.sum(a[:, :, None] * b[None, :, :], axis=1)
        else:  # float16 x float16 -> float32 accumulator on the tensor cores
            acc = tl.dot(a, b, acc, out_dtype=tl.float32)
        x_ptrs += BLOCK_K * sxk
        w_ptrs += BLOCK_K * swk
    if HAS_BIAS:
        acc += tl.load(b_ptr + col_ids.to(tl.int64) * sb, mask=n_mask, other=0.0).to(acc.dtype)[None, :]
    z = acc.to(y_ptr.dtype.element_ty)
    mn_mask = m_mask[:, None] & n_mask[None, :]
    tl.store(y_ptr + row_ids[:, None].to(tl.int64) * N + col_ids[None, :], z, mask=mn_mask)
    if WRITE_STATS:
        zc = z.to(smax_ptr.dtype.element_ty)  # the stored value, so the next launch is consistent
        zc = tl.where(n_mask[None, :], zc, float("-inf"))
        tile_max = tl.max(zc, axis=1)
        safe_max = tl.where(tile_max == float("-inf"), 0.0, tile_max)  # empty rows stay finite
        tile_sum = tl.sum(tl.exp(zc - safe_max[:, None]), axis=1)
        s_off = row_ids.to(tl.int64) * T + tile_n
        tl.store(smax_ptr + s_off, tile_max, mask=m_mask)
        tl.store(ssum_ptr + s_off, tile_sum, mask=m_mask)


@triton.jit
def _apply_row_lse_kernel(y_ptr, smax_ptr, ssum_ptr, N, T,
                          BLOCK_T: tl.constexpr, BLOCK: tl.constexpr):
    # y[row, :] -= logsumexp(row), combined from the row's T per-tile (max, sum) pairs:
    # lse = M + log(sum_t s_t * exp(m_t - M)) with M the largest m_t (every term <= s_t, no overflow).
    row = tl.program_id(0).to(tl.int64)
    pid = tl.program_id(1)
    offs_t = tl.arange(0, BLOCK_T)
    mx = tl.max(tl.load(smax_ptr + row * T + offs_t, mask=offs_t < T, other=float("-inf")), axis=0)
    for t0 in range(BLOCK_T, T, BLOCK_T):
        part = tl.load(smax_ptr + row * T + t0 + offs_t, mask=offs_t < T - t0, other=float("-inf"))
        mx = tl.maximum(mx, tl.max(part, axis=0))
    total = tl.sum(tl.load(ssum_ptr + row * T + offs_t, mask=offs_t < T, other=0.0)
                   * tl.exp(tl.load(smax_ptr + row * T + offs_t, mask=offs_t < T, other=float("-inf")) - mx), axis=0)
    for t0 in range(BLOCK_T, T, BLOCK_T):
        t_mask = offs_t < T - t0
        s = tl.load(ssum_ptr + row * T + t0 + offs_t, mask=t_mask, other=0.0)
        m = tl.load(smax_ptr + row * T + t0 + offs_t, mask=t_mask, other=float("-inf"))
        total += tl.sum(s * tl.exp(m - mx), axis=0)
    lse = mx + tl.log(total)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    ptrs = y_ptr + row * N + offs
    z = tl.load(ptrs, mask=mask, other=0.0).to(lse.dtype)
    tl.store(ptrs, (z - lse).to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _log_softmax_mid_kernel(y_ptr, R, INNER, IS_F64: tl.constexpr, BLOCK: tl.constexpr):
    # In place log-softmax over the middle axis of y viewed as (outer, R, INNER): a program owns
    # BLOCK consecutive inner positions of one outer index (coalesced), one online pass for the
    # running maximum and rescaled sum of exponentials, a second pass to subtract the log-sum-exp.
    o = tl.program_id(0).to(tl.int64)
    offs = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < INNER
    base = y_ptr + o * R * INNER + offs
    if IS_F64:
        mx = tl.full((BLOCK,), float("-inf"), tl.float64)
        total = tl.zeros((BLOCK,), tl.float64)
    else:
        mx = tl.full((BLOCK,), float("-inf"), tl.float32)
        total = tl.zeros((BLOCK,), tl.float32)
    for r in range(0, R):
        z = tl.load(base + r * INNER, mask=mask, other=0.0).to(mx.dtype)
        new_mx = tl.maximum(mx, z)
        total = total * tl.exp(mx - new_mx) + tl.exp(z - new_mx)
        mx = new_mx
    lse = mx + tl.log(total)
    for r in range(0, R):
        z = tl.load(base + r * INNER, mask=mask, other=0.0).to(mx.dtype)
        tl.store(base + r * INNER, (z - lse).to(y_ptr.dtype.element_ty), mask=mask)


def fused_log_softmax_linear(input, weight, bias=None, dim=-1, dtype=None):
    K = input.shape[-1]
    N = weight.shape[0]
    if weight.dim() != 2 or weight.shape[1] != K:
        raise RuntimeError(f"fused_log_softmax_linear: weight {tuple(weight.shape)} does not match "
                           f"input {tuple(input.shape)}")
    lead = tuple(input.shape[:-1])
    shape = lead + (N,)
    nd = len(shape)
    if not -nd <= dim < nd:
        raise IndexError(f"fused_log_softmax_linear: dim {dim} out of range for {nd} dimensions")
    dim = dim % nd
    out_dtype = dtype if dtype is not None else input.dtype
    is_f64 = input.dtype == torch.float64
    x = input.reshape(math.prod(lead), K)  # a view where the layout allows
    M = x.shape[0]
    y = torch.empty(shape, dtype=out_dtype, device=input.device)
    if y.numel() == 0:
        return y
    stat_dtype = torch.float64 if (is_f64 or out_dtype == torch.float64) else torch.float32
    if is_f64:
        BLOCK_M, BLOCK_N, BLOCK_K, warps = 16, 32, 8, 4
    elif M >= 128 and N >= 128:
        BLOCK_M, BLOCK_N, BLOCK_K, warps = 128, 128, 64, 8
    else:
        BLOCK_M, BLOCK_N, BLOCK_K, warps = 16 if M <= 16 else 64, 64, 64, 4
    T = triton.cdiv(N, BLOCK_N)
    last = dim == nd - 1
    smax = torch.empty((M, T) if last else (1,), dtype=stat_dtype, device=input.device)
    ssum = torch.empty_like(smax)
    b = bias if bias is not None else weight  # placeholder pointer, never read without HAS_BIAS
    _linear_stats_kernel[(triton.cdiv(M, BLOCK_M), T)](
        x, weight, b, y, smax, ssum, M, N, K,
        x.stride(0), x.stride(1), weight.stride(0), weight.stride(1),
        bias.stride(0) if bias is not None else 0, T,
        HAS_BIAS=bias is not None, WRITE_STATS=last, IS_F64=is_f64,
        BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K, num_warps=warps, num_stages=3)
    if last:  # a global barrier: every tile's statistics are needed before any row is finished
        BLOCK = 1024
        _apply_row_lse_kernel[(M, triton.cdiv(N, BLOCK))](
            y, smax, ssum, N, T, BLOCK_T=min(1024, triton.next_power_of_2(T)), BLOCK=BLOCK)
    else:  # log-softmax over a leading dim: y as (outer, R, inner)
        R = shape[dim]
        outer = math.prod(shape[:dim])
        inner = math.prod(shape[dim + 1:])
        BLOCK = min(1024, triton.next_power_of_2(inner))
        _log_softmax_mid_kernel[(outer, triton.cdiv(inner, BLOCK))](
            y, R, inner, IS_F64=stat_dtype == torch.float64, BLOCK=BLOCK)
    return y
