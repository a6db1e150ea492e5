import torch
import triton
import triton.language as tl


@triton.jit
def _matmul_fp16_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                        sab, sam, sak, sbb, sbk, sbn,
                        BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                        GROUP_M: tl.constexpr):
    # C[z] = A[z] @ B[z] (batch stride 0 for a shared 2-D operand); float16 tensor-core products,
    # float32 accumulator, one rounding to float16 at the store. C is contiguous (batch, M, N).
    pid = tl.program_id(0)
    tiles_m = tl.cdiv(M, BLOCK_M)
    tiles_n = tl.cdiv(N, BLOCK_N)
    tiles = tiles_m * tiles_n
    z = pid // tiles
    t = pid % tiles
    # Grouped ordering: GROUP_M row tiles sweep the column tiles together (B tiles reused from L2).
    width = GROUP_M * tiles_n
    first_m = (t // width) * GROUP_M
    group_m = tl.minimum(tiles_m - first_m, GROUP_M)
    tile_m = first_m + (t % width) % group_m
    tile_n = (t % width) // group_m

    row_ids = tile_m * BLOCK_M + tl.arange(0, BLOCK_M)
    col_ids = tile_n * BLOCK_N + tl.arange(0, BLOCK_N)
    k_ids = tl.arange(0, BLOCK_K)
    m_mask = row_ids < M
    n_mask = col_ids < N
    a_at = (a_ptr + z.to(tl.int64) * sab + row_ids[:, None].to(tl.int64) * sam
              + k_ids[None, :].to(tl.int64) * sak)
    b_at = (b_ptr + z.to(tl.int64) * sbb + k_ids[:, None].to(tl.int64) * sbk
              + col_ids[None, :].to(tl.int64) * sbn)

    acc = tl.zeros([BLOCK_M, BLOCK_N], tl.float32)
    for k0 in range(0, K, BLOCK_K):
        k_mask = k_ids < K - k0
        a = tl.load(a_at, mask=m_mask[:, None] & k_mask[None, :], other=0.0)
        b = tl.load(b_at, mask=k_mask[:, None] & n_mask[None, :], other=0.0)
        acc = tl.dot(a, b, acc)  # fp16 x fp16 -> fp32 accumulator
        a_at += BLOCK_K * sak
        b_at += BLOCK_K * sbk

    c_ptrs = c_ptr + z.to(tl.int64) * M * N + row_ids[:, None].to(tl.int64) * N + col_ids[None, :]
    tl.store(c_ptrs, acc.to(tl.float16), mask=m_mask[:, None] & n_mask[None, :])


def matmul_fp16(input, other):
    a, b = input, other
    if a.dim() not in (2, 3) or b.dim() not in (2, 3) or a.shape[-1] != b.shape[-2]:
        raise RuntimeError(f"matmul_fp16: cannot multiply {tuple(a.shape)} by {tuple(b.shape)}")
    M, K = a.shape[-2], a.shape[-1]
    N = b.shape[-1]
    batched = a.dim() == 3 or b.dim() == 3
    nb = a.shape[0] if a.dim() == 3 else (b.shape[0] if b.dim() == 3 else 1)
    if a.dim() == 3 and b.dim() == 3 and a.shape[0] != b.shape[0]:
        raise RuntimeError("matmul_fp16: batch sizes differ")
    out = torch.empty((nb, M, N) if batched else (M, N), dtype=torch.float16, device=a.device)
    if out.numel() == 0:
        return out
    sab = a.stride(0) if a.dim() == 3 else 0  # a shared 2-D operand: batch stride 0
    sbb = b.stride(0) if b.dim() == 3 else 0
    if M >= 128 and N >= 128:
        BLOCK_M, BLOCK_N, BLOCK_K, warps, stages = 128, 128, 64, 8, 4
    else:
        BLOCK_M = max(16, min(64, triton.next_power_of_2(M)))
        BLOCK_N = max(16, min(64, triton.next_power_of_2(N)))
        BLOCK_K, warps, stages = 64, 4, 3
    grid = (nb * triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N),)
    _matmul_fp16_kernel[grid](a, b, out, M, N, K,
                              sab, a.stride(-2), a.stride(-1), sbb, b.stride(-2), b.stride(-1),
                              BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K, GROUP_M=8,
                              num_warps=warps, num_stages=stages)
    return out
