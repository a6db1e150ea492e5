import math

import torch
import triton
import triton.language as tl

# 1.5 * 2^23: adding and subtracting it rounds a float32 |v| < 2^22 to an integer, half to even
# (the float32 addition itself rounds to nearest even); portable (no libdevice) and exact.
_RNE_MAGIC = tl.constexpr(12582912.0)


@triton.jit
def _quantize(v, safe, nonzero):
    t = tl.div_rn(v, safe)
    t = (t + _RNE_MAGIC) - _RNE_MAGIC
    t = tl.minimum(tl.maximum(t, -127.0), 127.0)
    return tl.where(nonzero, t, 0.0).to(tl.int32)


@triton.jit
def _round_e4m3(w):
    # Round float32 to the float8 e4m3fn grid, to nearest even, subnormals included (arithmetic,
    # so it runs the same under the interpreter): the grid spacing at |w| is 2^(e - 3) for
    # exponent e >= -6 and 2^-9 below; |w| / spacing is exact (a power of two) and at most 16.
    a = tl.abs(w)
    e = ((a.to(tl.int32, bitcast=True) >> 23) & 0xFF) - 127
    e = tl.maximum(e, -6)
    ulp = ((e - 3 + 127) << 23).to(tl.float32, bitcast=True)
    inv_ulp = ((127 - (e - 3)) << 23).to(tl.float32, bitcast=True)
    r = ((a * inv_ulp + _RNE_MAGIC) - _RNE_MAGIC) * ulp
    r = tl.minimum(r, 448.0)
    return tl.where(w < 0.0, -r, r)


@triton.jit(do_not_specialize=["N"])  # N == 1 must stay a tensor (N.to below)
def _layernorm_w8a8_kernel(x_ptr, w_ptr, b_ptr, y_ptr, R, N, s_r, s_c, s_w, s_b, eps,
                           HAS_W: tl.constexpr, HAS_B: tl.constexpr,
                           SINGLE: tl.constexpr, BLOCK: tl.constexpr):
    # One row per program. The row is quantized to int8 with s = amax / 127; its statistics are
    # taken exactly from the integers (S1 = sum q, S2 = sum q^2 in int64), so
    #   y = s * (N q - S1) / sqrt(s^2 * (N S2 - S1^2) + N^2 eps)
    # is the layer norm of q * s with only a few float32 roundings, whatever the conditioning.
    row = tl.program_id(0).to(tl.int64)
    base = x_ptr + row * s_r
    cols = tl.arange(0, BLOCK)
    if SINGLE:
        mask = cols < N
        v = tl.load(base + cols * s_c, mask=mask, other=0.0)
        amax = tl.max(tl.abs(v), axis=0)
    else:
        amax_v = tl.zeros([BLOCK], dtype=tl.float32)
        for c0 in range(0, N, BLOCK):
            c = c0 + cols
            amax_v = tl.maximum(amax_v, tl.abs(tl.load(base + c.to(tl.int64) * s_c, mask=c < N, other=0.0)))
        amax = tl.max(amax_v, axis=0)
    s = tl.div_rn(amax, 127.0)
    nonzero = s > 0.0
    safe = tl.where(nonzero, s, 1.0)
    if SINGLE:
        q = _quantize(v, safe, nonzero)
        s1 = tl.sum(q.to(tl.int64), axis=0)
        s2 = tl.sum((q * q).to(tl.int64), axis=0)
    else:
        a1 = tl.zeros([BLOCK], dtype=tl.int32)
        a2 = tl.zeros([BLOCK], dtype=tl.int32)
        for c0 in range(0, N, BLOCK):
            c = c0 + cols
            qc = _quantize(tl.load(base + c.to(tl.int64) * s_c, mask=c < N, other=0.0), safe, nonzero)
            a1 += qc
            a2 += qc * qc  # per lane at most ceil(N / BLOCK) * 127^2: far below 2^31
        s1 = tl.sum(a1.to(tl.int64), axis=0)
        s2 = tl.sum(a2.to(tl.int64), axis=0)
    n64 = N.to(tl.int64)
    var_n2 = (n64 * s2 - s1 * s1).to(tl.float32)  # N^2 * var(q), exact before this rounding
    nf = N.to(tl.float32)
    inv = 1.0 / tl.sqrt(var_n2 * (s * s) + nf * nf * eps)
    out_row = y_ptr + row * N
    for c0 in range(0, N, BLOCK):
        c = c0 + cols
        cm = c < N
        if SINGLE:
            qc = q
        else:
            qc = _quantize(tl.load(base + c.to(tl.int64) * s_c, mask=cm, other=0.0), safe, nonzero)
        num = (n64 * qc.to(tl.int64) - s1).to(tl.float32)  # N * (q - mean q), exact
        y = (num * s) * inv
        if HAS_W:
            y = y * _round_e4m3(tl.load(w_ptr + c * s_w, mask=cm, other=0.0))
        if HAS_B:
            y = y + tl.load(b_ptr + c * s_b, mask=cm, other=0.0)
        tl.store(out_row + c, y, mask=cm)


def layernorm_w8a8(input, normalized_shape, weight=None, bias=None, eps=1e-05):
    shape = (int(normalized_shape),) if isinstance(normalized_shape, int) else tuple(int(d) for d in normalized_shape)
    k = len(shape)
    if k == 0 or tuple(input.shape[input.dim() - k:]) != shape:
        raise ValueError(f"layernorm_w8a8: normalized_shape {shape} does not match input {tuple(input.shape)}")
    N = math.prod(shape)
    R = input.numel() // N if N else 0
    out = torch.empty(input.shape, dtype=torch.float32, device=input.device)
    if R == 0 or N == 0:
        return out
    # rows as a 2-D (R, N) view: a 2-D input (or 1-D) keeps its strides; others are viewed/reshaped
    x = input if input.dim() == 2 and k == 1 else input.reshape(R, N)
    w = weight.reshape(N) if weight is not None else out
    b = bias.reshape(N) if bias is not None else out
    BLOCK = triton.next_power_of_2(N)
    single = BLOCK <= 8192
    if not single:
        BLOCK = 4096
    warps = 16 if BLOCK >= 8192 else (8 if BLOCK >= 2048 else 4)
    _layernorm_w8a8_kernel[(R,)](x, w, b, out, R, N, x.stride(0), x.stride(1),
                                 w.stride(0), b.stride(0), float(eps),
                                 HAS_W=weight is not None, HAS_B=bias is not None,
                                 SINGLE=single, BLOCK=BLOCK, num_warps=warps)
    return out
