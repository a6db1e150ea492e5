import torch
import triton
import triton.language as tl


@triton.jit
def _conv2d_stats_kernel(x_ptr, w_ptr, b_ptr, y_ptr, psum_ptr, pm2_ptr,
                         OC, OH, OW, H, W, CG, OCG, T,
                         sxn, sxc, sxh, sxw,
                         KH, KW, stride_h, stride_w, pad_h, pad_w, dil_h, dil_w,
                         HAS_BIAS: tl.constexpr,
                         BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # Implicit GEMM over one image n and one group per program (axis 0 = n * T + tile, axis 2 = group;
    # the image rides on axis 0, whose grid limit is 2**31 - 1, not 65535 as on axes 1 and 2):
    #   Y[m, o] = sum_k A[m, k] * B[k, o],  m = (oh, ow) in the output plane, o = channel in the group,
    #   k = (c, r, s) over the group's input channels and the kernel window (im2col gathered on the fly).
    # The convolution is stored (normalized in place later); since a tile never straddles two samples,
    # its per-channel sum and sum of squared deviations from the TILE mean are partial statistics of
    # sample n, merged stably over all channels and tiles by _sample_stats_kernel.
    pid_0 = tl.program_id(0)
    pid_n = tl.program_id(1)
    grp = tl.program_id(2)
    n = (pid_0 // T).to(tl.int64)
    pid_m = pid_0 % T
    K = CG * KH * KW
    KHW = KH * KW
    HW = OH * OW

    m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    m_mask = m < HW
    ow = m % OW
    oh = m // OW
    ih0 = oh * stride_h - pad_h
    iw0 = ow * stride_w - pad_w
    x_base = n * sxn + (grp * CG).to(tl.int64) * sxc

    o = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    o_mask = o < OCG
    oc = grp * OCG + o  # absolute output channel
    w_row = oc.to(tl.int64) * K

    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        k = k0 + tl.arange(0, BLOCK_K)
        k_mask = k < K
        c = k // KHW
        rs = k % KHW
        r = rs // KW
        s = rs % KW
        ih = ih0[:, None] + (r * dil_h)[None, :]
        iw = iw0[:, None] + (s * dil_w)[None, :]
        a_mask = (m_mask[:, None] & k_mask[None, :] & (ih >= 0) & (ih < H) & (iw >= 0) & (iw < W))
        a = tl.load(x_ptr + x_base + c[None, :].to(tl.int64) * sxc + ih * sxh + iw * sxw,
                    mask=a_mask, other=0.0)
        b = tl.load(w_ptr + w_row[None, :] + k[:, None], mask=k_mask[:, None] & o_mask[None, :], other=0.0)
        # "ieee": true fp32 products, matching a float32 (non-TF32) reference.
        acc = tl.dot(a.to(tl.float32), b.to(tl.float32), acc, input_precision="ieee", out_dtype=tl.float32)

    if HAS_BIAS:
        bias = tl.load(b_ptr + oc, mask=o_mask, other=0.0).to(tl.float32)
        acc += bias[None, :]
    out_mask = m_mask[:, None] & o_mask[None, :]
    rows = tl.minimum(HW - pid_m * BLOCK_M, BLOCK_M).to(tl.float32)
    tile_sum = tl.sum(tl.where(out_mask, acc, 0.0), axis=0)
    dev = tl.where(out_mask, acc - (tile_sum / rows)[None, :], 0.0)
    tile_m2 = tl.sum(dev * dev, axis=0)
    p_off = ((n * OC + oc) * T + pid_m)  # partials laid out (N, OC, T)
    tl.store(psum_ptr + p_off, tile_sum, mask=o_mask)
    tl.store(pm2_ptr + p_off, tile_m2, mask=o_mask)
    # y is contiguous (N, OC, OH, OW)
    y_off = n * OC * HW + m[:, None] + (oc.to(tl.int64) * HW)[None, :]
    tl.store(y_ptr + y_off, acc.to(y_ptr.dtype.element_ty), mask=out_mask)


@triton.jit
def _sample_stats_kernel(psum_ptr, pm2_ptr, mean_ptr, rstd_ptr, T, HW, PARTS, count, eps,
                         TILE_ROWS: tl.constexpr, BLOCK_T: tl.constexpr):
    # One program per sample merges its PARTS = OC * T partials (Chan et al.): partial j covers tile
    # j % T of a channel, with rows_j values; the mean from the sums, then
    # M2 = sum_j (M2_j + rows_j * (mean_j - mean)^2); var = M2 / count, count = OC * HW (biased).
    # (Counts arrive as floats: an int argument equal to 1 would be specialised to a constexpr.)
    smp = tl.program_id(0).to(tl.int64)
    base = smp * PARTS
    total = tl.zeros([BLOCK_T], dtype=tl.float32)
    for t0 in range(0, PARTS, BLOCK_T):
        ti = t0 + tl.arange(0, BLOCK_T)
        total += tl.load(psum_ptr + base + ti, mask=ti < PARTS, other=0.0)
    mean = tl.sum(total, axis=0) / count
    m2 = tl.zeros([BLOCK_T], dtype=tl.float32)
    for t0 in range(0, PARTS, BLOCK_T):
        ti = t0 + tl.arange(0, BLOCK_T)
        t_mask = ti < PARTS
        rows = tl.minimum(HW - (ti % T) * TILE_ROWS, TILE_ROWS).to(tl.float32)
        tsum = tl.load(psum_ptr + base + ti, mask=t_mask, other=0.0)
        tm2 = tl.load(pm2_ptr + base + ti, mask=t_mask, other=0.0)
        d = tl.where(t_mask, tsum / rows - mean, 0.0)
        m2 += tl.where(t_mask, tm2 + rows * d * d, 0.0)
    var = tl.sum(m2, axis=0) / count
    tl.store(mean_ptr + smp, mean)
    tl.store(rstd_ptr + smp, 1.0 / tl.sqrt(var + eps))


@triton.jit
def _normalize_silu_kernel(y_ptr, mean_ptr, rstd_ptr, total, L, BLOCK: tl.constexpr):
    # In place on the stored convolution: v = (y - mean[n]) * rstd[n]; y = v * sigmoid(v).
    i = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = i < total
    smp = i // L
    y = tl.load(y_ptr + i, mask=mask, other=0.0).to(tl.float32)
    v = (y - tl.load(mean_ptr + smp, mask=mask, other=0.0)) * tl.load(rstd_ptr + smp, mask=mask, other=1.0)
    tl.store(y_ptr + i, (v * tl.sigmoid(v)).to(y_ptr.dtype.element_ty), mask=mask)


def _pair(v, name):
    if isinstance(v, (tuple, list)):
        if len(v) == 1:
            return int(v[0]), int(v[0])
        if len(v) != 2:
            raise ValueError(f"{name} must be an int or a pair, got {v!r}")
        return int(v[0]), int(v[1])
    return int(v), int(v)


def _geometry(x, weight, stride, padding, dilation, groups):
    """Output size and the top/left padding of a conv2d call, validated."""
    N, C, H, W = (int(s) for s in x.shape)
    OC, CG, KH, KW = (int(s) for s in weight.shape)
    if groups <= 0 or C % groups or OC % groups or CG != C // groups:
        raise ValueError(f"channels {C} -> {OC} do not fit weight {tuple(weight.shape)} with groups={groups}")
    sh, sw = _pair(stride, "stride")
    dh, dw = _pair(dilation, "dilation")
    if isinstance(padding, str):
        if padding == "valid":
            ph0 = ph1 = pw0 = pw1 = 0
        elif padding == "same":
            if sh != 1 or sw != 1:
                raise ValueError("padding='same' is not supported for strided convolutions")
            th, tw = dh * (KH - 1), dw * (KW - 1)
            ph0, pw0 = th // 2, tw // 2
            ph1, pw1 = th - ph0, tw - pw0  # the odd extra zero goes after
        else:
            raise ValueError(f"unknown padding {padding!r}")
    else:
        ph0, pw0 = _pair(padding, "padding")
        ph1, pw1 = ph0, pw0
    OH = (H + ph0 + ph1 - dh * (KH - 1) - 1) // sh + 1
    OW = (W + pw0 + pw1 - dw * (KW - 1) - 1) // sw + 1
    if OH <= 0 or OW <= 0:
        raise ValueError("output would be empty (kernel larger than padded input)")
    return N, C, H, W, OC, CG, KH, KW, sh, sw, ph0, pw0, dh, dw, OH, OW


def fused_silu_layer_norm_conv2d(x, weight, conv_weight, conv_bias=None, conv_stride=1, conv_padding=0,
                                 conv_dilation=1, conv_groups=1, ln_eps=1e-05):
    # `weight` does not enter the result: the layer norm has no affine transform (published reference).
    bias = conv_bias
    groups = int(conv_groups)
    N, C, H, W, OC, CG, KH, KW, sh, sw, ph0, pw0, dh, dw, OH, OW = _geometry(
        x, conv_weight, conv_stride, conv_padding, conv_dilation, groups)
    OCG = OC // groups
    HW = OH * OW
    y = torch.empty((N, OC, OH, OW), dtype=x.dtype, device=x.device)
    if not (N and OC):
        return y
    w = conv_weight.contiguous()  # B tile addressing assumes (O, C/groups, kH, kW) row-major
    b = bias.contiguous() if bias is not None else w  # dummy pointer when there is no bias
    K = CG * KH * KW
    BLOCK_M = 128 if HW >= 4096 else 64
    BLOCK_N = max(16, min(128, triton.next_power_of_2(OCG)))
    BLOCK_K = max(16, min(32, triton.next_power_of_2(K)))
    T = triton.cdiv(HW, BLOCK_M)
    psum = torch.empty((N, OC, T), dtype=torch.float32, device=x.device)
    pm2 = torch.empty((N, OC, T), dtype=torch.float32, device=x.device)
    grid = (N * T, triton.cdiv(OCG, BLOCK_N), groups)
    _conv2d_stats_kernel[grid](x, w, b, y, psum, pm2, OC, OH, OW, H, W, CG, OCG, T, *x.stride(),
                               KH, KW, sh, sw, ph0, pw0, dh, dw,
                               HAS_BIAS=bias is not None,
                               BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K,
                               num_warps=8 if BLOCK_M * BLOCK_N >= 128 * 128 else 4, num_stages=3)
    mean = torch.empty(N, dtype=torch.float32, device=x.device)
    rstd = torch.empty(N, dtype=torch.float32, device=x.device)
    _sample_stats_kernel[(N,)](psum, pm2, mean, rstd, T, HW, OC * T, float(OC * HW), float(ln_eps), TILE_ROWS=BLOCK_M,
                               BLOCK_T=256)
    total = y.numel()
    BLOCK = 1024
    _normalize_silu_kernel[(triton.cdiv(total, BLOCK),)](y, mean, rstd, total, OC * HW, BLOCK=BLOCK)
    return y
