import math

import torch
import triton
import triton.language as tl


@triton.jit
def _linear_relu_stats_kernel(x_ptr, w_ptr, b_ptr, y_ptr, smean_ptr, sm2_ptr, M, N, K,
                              sxm, sxk, swn, swk, sb, T,
                              HAS_BIAS: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                              BLOCK_K: tl.constexpr):
    # H = relu(X @ W^T + b) for one (BLOCK_M, BLOCK_N) tile, stored into the output buffer, plus
    # per row of the tile the mean and the sum of squared deviations of its valid columns (the
    # layer-norm statistics are combined from these per-tile pieces by the next launch, Chan's
    # formula, so no variance is ever formed as E[h^2] - E[h]^2).
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
    if HAS_BIAS:
        acc += tl.load(b_ptr + col_ids.to(tl.int64) * sb, mask=n_mask, other=0.0)[None, :]
    h = tl.maximum(acc, 0.0)
    mn_mask = m_mask[:, None] & n_mask[None, :]
    tl.store(y_ptr + row_ids[:, None].to(tl.int64) * N + col_ids[None, :], h, mask=mn_mask)
    count = tl.minimum(N - tile_n * BLOCK_N, BLOCK_N).to(tl.float32)
    h = tl.where(n_mask[None, :], h, 0.0)
    mean = tl.sum(h, axis=1) / count
    dev = tl.where(n_mask[None, :], h - mean[:, None], 0.0)
    m2 = tl.sum(dev * dev, axis=1)
    s_off = row_ids.to(tl.int64) * T + tile_n
    tl.store(smean_ptr + s_off, mean, mask=m_mask)
    tl.store(sm2_ptr + s_off, m2, mask=m_mask)


@triton.jit
def _normalize_kernel(y_ptr, smean_ptr, sm2_ptr, N, T, S, GROUP_ELEMS, eps, TILE_N,
                      BLOCK_S: tl.constexpr, BLOCK: tl.constexpr):
    # One normalization group = S consecutive (row, tile) statistics and GROUP_ELEMS consecutive
    # outputs. Tile t of a row holds min(TILE_N, N - t * TILE_N) columns. Two passes over the
    # statistics: the group mean, then M2 = sum M2_t + sum n_t (mean_t - mean)^2 (exact in exact
    # arithmetic, no cancellation).
    grp = tl.program_id(0).to(tl.int64)
    pid = tl.program_id(1)
    offs_s = tl.arange(0, BLOCK_S)
    base = smean_ptr + grp * S
    total = tl.zeros((BLOCK_S,), tl.float32)
    for s0 in range(0, S, BLOCK_S):
        idx = s0 + offs_s
        t = idx % T
        n_t = tl.where(idx < S, tl.minimum(N - t * TILE_N, TILE_N), 0).to(tl.float32)
        total += n_t * tl.load(base + idx, mask=idx < S, other=0.0)
    count = GROUP_ELEMS * 1.0
    mean = tl.sum(total, axis=0) / count
    m2 = tl.zeros((BLOCK_S,), tl.float32)
    for s0 in range(0, S, BLOCK_S):
        idx = s0 + offs_s
        t = idx % T
        n_t = tl.where(idx < S, tl.minimum(N - t * TILE_N, TILE_N), 0).to(tl.float32)
        d = tl.load(base + idx, mask=idx < S, other=0.0) - mean
        m2 += tl.load(sm2_ptr + grp * S + idx, mask=idx < S, other=0.0) + n_t * d * d
    var = tl.sum(m2, axis=0) / count  # biased variance, as layer_norm uses
    rstd = 1.0 / tl.sqrt(var + eps)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < GROUP_ELEMS
    ptrs = y_ptr + grp * GROUP_ELEMS + offs
    h = tl.load(ptrs, mask=mask, other=0.0)
    tl.store(ptrs, (h - mean) * rstd, mask=mask)


def fused_layer_norm_relu_linear(input, weight, bias=None, normalized_shape=None, eps=1e-05,
                                 elementwise_affine=True):
    # elementwise_affine: a freshly made LayerNorm's affine parameters are ones and zeros, so
    # the flag does not change the result.
    K = input.shape[-1]
    N = weight.shape[0]
    if weight.dim() != 2 or weight.shape[1] != K:
        raise RuntimeError(f"fused_layer_norm_relu_linear: weight {tuple(weight.shape)} does not match "
                           f"input {tuple(input.shape)}")
    lead = tuple(input.shape[:-1])
    shape = lead + (N,)
    if normalized_shape is None:
        normalized_shape = (N,)
    elif isinstance(normalized_shape, int):
        normalized_shape = (normalized_shape,)
    normalized_shape = tuple(int(s) for s in normalized_shape)
    nd = len(normalized_shape)
    if nd == 0 or nd > len(shape) or tuple(shape[-nd:]) != normalized_shape:
        raise RuntimeError(f"fused_layer_norm_relu_linear: normalized_shape {normalized_shape} does not match {shape}")
    x = input.reshape(math.prod(lead), K)  # a view where the layout allows
    M = x.shape[0]
    y = torch.empty(shape, dtype=input.dtype, device=input.device)
    if y.numel() == 0:
        return y
    if M >= 128 and N >= 128:
        BLOCK_M, BLOCK_N, BLOCK_K, warps = 128, 128, 32, 8
    else:
        BLOCK_M = max(16, min(64, triton.next_power_of_2(M)))
        BLOCK_N = max(16, min(64, triton.next_power_of_2(N)))
        BLOCK_K, warps = 32, 4
    T = triton.cdiv(N, BLOCK_N)
    smean = torch.empty((M, T), dtype=torch.float32, device=input.device)
    sm2 = torch.empty_like(smean)
    b = bias if bias is not None else weight  # placeholder pointer, never read without HAS_BIAS
    _linear_relu_stats_kernel[(triton.cdiv(M, BLOCK_M), T)](
        x, weight, b, y, smean, sm2, M, N, K,
        x.stride(0), x.stride(1), weight.stride(0), weight.stride(1),
        bias.stride(0) if bias is not None else 0, T,
        HAS_BIAS=bias is not None, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K,
        num_warps=warps, num_stages=3)
    # a global barrier: a group's statistics come from every tile of its rows
    rows_per_group = math.prod(normalized_shape[:-1])
    groups = M // rows_per_group
    S = rows_per_group * T
    group_elems = rows_per_group * N
    BLOCK = min(2048, triton.next_power_of_2(group_elems))
    _normalize_kernel[(groups, triton.cdiv(group_elems, BLOCK))](
        y, smean, sm2, N, T, S, group_elems, float(eps), BLOCK_N,
        BLOCK_S=min(1024, triton.next_power_of_2(S)), BLOCK=BLOCK)
    return y
