import torch
import triton
import triton.language as tl

# 1.5 * 2^23: adding and subtracting it rounds a float32 |v| < 2^22 to an integer, half to even
# (the float32 addition itself rounds to nearest even); portable (no libdevice) and exact.
_RNE_MAGIC = tl.constexpr(12582912.0)


@triton.jit
def _quantize_groups_kernel(src_ptr, q_ptr, scale_ptr, G, E,
                            s_b, s_g, s_e, q_b, q_g, q_e,
                            BLOCK_G: tl.constexpr, BLOCK_E: tl.constexpr):
    # Symmetric int8 quantization with one scale per group: groups are rows (s_g, s_e = the row's
    # strides) or columns (strides swapped) of a 2-D tensor. Pass 1: amax = max |v| (exact in any
    # order); scale = amax / 127 correctly rounded. Pass 2: q = rne(v / scale) in [-127, 127].
    # Axis 1 of the grid is the batch: each batch has its own groups.
    pid = tl.program_id(0)
    bat = tl.program_id(1).to(tl.int64)
    src_ptr += bat * s_b
    q_ptr += bat * q_b
    scale_ptr += bat * G
    g = pid * BLOCK_G + tl.arange(0, BLOCK_G)
    g_mask = g < G
    g64 = g.to(tl.int64)
    amax = tl.zeros([BLOCK_G], dtype=tl.float32)
    for e0 in range(0, E, BLOCK_E):
        e = e0 + tl.arange(0, BLOCK_E)
        mask = g_mask[:, None] & (e < E)[None, :]
        v = tl.load(src_ptr + g64[:, None] * s_g + e.to(tl.int64)[None, :] * s_e, mask=mask, other=0.0)
        amax = tl.maximum(amax, tl.max(tl.abs(v), axis=1))
    scale = tl.div_rn(amax, tl.full([BLOCK_G], 127.0, tl.float32))
    tl.store(scale_ptr + g, scale, mask=g_mask)
    nonzero = scale > 0.0
    safe = tl.where(nonzero, scale, 1.0)
    for e0 in range(0, E, BLOCK_E):
        e = e0 + tl.arange(0, BLOCK_E)
        mask = g_mask[:, None] & (e < E)[None, :]
        v = tl.load(src_ptr + g64[:, None] * s_g + e.to(tl.int64)[None, :] * s_e, mask=mask, other=0.0)
        t = tl.div_rn(v, safe[:, None])
        t = (t + _RNE_MAGIC) - _RNE_MAGIC
        t = tl.minimum(tl.maximum(t, -127.0), 127.0)
        t = tl.where(nonzero[:, None], t, 0.0)
        tl.store(q_ptr + g64[:, None] * q_g + e.to(tl.int64)[None, :] * q_e, t.to(tl.int8), mask=mask)


@triton.jit
def _gemm_w8a8_kernel(a_ptr, b_ptr, c_ptr, sa_ptr, sb_ptr, M, N, K,
                      s_ab, s_am, s_ak, s_bb, s_bk, s_bn, s_cb, s_cm, s_cn,
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                      GROUP_M: tl.constexpr):
    # int8 x int8 tiles on the tensor cores, exact int32 accumulation, float32 dequantization
    # (acc * s_a[m]) * s_b[n] in the epilogue. Axis 1 of the grid is the batch.
    pid = tl.program_id(0)
    bat = tl.program_id(1).to(tl.int64)
    a_ptr += bat * s_ab
    b_ptr += bat * s_bb
    c_ptr += bat * s_cb
    sa_ptr += bat * M
    sb_ptr += bat * N
    num_m = tl.cdiv(M, BLOCK_M)
    num_n = tl.cdiv(N, BLOCK_N)
    per_group = GROUP_M * num_n
    group = pid // per_group
    first_m = group * GROUP_M
    size_m = tl.minimum(num_m - first_m, GROUP_M)
    pid_m = first_m + (pid % per_group) % size_m
    pid_n = (pid % per_group) // size_m

    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rm64 = rm.to(tl.int64)
    rn64 = rn.to(tl.int64)
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.int32)
    for k0 in range(0, K, BLOCK_K):
        rk = k0 + tl.arange(0, BLOCK_K)
        rk64 = rk.to(tl.int64)
        a = tl.load(a_ptr + rm64[:, None] * s_am + rk64[None, :] * s_ak,
                    mask=(rm < M)[:, None] & (rk < K)[None, :], other=0)
        b = tl.load(b_ptr + rk64[:, None] * s_bk + rn64[None, :] * s_bn,
                    mask=(rk < K)[:, None] & (rn < N)[None, :], other=0)
        acc = tl.dot(a, b, acc, out_dtype=tl.int32)  # int8 x int8 -> int32 (Triton 3.6 wants the accumulator dtype named)
    sa = tl.load(sa_ptr + rm, mask=rm < M, other=0.0)
    sb = tl.load(sb_ptr + rn, mask=rn < N, other=0.0)
    out = acc.to(tl.float32) * sa[:, None] * sb[None, :]
    tl.store(c_ptr + rm64[:, None] * s_cm + rn64[None, :] * s_cn, out,
             mask=(rm < M)[:, None] & (rn < N)[None, :])


def bmm_w8a8(input, mat2):
    if input.dim() != 3 or mat2.dim() != 3 or input.shape[0] != mat2.shape[0] or input.shape[2] != mat2.shape[1]:
        raise ValueError("bmm_w8a8 expects input (B, M, K) and mat2 (B, K, N)")
    B, M, K = input.shape
    N = mat2.shape[2]
    dev = input.device
    out = torch.empty((B, M, N), dtype=torch.float32, device=dev)
    if B == 0 or M == 0 or N == 0:
        return out
    xq = torch.empty((B, M, K), dtype=torch.int8, device=dev)
    mq = torch.empty((B, K, N), dtype=torch.int8, device=dev)
    sx = torch.empty((B, M), dtype=torch.float32, device=dev)
    sm = torch.empty((B, N), dtype=torch.float32, device=dev)
    # input: one group per row (b, m); mat2: one group per column (b, n)
    _quantize_groups_kernel[(triton.cdiv(M, 16), B)](
        input, xq, sx, M, K, input.stride(0), input.stride(1), input.stride(2), M * K, K, 1,
        BLOCK_G=16, BLOCK_E=128)
    _quantize_groups_kernel[(triton.cdiv(N, 64), B)](
        mat2, mq, sm, N, K, mat2.stride(0), mat2.stride(2), mat2.stride(1), K * N, 1, N,
        BLOCK_G=64, BLOCK_E=32)
    BLOCK_M = 128 if M > 64 else 64
    BLOCK_N = 128 if N > 64 else 64
    BLOCK_K = 128 if K >= 128 else 64
    grid = (triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N), B)
    _gemm_w8a8_kernel[grid](xq, mq, out, sx, sm, M, N, K, M * K, K, 1, K * N, N, 1, M * N, N, 1,
                            BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K, GROUP_M=8,
                            num_warps=8, num_stages=3)
    return out
