import torch
import triton
import triton.language as tl


@triton.jit
def _gemm_axpby_kernel(a_ptr, b_ptr, c_ptr, d_ptr, M, N, K, alpha, beta,
                       sam, sak, sbk, sbn, scm, scn,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                       GROUP_M: tl.constexpr):
    # D = alpha * (A @ B) + beta * C, D contiguous (M, N).
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
    rows = row_ids[:, None].to(tl.int64)
    cols = col_ids[None, :].to(tl.int64)
    a_at = a_ptr + rows * sam + k_ids[None, :].to(tl.int64) * sak
    b_at = b_ptr + k_ids[:, None].to(tl.int64) * sbk + cols * sbn
    acc = tl.zeros([BLOCK_M, BLOCK_N], tl.float32)
    for k0 in range(0, K, BLOCK_K):
        k_mask = k_ids < K - k0
        a = tl.load(a_at, mask=m_mask[:, None] & k_mask[None, :], other=0.0)
        b = tl.load(b_at, mask=k_mask[:, None] & n_mask[None, :], other=0.0)
        acc = tl.dot(a, b, acc, input_precision="ieee")  # true float32 products, no TF32
        a_at += BLOCK_K * sak
        b_at += BLOCK_K * sbk
    mask = m_mask[:, None] & n_mask[None, :]
    c = tl.load(c_ptr + rows * scm + cols * scn, mask=mask, other=0.0)
    tl.store(d_ptr + rows * N + cols, alpha * acc + beta * c, mask=mask)


@triton.jit
def _syrk_axpby_kernel(d_ptr, e_ptr, N, alpha, beta, BLOCK: tl.constexpr, BLOCK_K: tl.constexpr):
    # E = alpha * (D @ D^T) + beta * D for contiguous (N, N) D and E. D @ D^T is symmetric: the
    # program of tile pair (i, j), i <= j, forms P = D[I, :] @ D[J, :]^T once and writes both
    # E[I, J] = alpha * P + beta * D[I, J] and E[J, I] = alpha * P^T + beta * D[J, I].
    pid_i = tl.program_id(0)
    pid_j = tl.program_id(1)
    if pid_j >= pid_i:  # tile pairs below the diagonal are written by their mirror
        offs_i = pid_i * BLOCK + tl.arange(0, BLOCK)
        offs_j = pid_j * BLOCK + tl.arange(0, BLOCK)
        k_ids = tl.arange(0, BLOCK_K)
        i_mask = offs_i < N
        j_mask = offs_j < N
        rows_i = offs_i.to(tl.int64) * N
        rows_j = offs_j.to(tl.int64) * N
        acc = tl.zeros((BLOCK, BLOCK), dtype=tl.float32)
        for k0 in range(0, N, BLOCK_K):
            k = k0 + k_ids
            k_mask = k < N
            x = tl.load(d_ptr + rows_i[:, None] + k[None, :], mask=i_mask[:, None] & k_mask[None, :], other=0.0)
            yt = tl.load(d_ptr + rows_j[None, :] + k[:, None], mask=k_mask[:, None] & j_mask[None, :], other=0.0)
            acc = tl.dot(x, yt, acc, input_precision="ieee")
        ij = rows_i[:, None] + offs_j[None, :]
        ij_mask = i_mask[:, None] & j_mask[None, :]
        d_ij = tl.load(d_ptr + ij, mask=ij_mask, other=0.0)
        tl.store(e_ptr + ij, alpha * acc + beta * d_ij, mask=ij_mask)
        if pid_j != pid_i:
            ji = rows_j[:, None] + offs_i[None, :]
            ji_mask = j_mask[:, None] & i_mask[None, :]
            d_ji = tl.load(d_ptr + ji, mask=ji_mask, other=0.0)
            tl.store(e_ptr + ji, alpha * tl.trans(acc) + beta * d_ji, mask=ji_mask)


def matrix_multiply_symmetric(A, B, C, alpha, beta):
    if A.dim() != 2 or B.dim() != 2 or A.shape[1] != B.shape[0] or C.shape != (A.shape[0], B.shape[1]) \
            or A.shape[0] != B.shape[1]:
        raise RuntimeError(f"shapes A{tuple(A.shape)} B{tuple(B.shape)} C{tuple(C.shape)} do not fit")
    n, m = A.shape
    dev = A.device
    e = torch.empty((n, n), dtype=torch.float32, device=dev)
    if n == 0:
        return e
    d = torch.empty((n, n), dtype=torch.float32, device=dev)  # first step, kept for the second
    alpha, beta = float(alpha), float(beta)
    big = n >= 128
    BLOCK = 128 if big else max(16, min(64, triton.next_power_of_2(n)))
    warps = 8 if big else 4
    grid = (triton.cdiv(n, BLOCK) * triton.cdiv(n, BLOCK),)
    _gemm_axpby_kernel[grid](A, B, C, d, n, n, m, alpha, beta,
                             A.stride(0), A.stride(1), B.stride(0), B.stride(1), C.stride(0), C.stride(1),
                             BLOCK_M=BLOCK, BLOCK_N=BLOCK, BLOCK_K=32, GROUP_M=8,
                             num_warps=warps, num_stages=3)
    tiles = triton.cdiv(n, BLOCK)
    _syrk_axpby_kernel[(tiles, tiles)](d, e, n, alpha, beta, BLOCK=BLOCK, BLOCK_K=32,
                                       num_warps=warps, num_stages=3)
    return e
