import torch
import triton
import triton.language as tl


@triton.jit
def _tril_mm_kernel(a_ptr, b_ptr, c_ptr, M, N, alpha, beta, sam, sak, sbk, sbn,
                    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                    GROUP_M: tl.constexpr):
    # C = beta * (alpha * (tril(A) @ B)), A (M, M), B (M, N), C contiguous (M, N). Rows I of C need
    # only columns k <= max(I) of A: the K loop stops at the end of the row block, skipping the
    # all-zero tiles above the diagonal, and elements above the diagonal are never loaded.
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
    a_rows = a_ptr + row_ids[:, None].to(tl.int64) * sam
    b_cols = b_ptr + col_ids[None, :].to(tl.int64) * sbn
    k_end = tl.minimum((tile_m + 1) * BLOCK_M, M)
    acc = tl.zeros([BLOCK_M, BLOCK_N], tl.float32)
    for k0 in range(0, k_end, BLOCK_K):
        k = k0 + k_ids
        k_mask = k < k_end
        lower = (k[None, :] <= row_ids[:, None]) & m_mask[:, None] & k_mask[None, :]
        a = tl.load(a_rows + k[None, :].to(tl.int64) * sak, mask=lower, other=0.0)
        b = tl.load(b_cols + k[:, None].to(tl.int64) * sbk, mask=k_mask[:, None] & n_mask[None, :], other=0.0)
        acc = tl.dot(a, b, acc, input_precision="ieee")  # true float32 products, no TF32
    c = (acc * alpha) * beta
    c_ptrs = c_ptr + row_ids[:, None].to(tl.int64) * N + col_ids[None, :]
    tl.store(c_ptrs, c, mask=m_mask[:, None] & n_mask[None, :])


def tril_mm_and_scale(A, B, alpha, beta):
    if A.dim() != 2 or B.dim() != 2 or A.shape[0] != A.shape[1] or A.shape[1] != B.shape[0]:
        raise RuntimeError(f"tril_mm_and_scale: A{tuple(A.shape)} and B{tuple(B.shape)} do not fit")
    M, N = B.shape
    out = torch.empty((M, N), dtype=torch.float32, device=A.device)
    if M == 0 or N == 0:
        return out
    if M >= 128 and N >= 128:
        BLOCK_M, BLOCK_N, warps = 128, 128, 8
    else:
        BLOCK_M = max(16, min(64, triton.next_power_of_2(M)))
        BLOCK_N = max(16, min(64, triton.next_power_of_2(N)))
        warps = 4
    grid = (triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N),)
    _tril_mm_kernel[grid](A, B, out, M, N, float(alpha), float(beta),
                          A.stride(0), A.stride(1), B.stride(0), B.stride(1),
                          BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=32, GROUP_M=8,
                          num_warps=warps, num_stages=3)
    return out
