import torch
import triton
import triton.language as tl


@triton.jit
def _mm_rsqrt_kernel(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                     GROUP_M: tl.constexpr):
    # C = rsqrt(A @ B), the rsqrt fused into the store; C contiguous (M, N).
    pid = tl.program_id(0)
    tiles_m = tl.cdiv(M, BLOCK_M)
    tiles_n = tl.cdiv(N, BLOCK_N)
    # Grouped ordering: GROUP_M row tiles sweep the column tiles together (B tiles reused from L2).
    width = GROUP_M * tiles_n
    first_m = (pid // width) * GROUP_M
    group_m = tl.minimum(tiles_m - first_m, GROUP_M)
    tile_m = first_m + (pid % width) % group_m
    tile_n = (pid % width) // group_m

    row_ids = tile_m * BLOCK_M + tl.arange(0, BLOCK_M)
    col_ids = tile_n * BLOCK_N + tl.arange(0, BLOCK_N)
    k_ids = tl.arange(0, BLOCK_K)
    m_mask = row_ids < M
    n_mask = col_ids < N
    a_at = a_ptr + row_ids[:, None].to(tl.int64) * sam + k_ids[None, :].to(tl.int64) * sak
    b_at = b_ptr + k_ids[:, None].to(tl.int64) * sbk + col_ids[None, :].to(tl.int64) * sbn
    acc = tl.zeros([BLOCK_M, BLOCK_N], tl.float32)
    for k0 in range(0, K, BLOCK_K):
        k_mask = k_ids < K - k0
        a = tl.load(a_at, mask=m_mask[:, None] & k_mask[None, :], other=0.0)
        b = tl.load(b_at, mask=k_mask[:, None] & n_mask[None, :], other=0.0)
        acc = tl.dot(a, b, acc, input_precision="ieee")  # true float32 products, no TF32
        a_at += BLOCK_K * sak
        b_at += BLOCK_K * sbk
    c_ptrs = c_ptr + row_ids[:, None].to(tl.int64) * N + col_ids[None, :]
    tl.store(c_ptrs, tl.rsqrt(acc), mask=m_mask[:, None] & n_mask[None, :])


def _normalize_dims(a, b, dims):
    """(contracted dims of a, contracted dims of b) as non-negative indices, paired in order."""
    if isinstance(dims, int):
        if dims < 0 or dims > min(a.dim(), b.dim()):
            raise RuntimeError(f"tensordot_rsqrt: cannot contract {dims} dims")
        return list(range(a.dim() - dims, a.dim())), list(range(dims))
    dims_a, dims_b = dims
    dims_a = [int(d) % a.dim() for d in dims_a]
    dims_b = [int(d) % b.dim() for d in dims_b]
    if len(dims_a) != len(dims_b) or any(a.shape[i] != b.shape[j] for i, j in zip(dims_a, dims_b)):
        raise RuntimeError(f"tensordot_rsqrt: dims {dims} do not pair {tuple(a.shape)} with {tuple(b.shape)}")
    return dims_a, dims_b


def _prod(sizes):
    n = 1
    for s in sizes:
        n *= int(s)
    return n


def tensordot_rsqrt(a, b, dims):
    dims_a, dims_b = _normalize_dims(a, b, dims)
    free_a = [d for d in range(a.dim()) if d not in dims_a]
    free_b = [d for d in range(b.dim()) if d not in dims_b]
    out_shape = [a.shape[d] for d in free_a] + [b.shape[d] for d in free_b]
    M = _prod(a.shape[d] for d in free_a)
    N = _prod(b.shape[d] for d in free_b)
    K = _prod(a.shape[d] for d in dims_a)
    # As a matrix product: A2 (M, K) = a with free dims first, B2 (K, N) = b with contracted dims
    # first (views when the layout allows, else a copy).
    a2 = a.permute(*free_a, *dims_a).reshape(M, K)
    b2 = b.permute(*dims_b, *free_b).reshape(K, N)
    out = torch.empty((M, N), dtype=torch.float32, device=a.device)
    if M and N:
        if M >= 128 and N >= 128:
            BLOCK_M, BLOCK_N, warps = 128, 128, 8
        else:
            BLOCK_M = max(16, min(64, triton.next_power_of_2(M)))
            BLOCK_N = max(16, min(64, triton.next_power_of_2(N)))
            warps = 4
        grid = (triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N),)
        _mm_rsqrt_kernel[grid](a2, b2, out, M, N, K, a2.stride(0), a2.stride(1), b2.stride(0), b2.stride(1),
                               BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=32, GROUP_M=8,
                               num_warps=warps, num_stages=3)
    return out.view(out_shape)
