import torch
import triton
import triton.language as tl

# 1.5 * 2^23: adding and subtracting it rounds a float32 |v| < 2^22 to an integer, half to even
# (the float32 addition itself rounds to nearest even); portable (no libdevice) and exact.
_RNE_MAGIC = tl.constexpr(12582912.0)


@triton.jit
def _offsets4(i, S1, S2, S3, st0, st1, st2, st3):
    # flat index over a (S0, S1, S2, S3) tensor -> element offset under arbitrary strides
    i3 = i % S3
    t = i // S3
    i2 = t % S2
    t = t // S2
    i1 = t % S1
    i0 = t // S1
    return i0 * st0 + i1 * st1 + i2 * st2 + i3 * st3


@triton.jit
def _amax_partial_kernel(x_ptr, part_ptr, total, S1, S2, S3, st0, st1, st2, st3,
                         BLOCK: tl.constexpr, ITERS: tl.constexpr):
    # Per-tensor activation scale, stage 1: each program's max |x| over ITERS blocks.
    pid = tl.program_id(0)
    amax = tl.zeros([BLOCK], dtype=tl.float32)
    for it in range(ITERS):
        i = (pid.to(tl.int64) * ITERS + it) * BLOCK + tl.arange(0, BLOCK)
        v = tl.load(x_ptr + _offsets4(i, S1, S2, S3, st0, st1, st2, st3), mask=i < total, other=0.0)
        amax = tl.maximum(amax, tl.abs(v))
    tl.store(part_ptr + pid, tl.max(amax, axis=0))


@triton.jit
def _scale_kernel(part_ptr, scale_ptr, P, BLOCK: tl.constexpr):
    # Stage 2: max of the partial maxima (exact in any order); scale = amax / 127, correctly rounded.
    amax = tl.zeros([BLOCK], dtype=tl.float32)
    for p0 in range(0, P, BLOCK):
        p = p0 + tl.arange(0, BLOCK)
        amax = tl.maximum(amax, tl.load(part_ptr + p, mask=p < P, other=0.0))
    tl.store(scale_ptr, tl.div_rn(tl.max(amax, axis=0), 127.0))


@triton.jit
def _quantize_tensor_kernel(x_ptr, q_ptr, scale_ptr, total, S1, S2, S3, st0, st1, st2, st3,
                            BLOCK: tl.constexpr):
    # xq = rne(x / s) in [-127, 127], written contiguous (N, C, H, W); 0 when s == 0.
    i = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = i < total
    v = tl.load(x_ptr + _offsets4(i, S1, S2, S3, st0, st1, st2, st3), mask=mask, other=0.0)
    s = tl.load(scale_ptr)
    t = tl.div_rn(v, tl.where(s > 0.0, s, 1.0))
    t = (t + _RNE_MAGIC) - _RNE_MAGIC
    t = tl.minimum(tl.maximum(t, -127.0), 127.0)
    t = tl.where(s > 0.0, t, 0.0)
    tl.store(q_ptr + i, t.to(tl.int8), mask=mask)


@triton.jit
def _quantize_rows_kernel(w_ptr, q_ptr, scale_ptr, O, K, s_o, s_k, q_o, q_k,
                          BLOCK_O: tl.constexpr, BLOCK_K: tl.constexpr):
    # Weight scale per output channel (a row of the (O, C*kH*kW) view): amax pass, then quantize.
    o = tl.program_id(0) * BLOCK_O + tl.arange(0, BLOCK_O)
    o_mask = o < O
    o64 = o.to(tl.int64)
    amax = tl.zeros([BLOCK_O], dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        k = k0 + tl.arange(0, BLOCK_K)
        m = o_mask[:, None] & (k < K)[None, :]
        v = tl.load(w_ptr + o64[:, None] * s_o + k[None, :] * s_k, mask=m, other=0.0)
        amax = tl.maximum(amax, tl.max(tl.abs(v), axis=1))
    scale = tl.div_rn(amax, tl.full([BLOCK_O], 127.0, tl.float32))
    tl.store(scale_ptr + o, scale, mask=o_mask)
    nonzero = scale > 0.0
    safe = tl.where(nonzero, scale, 1.0)
    for k0 in range(0, K, BLOCK_K):
        k = k0 + tl.arange(0, BLOCK_K)
        m = o_mask[:, None] & (k < K)[None, :]
        v = tl.load(w_ptr + o64[:, None] * s_o + k[None, :] * s_k, mask=m, other=0.0)
        t = tl.div_rn(v, safe[:, None])
        t = (t + _RNE_MAGIC) - _RNE_MAGIC
        t = tl.minimum(tl.maximum(t, -127.0), 127.0)
        t = tl.where(nonzero[:, None], t, 0.0)
        tl.store(q_ptr + o64[:, None] * q_o + k[None, :] * q_k, t.to(tl.int8), mask=m)


@triton.jit
def _conv_w8a8_kernel(xq_ptr, wq_ptr, b_ptr, y_ptr, sx_ptr, sw_ptr,
                      M, O, OH, OW, C, H, W, KH, KW, stride_h, stride_w, pad_h, pad_w, s_b,
                      HAS_BIAS: tl.constexpr,
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # Implicit GEMM on int8 operands: Y[m, o] = sum_k A[m, k] * B[k, o], m = (n, oh, ow),
    # k = (c, r, s); A gathered from the contiguous int8 input (0 outside: padding), B = wq (K, O).
    # Exact int32 accumulation; epilogue (acc * s_x) * s_w[o] (+ bias[o]) in float32.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    K = C * KH * KW
    KHW = KH * KW
    m = pid_m.to(tl.int64) * BLOCK_M + tl.arange(0, BLOCK_M)
    m_mask = m < M
    ow = m % OW
    t = m // OW
    oh = t % OH
    n = t // OH
    ih0 = oh * stride_h - pad_h
    iw0 = ow * stride_w - pad_w
    x_base = n * C * H * W
    o = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    o_mask = o < O

    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.int32)
    for k0 in range(0, K, BLOCK_K):
        k = k0 + tl.arange(0, BLOCK_K)
        k_mask = k < K
        c = k // KHW
        rs = k % KHW
        r = rs // KW
        s = rs % KW
        ih = ih0[:, None] + r[None, :]
        iw = iw0[:, None] + s[None, :]
        a_mask = m_mask[:, None] & k_mask[None, :] & (ih >= 0) & (ih < H) & (iw >= 0) & (iw < W)
        a = tl.load(xq_ptr + x_base[:, None] + (c[None, :].to(tl.int64) * H + ih) * W + iw,
                    mask=a_mask, other=0)
        b = tl.load(wq_ptr + k[:, None].to(tl.int64) * O + o[None, :],
                    mask=k_mask[:, None] & o_mask[None, :], other=0)
        acc = tl.dot(a, b, acc, out_dtype=tl.int32)  # int8 x int8 -> int32 (Triton 3.6 wants the accumulator dtype named)

    sx = tl.load(sx_ptr)
    sw = tl.load(sw_ptr + o, mask=o_mask, other=0.0)
    out = (acc.to(tl.float32) * sx) * sw[None, :]
    if HAS_BIAS:
        out += tl.load(b_ptr + o * s_b, mask=o_mask, other=0.0)[None, :]
    y_off = (n * O * OH * OW + oh * OW + ow)[:, None] + (o.to(tl.int64) * OH * OW)[None, :]
    tl.store(y_ptr + y_off, out, mask=m_mask[:, None] & o_mask[None, :])


def _pair(v, name):
    if isinstance(v, (tuple, list)):
        if len(v) == 1:
            return int(v[0]), int(v[0])
        if len(v) != 2:
            raise ValueError(f"conv2d_w8a8: {name} must be an int or a pair, got {v!r}")
        return int(v[0]), int(v[1])
    return int(v), int(v)


def conv2d_w8a8(input, weight, bias=None, stride=1, padding=0):
    if input.dim() != 4 or weight.dim() != 4 or input.shape[1] != weight.shape[1]:
        raise ValueError("conv2d_w8a8 expects input (N, C, H, W) and weight (O, C, kH, kW)")
    N, C, H, W = (int(s) for s in input.shape)
    O, _, KH, KW = (int(s) for s in weight.shape)
    sh, sw_ = _pair(stride, "stride")
    ph, pw = _pair(padding, "padding")
    OH = (H + 2 * ph - KH) // sh + 1
    OW = (W + 2 * pw - KW) // sw_ + 1
    if OH <= 0 or OW <= 0:
        raise ValueError("conv2d_w8a8: output would be empty (kernel larger than padded input)")
    dev = input.device
    y = torch.empty((N, O, OH, OW), dtype=torch.float32, device=dev)
    total = N * C * H * W
    K = C * KH * KW
    if N == 0 or O == 0 or total == 0:
        return y

    # activation: one scale for the whole tensor (two-stage max), then int8 NCHW
    BLOCK, ITERS = 1024, 8
    P = triton.cdiv(total, BLOCK * ITERS)
    part = torch.empty((P,), dtype=torch.float32, device=dev)
    sx = torch.empty((1,), dtype=torch.float32, device=dev)
    xq = torch.empty((N, C, H, W), dtype=torch.int8, device=dev)
    xs = [C, H, W, *input.stride()]
    _amax_partial_kernel[(P,)](input, part, total, *xs, BLOCK=BLOCK, ITERS=ITERS)
    _scale_kernel[(1,)](part, sx, P, BLOCK=1024)
    _quantize_tensor_kernel[(triton.cdiv(total, BLOCK),)](input, xq, sx, total, *xs, BLOCK=BLOCK)

    # weight: one scale per output channel, stored transposed as the GEMM's B operand (K, O)
    w2 = weight.reshape(O, K)
    wq = torch.empty((K, O), dtype=torch.int8, device=dev)
    swt = torch.empty((O,), dtype=torch.float32, device=dev)
    _quantize_rows_kernel[(triton.cdiv(O, 16),)](w2, wq, swt, O, K, w2.stride(0), w2.stride(1), 1, O,
                                                 BLOCK_O=16, BLOCK_K=128)

    M = N * OH * OW
    b = bias if bias is not None else swt  # dummy pointer when there is no bias
    BLOCK_M = 128 if M >= 4096 else 64
    BLOCK_N = 128 if O > 64 else 64
    BLOCK_K = 64
    grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(O, BLOCK_N))
    _conv_w8a8_kernel[grid](xq, wq, b, y, sx, swt, M, O, OH, OW, C, H, W, KH, KW, sh, sw_, ph, pw,
                            bias.stride(0) if bias is not None else 0,
                            HAS_BIAS=bias is not None,
                            BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K,
                            num_warps=8 if BLOCK_M * BLOCK_N >= 128 * 128 else 4, num_stages=3)
    return y
