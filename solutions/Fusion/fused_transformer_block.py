import math

import torch
import triton
import triton.language as tl


@triton.jit
def _scores_kernel(x_ptr, w_ptr, z_ptr, smax_ptr, ssum_ptr, M, N, K,
                   sxm, sxk, swk, swn, T,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # Z1 = X @ W1 for one (BLOCK_M, BLOCK_N) tile (float32 scratch), plus per row of the tile its
    # maximum and sum of exp(z - maximum): the softmax's log-sum-exp is combined from these.
    tile_m = tl.program_id(0)
    tile_n = tl.program_id(1)
    row_ids = tile_m * BLOCK_M + tl.arange(0, BLOCK_M)
    col_ids = tile_n * BLOCK_N + tl.arange(0, BLOCK_N)
    k_ids = tl.arange(0, BLOCK_K)
    m_mask = row_ids < M
    n_mask = col_ids < N
    x_ptrs = x_ptr + row_ids[:, None].to(tl.int64) * sxm + k_ids[None, :].to(tl.int64) * sxk
    w_ptrs = w_ptr + k_ids[:, None].to(tl.int64) * swk + col_ids[None, :].to(tl.int64) * swn
    acc = tl.zeros([BLOCK_M, BLOCK_N], tl.float32)
    for k0 in range(0, K, BLOCK_K):
        k_mask = k_ids < K - k0
        a = tl.load(x_ptrs, mask=m_mask[:, None] & k_mask[None, :], other=0.0)
        b = tl.load(w_ptrs, mask=k_mask[:, None] & n_mask[None, :], other=0.0)
        # "ieee": true float32 products (TF32 would round the inputs to a 10-bit mantissa)
        acc = tl.dot(a, b, acc, input_precision="ieee", out_dtype=tl.float32)
        x_ptrs += BLOCK_K * sxk
        w_ptrs += BLOCK_K * swk
    tl.store(z_ptr + row_ids[:, None].to(tl.int64) * N + col_ids[None, :], acc,
             mask=m_mask[:, None] & n_mask[None, :])
    zc = tl.where(n_mask[None, :], acc, float("-inf"))
    tile_max = tl.max(zc, axis=1)
    tile_sum = tl.sum(tl.exp(zc - tile_max[:, None]), axis=1)
    s_off = row_ids.to(tl.int64) * T + tile_n
    tl.store(smax_ptr + s_off, tile_max, mask=m_mask)
    tl.store(ssum_ptr + s_off, tile_sum, mask=m_mask)


@triton.jit
def _probs_times_w2_kernel(z_ptr, smax_ptr, ssum_ptr, w_ptr, r_ptr, h_ptr, smean_ptr, sm2_ptr,
                           M, NK, NO, T1, T2, swk, swn, srm, srn,
                           BLOCK_M: tl.constexpr, BLOCK_O: tl.constexpr, BLOCK_K: tl.constexpr,
                           BLOCK_T: tl.constexpr):
    # H = softmax(Z1) @ W2 + residual for one (BLOCK_M, BLOCK_O) tile. The softmax probabilities
    # are formed on the fly from Z1 and each row's log-sum-exp (combined from the T1 per-tile
    # (max, sum) pairs), never stored. Leaves per row of the tile the mean and the sum of squared
    # deviations of H (for the layer norm of the next launch).
    tile_m = tl.program_id(0)
    pid_o = tl.program_id(1)
    row_ids = tile_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_o = pid_o * BLOCK_O + tl.arange(0, BLOCK_O)
    k_ids = tl.arange(0, BLOCK_K)
    offs_t = tl.arange(0, BLOCK_T)
    m_mask = row_ids < M
    o_mask = offs_o < NO
    rows = row_ids[:, None].to(tl.int64)
    # log-sum-exp per row: lse = mx + log(sum_t s_t exp(m_t - mx))
    mx = tl.full((BLOCK_M,), float("-inf"), tl.float32)
    for t0 in range(0, T1, BLOCK_T):
        t_mask = m_mask[:, None] & (offs_t[None, :] < T1 - t0)
        part = tl.load(smax_ptr + rows * T1 + t0 + offs_t[None, :], mask=t_mask, other=float("-inf"))
        mx = tl.maximum(mx, tl.max(part, axis=1))
    mx = tl.where(m_mask, mx, 0.0)  # padding rows stay finite
    total = tl.zeros((BLOCK_M,), tl.float32)
    for t0 in range(0, T1, BLOCK_T):
        t_mask = m_mask[:, None] & (offs_t[None, :] < T1 - t0)
        tm = tl.load(smax_ptr + rows * T1 + t0 + offs_t[None, :], mask=t_mask, other=float("-inf"))
        ts = tl.load(ssum_ptr + rows * T1 + t0 + offs_t[None, :], mask=t_mask, other=0.0)
        total += tl.sum(ts * tl.exp(tm - mx[:, None]), axis=1)
    lse = mx + tl.log(tl.where(m_mask, total, 1.0))

    acc = tl.zeros([BLOCK_M, BLOCK_O], tl.float32)
    z_ptrs = z_ptr + rows * NK + k_ids[None, :]
    w_ptrs = w_ptr + k_ids[:, None].to(tl.int64) * swk + offs_o[None, :].to(tl.int64) * swn
    for k0 in range(0, NK, BLOCK_K):
        k_mask = k_ids < NK - k0
        z = tl.load(z_ptrs, mask=m_mask[:, None] & k_mask[None, :], other=float("-inf"))
        p = tl.exp(z - lse[:, None])  # dropout in eval mode: the probabilities as they are
        w = tl.load(w_ptrs, mask=k_mask[:, None] & o_mask[None, :], other=0.0)
        acc = tl.dot(p, w, acc, input_precision="ieee", out_dtype=tl.float32)
        z_ptrs += BLOCK_K
        w_ptrs += BLOCK_K * swk
    mo_mask = m_mask[:, None] & o_mask[None, :]
    h = acc + tl.load(r_ptr + rows * srm + offs_o[None, :].to(tl.int64) * srn, mask=mo_mask, other=0.0)
    tl.store(h_ptr + rows * NO + offs_o[None, :], h, mask=mo_mask)
    count = tl.minimum(NO - pid_o * BLOCK_O, BLOCK_O).to(tl.float32)
    h = tl.where(o_mask[None, :], h, 0.0)
    mean = tl.sum(h, axis=1) / count
    dev = tl.where(o_mask[None, :], h - mean[:, None], 0.0)
    s_off = row_ids.to(tl.int64) * T2 + pid_o
    tl.store(smean_ptr + s_off, mean, mask=m_mask)
    tl.store(sm2_ptr + s_off, tl.sum(dev * dev, axis=1), mask=m_mask)


@triton.jit
def _layer_norm_rows_kernel(h_ptr, smean_ptr, sm2_ptr, NO, T, TILE, eps,
                            BLOCK_T: tl.constexpr, BLOCK: tl.constexpr):
    # In place layer norm of one row from its T per-tile (mean, M2) pieces (Chan's combination:
    # M2 = sum M2_t + sum n_t (mean_t - mean)^2, no E[h^2] - E[h]^2 cancellation).
    row = tl.program_id(0).to(tl.int64)
    pid = tl.program_id(1)
    offs_t = tl.arange(0, BLOCK_T)
    total = tl.zeros((BLOCK_T,), tl.float32)
    for t0 in range(0, T, BLOCK_T):
        t = t0 + offs_t
        n_t = tl.where(t < T, tl.minimum(NO - t * TILE, TILE), 0).to(tl.float32)
        total += n_t * tl.load(smean_ptr + row * T + t, mask=t < T, other=0.0)
    mean = tl.sum(total, axis=0) / NO
    m2 = tl.zeros((BLOCK_T,), tl.float32)
    for t0 in range(0, T, BLOCK_T):
        t = t0 + offs_t
        n_t = tl.where(t < T, tl.minimum(NO - t * TILE, TILE), 0).to(tl.float32)
        d = tl.load(smean_ptr + row * T + t, mask=t < T, other=0.0) - mean
        m2 += tl.load(sm2_ptr + row * T + t, mask=t < T, other=0.0) + n_t * d * d
    rstd = 1.0 / tl.sqrt(tl.sum(m2, axis=0) / NO + eps)  # biased variance, as layer_norm uses
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < NO
    ptrs = h_ptr + row * NO + offs
    tl.store(ptrs, (tl.load(ptrs, mask=mask, other=0.0) - mean) * rstd, mask=mask)


def fused_transformer_block(input, weight1, weight2, residual, dropout_p=0.1, eps=1e-05, *, out=None):
    if not 0.0 <= dropout_p <= 1.0:
        raise ValueError(f"fused_transformer_block: dropout probability has to be between 0 and 1, got {dropout_p}")
    D_in = input.shape[-1]
    if weight1.dim() != 2 or weight2.dim() != 2 or weight1.shape[0] != D_in or weight2.shape[0] != weight1.shape[1]:
        raise RuntimeError("fused_transformer_block: weight shapes do not chain with the input")
    D_k, D_out = weight1.shape[1], weight2.shape[1]
    shape = tuple(input.shape[:-1]) + (D_out,)
    M = math.prod(input.shape[:-1])
    y = out if out is not None else torch.empty(shape, dtype=input.dtype, device=input.device)
    if M == 0 or D_out == 0:
        return y
    direct = y.is_contiguous()
    h = y.view(M, D_out) if direct else torch.empty((M, D_out), dtype=y.dtype, device=y.device)
    x = input.reshape(M, D_in)  # a view where the layout allows
    # the residual as an (M, D_out) view with stride 0 along broadcast dimensions (reshape copies
    # only when broadcast leading dimensions cannot be merged into one stride)
    r = residual.expand(shape).reshape(M, D_out)
    dev = input.device

    BM, BN, BK = 64, 64, 32
    T1 = triton.cdiv(D_k, BN)
    z1 = torch.empty((M, D_k), dtype=torch.float32, device=dev)
    smax = torch.empty((M, T1), dtype=torch.float32, device=dev)
    ssum = torch.empty_like(smax)
    _scores_kernel[(triton.cdiv(M, BM), T1)](
        x, weight1, z1, smax, ssum, M, D_k, D_in, x.stride(0), x.stride(1),
        weight1.stride(0), weight1.stride(1), T1, BLOCK_M=BM, BLOCK_N=BN, BLOCK_K=BK, num_warps=4)
    # global barrier: a row's softmax needs every tile's statistics
    BO = 64
    T2 = triton.cdiv(D_out, BO)
    smean = torch.empty((M, T2), dtype=torch.float32, device=dev)
    sm2 = torch.empty_like(smean)
    _probs_times_w2_kernel[(triton.cdiv(M, BM), T2)](
        z1, smax, ssum, weight2, r, h, smean, sm2, M, D_k, D_out, T1, T2,
        weight2.stride(0), weight2.stride(1), r.stride(0), r.stride(1),
        BLOCK_M=BM, BLOCK_O=BO, BLOCK_K=BK, BLOCK_T=min(64, triton.next_power_of_2(T1)), num_warps=4)
    # global barrier: a row's layer norm needs every output tile's statistics
    BLOCK = min(2048, triton.next_power_of_2(D_out))
    _layer_norm_rows_kernel[(M, triton.cdiv(D_out, BLOCK))](
        h, smean, sm2, D_out, T2, BO, float(eps), BLOCK_T=min(1024, triton.next_power_of_2(T2)), BLOCK=BLOCK)
    if not direct:
        y.copy_(h.view(shape))
    return y
