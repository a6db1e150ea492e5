import torch
import triton
import triton.language as tl

# 1.5 * 2^23: adding and subtracting it rounds a float32 |v| < 2^22 to an integer, half to even
# (the float32 addition itself rounds to nearest even); portable (no libdevice) and exact.
_RNE_MAGIC = tl.constexpr(12582912.0)


@triton.jit
def _rne_int4(v, safe, nonzero):
    t = tl.div_rn(v, safe)
    t = (t + _RNE_MAGIC) - _RNE_MAGIC
    t = tl.minimum(tl.maximum(t, -7.0), 7.0)
    return tl.where(nonzero, t, 0.0).to(tl.int32)


@triton.jit
def _quantize_pack_kernel(w_ptr, p_ptr, scale_ptr, N, K, KP, s_n, s_k,
                          BLOCK_N: tl.constexpr, BLOCK_J: tl.constexpr):
    # One scale per output channel (row n): amax pass, then int4 values in [-7, 7] packed two per
    # byte: byte j of a row holds k = 2j in its low nibble and k = 2j + 1 in its high nibble
    # (two's complement nibbles; an odd K pads the last high nibble with 0).
    n = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    n_mask = n < N
    n64 = n.to(tl.int64)
    amax = tl.zeros([BLOCK_N], dtype=tl.float32)
    for j0 in range(0, KP, BLOCK_J):
        j = j0 + tl.arange(0, BLOCK_J)
        k0 = 2 * j
        k1 = k0 + 1
        m0 = n_mask[:, None] & (k0 < K)[None, :]
        m1 = n_mask[:, None] & (k1 < K)[None, :]
        v0 = tl.load(w_ptr + n64[:, None] * s_n + k0[None, :] * s_k, mask=m0, other=0.0).to(tl.float32)
        v1 = tl.load(w_ptr + n64[:, None] * s_n + k1[None, :] * s_k, mask=m1, other=0.0).to(tl.float32)
        amax = tl.maximum(amax, tl.max(tl.maximum(tl.abs(v0), tl.abs(v1)), axis=1))
    scale = tl.div_rn(amax, tl.full([BLOCK_N], 7.0, tl.float32))
    tl.store(scale_ptr + n, scale, mask=n_mask)
    nonzero = (scale > 0.0)[:, None]
    safe = tl.where(scale > 0.0, scale, 1.0)[:, None]
    for j0 in range(0, KP, BLOCK_J):
        j = j0 + tl.arange(0, BLOCK_J)
        k0 = 2 * j
        k1 = k0 + 1
        m0 = n_mask[:, None] & (k0 < K)[None, :]
        m1 = n_mask[:, None] & (k1 < K)[None, :]
        v0 = tl.load(w_ptr + n64[:, None] * s_n + k0[None, :] * s_k, mask=m0, other=0.0).to(tl.float32)
        v1 = tl.load(w_ptr + n64[:, None] * s_n + k1[None, :] * s_k, mask=m1, other=0.0).to(tl.float32)
        q0 = _rne_int4(v0, safe, nonzero)
        q1 = _rne_int4(v1, safe, nonzero)
        byte = (q0 & 0xF) | ((q1 & 0xF) << 4)
        tl.store(p_ptr + n64[:, None] * KP + j[None, :], byte.to(tl.uint8), mask=m0)


@triton.jit
def _gemm_w4a16_kernel(x_ptr, p_ptr, scale_ptr, b_ptr, y_ptr, M, N, K, KP,
                       s_xm, s_xk, s_b,
                       HAS_BIAS: tl.constexpr,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_J: tl.constexpr):
    # y[m, n] = float16(s[n] * sum_k x[m, k] * q[n, k] + bias[n]). Each packed byte gives the
    # weights of an even and an odd k: the x columns are loaded in the same two halves, and both
    # halves go through float16 tensor-core products (|q| <= 7 is exact in float16) with a float32
    # accumulator. The scale is applied once, in float32, in the epilogue.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rm64 = rm.to(tl.int64)
    rn64 = rn.to(tl.int64)
    m_mask = rm < M
    n_mask = rn < N
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for j0 in range(0, KP, BLOCK_J):
        j = j0 + tl.arange(0, BLOCK_J)
        j_mask = j < KP
        k0 = (2 * j).to(tl.int64)
        k1 = k0 + 1
        x0 = tl.load(x_ptr + rm64[:, None] * s_xm + k0[None, :] * s_xk,
                     mask=m_mask[:, None] & (k0 < K)[None, :], other=0.0)
        x1 = tl.load(x_ptr + rm64[:, None] * s_xm + k1[None, :] * s_xk,
                     mask=m_mask[:, None] & (k1 < K)[None, :], other=0.0)
        byte = tl.load(p_ptr + j[:, None] + rn64[None, :] * KP,
                       mask=j_mask[:, None] & n_mask[None, :], other=0).to(tl.int32)
        lo = ((byte & 0xF) ^ 8) - 8          # sign-extend the low nibble
        hi = (((byte >> 4) & 0xF) ^ 8) - 8   # and the high one
        acc = tl.dot(x0, lo.to(tl.float16), acc)
        acc = tl.dot(x1, hi.to(tl.float16), acc)
    s = tl.load(scale_ptr + rn, mask=n_mask, other=0.0)
    out = acc * s[None, :]
    if HAS_BIAS:
        out += tl.load(b_ptr + rn64 * s_b, mask=n_mask, other=0.0).to(tl.float32)[None, :]
    tl.store(y_ptr + rm64[:, None] * N + rn64[None, :], out.to(tl.float16),
             mask=m_mask[:, None] & n_mask[None, :])


def linear_w4a16(input, weight, bias=None):
    if weight.dim() != 2 or input.dim() < 1 or input.shape[-1] != weight.shape[1]:
        raise ValueError("linear_w4a16 expects input (*, K) and weight (N, K)")
    N, K = weight.shape
    lead = input.shape[:-1]
    x = input.reshape(-1, K)
    M = x.shape[0]
    dev = input.device
    y = torch.empty((M, N), dtype=torch.float16, device=dev)
    if M == 0 or N == 0:
        return y.reshape(*lead, N)
    KP = (K + 1) // 2
    packed = torch.empty((N, KP), dtype=torch.uint8, device=dev)
    scale = torch.empty((N,), dtype=torch.float32, device=dev)
    _quantize_pack_kernel[(triton.cdiv(N, 32),)](weight, packed, scale, N, K, KP,
                                                 weight.stride(0), weight.stride(1),
                                                 BLOCK_N=32, BLOCK_J=64)
    BLOCK_M = 16 if M <= 16 else (64 if M <= 64 else 128)
    BLOCK_N = 64 if M <= 16 else 128
    BLOCK_J = 64
    grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N))
    b = bias if bias is not None else scale  # dummy pointer when there is no bias
    _gemm_w4a16_kernel[grid](x, packed, scale, b, y, M, N, K, KP, x.stride(0), x.stride(1),
                             bias.stride(0) if bias is not None else 0,
                             HAS_BIAS=bias is not None,
                             BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_J=BLOCK_J,
                             num_warps=4 if BLOCK_M * BLOCK_N <= 64 * 64 else 8, num_stages=4)
    return y.reshape(*lead, N)
