import torch
import triton
import triton.language as tl

_MAX_BATCH_DIMS = 3  # the kernel indexes up to three broadcast batch dimensions; more are merged


@triton.jit
def _bmm_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                B1, B2, sa0, sa1, sa2, sb0, sb1, sb2,
                sam, sak, sbk, sbn,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    # C[z] = A[z] @ B[z] for every batch index z = (z0, z1, z2) of the broadcast batch shape; a
    # broadcast batch dimension has stride 0 in its operand. C is contiguous (batch..., M, N).
    pid = tl.program_id(0)
    tiles_m = tl.cdiv(M, BLOCK_M)
    tiles_n = tl.cdiv(N, BLOCK_N)
    tiles = tiles_m * tiles_n
    z = pid // tiles
    t = pid % tiles
    # Grouped ordering: GROUP_M row tiles sweep the column tiles together, so the B tiles they share
    # stay in L2.
    width = GROUP_M * tiles_n
    first_m = (t // width) * GROUP_M
    group_m = tl.minimum(tiles_m - first_m, GROUP_M)
    tile_m = first_m + (t % width) % group_m
    tile_n = (t % width) // group_m

    z2 = z % B2
    z1 = (z // B2) % B1
    z0 = z // (B2 * B1)
    a_base = a_ptr + z0.to(tl.int64) * sa0 + z1.to(tl.int64) * sa1 + z2.to(tl.int64) * sa2
    b_base = b_ptr + z0.to(tl.int64) * sb0 + z1.to(tl.int64) * sb1 + z2.to(tl.int64) * sb2

    row_ids = tile_m * BLOCK_M + tl.arange(0, BLOCK_M)
    col_ids = tile_n * BLOCK_N + tl.arange(0, BLOCK_N)
    k_ids = tl.arange(0, BLOCK_K)
    m_mask = row_ids < M
    n_mask = col_ids < N
    a_at = a_base + row_ids[:, None].to(tl.int64) * sam + k_ids[None, :].to(tl.int64) * sak
    b_at = b_base + k_ids[:, None].to(tl.int64) * sbk + col_ids[None, :].to(tl.int64) * sbn

    acc = tl.zeros([BLOCK_M, BLOCK_N], tl.float32)
    for k0 in range(0, K, BLOCK_K):
        k_mask = k_ids < K - k0
        a = tl.load(a_at, mask=m_mask[:, None] & k_mask[None, :], other=0.0)
        b = tl.load(b_at, mask=k_mask[:, None] & n_mask[None, :], other=0.0)
        # "ieee": true float32 products (TF32 would round the inputs to a 10-bit mantissa)
        acc = tl.dot(a, b, acc, input_precision="ieee")
        a_at += BLOCK_K * sak
        b_at += BLOCK_K * sbk

    c_ptrs = c_ptr + z.to(tl.int64) * M * N + row_ids[:, None].to(tl.int64) * N + col_ids[None, :]
    tl.store(c_ptrs, acc, mask=m_mask[:, None] & n_mask[None, :])


@triton.jit
def _gemv_kernel(m_ptr, v_ptr, y_ptr, R, K, smr, smk, sv,
                 BLOCK_R: tl.constexpr, BLOCK_K: tl.constexpr):
    # y[r] = sum_k Mat[r, k] * v[k]; memory-bound: every element of Mat is read once.
    pid = tl.program_id(0)
    rows = pid * BLOCK_R + tl.arange(0, BLOCK_R)
    r_mask = rows < R
    cols = tl.arange(0, BLOCK_K)
    row_ptrs = m_ptr + rows[:, None].to(tl.int64) * smr
    acc = tl.zeros([BLOCK_R, BLOCK_K], tl.float32)
    for k0 in range(0, K, BLOCK_K):
        k = k0 + cols
        k_mask = k < K
        mat = tl.load(row_ptrs + k[None, :].to(tl.int64) * smk, mask=r_mask[:, None] & k_mask[None, :], other=0.0)
        vec = tl.load(v_ptr + k.to(tl.int64) * sv, mask=k_mask, other=0.0)
        acc += mat * vec[None, :]
    tl.store(y_ptr + rows, tl.sum(acc, axis=1), mask=r_mask)


def _prod(sizes):
    n = 1
    for s in sizes:
        n *= int(s)
    return n


def _gemv(mat, vec, out_flat):
    R, K = mat.shape
    if R == 0:
        return
    BLOCK_R = 32 if R >= 4096 else 16
    BLOCK_K = 256 if K >= 256 else max(16, triton.next_power_of_2(K))
    _gemv_kernel[(triton.cdiv(R, BLOCK_R),)](mat, vec, out_flat, R, K, mat.stride(0), mat.stride(1),
                                            vec.stride(0), BLOCK_R=BLOCK_R, BLOCK_K=BLOCK_K, num_warps=8)


def _bmm(a, b):
    """a (..., M, K) @ b (..., K, N) with broadcast batch dims, into a new contiguous tensor."""
    M, K = a.shape[-2], a.shape[-1]
    N = b.shape[-1]
    batch = torch.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    out = torch.empty((*batch, M, N), dtype=torch.float32, device=a.device)
    if out.numel() == 0:
        return out
    a = a.expand(*batch, M, K)
    b = b.expand(*batch, K, N)
    if len(batch) > _MAX_BATCH_DIMS:  # merge the leading batch dims (a copy only if not viewable)
        lead = len(batch) - _MAX_BATCH_DIMS + 1
        a = a.reshape(-1, *a.shape[lead:])
        b = b.reshape(-1, *b.shape[lead:])
    pad = _MAX_BATCH_DIMS - (a.dim() - 2)
    bs = [1] * pad + list(a.shape[:-2])
    sa = [0] * pad + list(a.stride()[:-2])
    sb = [0] * pad + list(b.stride()[:-2])
    nbatch = bs[0] * bs[1] * bs[2]
    if M >= 128 and N >= 128:
        BLOCK_M, BLOCK_N, warps = 128, 128, 8
    else:
        BLOCK_M = max(16, min(64, triton.next_power_of_2(M)))
        BLOCK_N = max(16, min(64, triton.next_power_of_2(N)))
        warps = 4
    BLOCK_K = 32
    grid = (nbatch * triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N),)
    _bmm_kernel[grid](a, b, out, M, N, K, bs[1], bs[2], *sa, *sb,
                      a.stride(-2), a.stride(-1), b.stride(-2), b.stride(-1),
                      BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K, GROUP_M=8,
                      num_warps=warps, num_stages=3)
    return out


def matmul(tensor1, tensor2):
    a, b = tensor1, tensor2
    if a.dim() == 0 or b.dim() == 0:
        raise RuntimeError("matmul: both arguments need at least 1 dimension")
    if a.shape[-1] != (b.shape[0] if b.dim() == 1 else b.shape[-2]):
        raise RuntimeError(f"matmul: shapes {tuple(a.shape)} and {tuple(b.shape)} cannot be multiplied")
    if b.dim() == 1:
        # (..., M, K) @ (K,) and (K,) @ (K,): matrix-vector over all rows of a
        rows = a.reshape(_prod(a.shape[:-1]), a.shape[-1])
        out = torch.empty(rows.shape[0], dtype=torch.float32, device=a.device)
        _gemv(rows, b, out)
        return out.reshape(a.shape[:-1])
    if a.dim() == 1 and b.dim() == 2:
        # (K,) @ (K, N) is B^T @ a: a matrix-vector product over the columns of b
        out = torch.empty(b.shape[1], dtype=torch.float32, device=a.device)
        _gemv(b.t(), a, out)
        return out
    if a.dim() == 1:
        return _bmm(a.unsqueeze(0), b).squeeze(-2)
    return _bmm(a, b)
