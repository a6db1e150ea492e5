import torch
import triton
import triton.language as tl


@triton.jit
def _conv2d_selu_stats_kernel(x_ptr, w_ptr, b_ptr, y_ptr, psum_ptr, pm2_ptr,
                              OC, OH, OW, H, W, CG, OCG, T,
                              sxn, sxc, sxh, sxw,
                              KH, KW, stride_h, stride_w, pad_h, pad_w, dil_h, dil_w,
                              HAS_BIAS: tl.constexpr,
                              BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # Implicit GEMM over one image n and one group per program (axis 0 = n * T + tile, axis 2 = group;
    # the image rides on axis 0, whose grid limit is 2**31 - 1, not 65535 as on axes 1 and 2):
    #   Y[m, o] = sum_k A[m, k] * B[k, o],  m = (oh, ow) in the output plane, o = channel in the group,
    #   k = (c, r, s) over the group's input channels and the kernel window (im2col gathered on the fly).
    # SELU is applied to the fp32 accumulator and the result stored; since a tile never straddles two
    # images, its per-channel sum and sum of squared deviations from the TILE mean are partial
    # statistics of one (n, channel) instance, merged stably by _instance_stats_kernel.
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
    # SELU: scale * (v if v > 0 else alpha * (exp(v) - 1))
    acc = 1.0507009873554805 * tl.where(acc > 0, acc, 1.6732632423543772 * (tl.exp(tl.minimum(acc, 0.0)) - 1.0))

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
def _instance_stats_kernel(psum_ptr, pm2_ptr, mean_ptr, rstd_ptr, T, HW, count, eps,
                           TILE_ROWS: tl.constexpr, BLOCK_T: tl.constexpr):
    # One program per (n, channel) instance merges its T tiles (Chan et al.): the mean from the sums,
    # then M2 = sum_i (M2_i + rows_i * (mean_i - mean)^2); var = M2 / HW (biased).
    inst = tl.program_id(0).to(tl.int64)
    base = inst * T
    total = tl.zeros([BLOCK_T], dtype=tl.float32)
    for t0 in range(0, T, BLOCK_T):
        ti = t0 + tl.arange(0, BLOCK_T)
        total += tl.load(psum_ptr + base + ti, mask=ti < T, other=0.0)
    mean = tl.sum(total, axis=0) / count
    m2 = tl.zeros([BLOCK_T], dtype=tl.float32)
    for t0 in range(0, T, BLOCK_T):
        ti = t0 + tl.arange(0, BLOCK_T)
        t_mask = ti < T
        rows = tl.minimum(HW - ti * TILE_ROWS, TILE_ROWS).to(tl.float32)
        tsum = tl.load(psum_ptr + base + ti, mask=t_mask, other=0.0)
        tm2 = tl.load(pm2_ptr + base + ti, mask=t_mask, other=0.0)
        d = tl.where(t_mask, tsum / rows - mean, 0.0)
        m2 += tl.where(t_mask, tm2 + rows * d * d, 0.0)
    var = tl.sum(m2, axis=0) / count
    tl.store(mean_ptr + inst, mean)
    tl.store(rstd_ptr + inst, 1.0 / tl.sqrt(var + eps))


@triton.jit
def _normalize_kernel(y_ptr, mean_ptr, rstd_ptr, total, HW, BLOCK: tl.constexpr):
    # In place on the stored SELU output: y = (y - mean[n, c]) * rstd[n, c].
    i = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = i < total
    inst = i // HW
    y = tl.load(y_ptr + i, mask=mask, other=0.0).to(tl.float32)
    y = (y - tl.load(mean_ptr + inst, mask=mask, other=0.0)) * tl.load(rstd_ptr + inst, mask=mask, other=1.0)
    tl.store(y_ptr + i, y.to(y_ptr.dtype.element_ty), mask=mask)


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


def fused_instance_norm_selu_conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1,
                                    num_features=None, eps=1e-05, momentum=0.1, affine=False,
                                    track_running_stats=False):
    # A fresh InstanceNorm2d in training mode: affine scale/shift are 1/0 and any running estimates it
    # would keep are internal, so momentum, affine and track_running_stats do not change the result.
    x = input
    groups = int(groups)
    N, C, H, W, OC, CG, KH, KW, sh, sw, ph0, pw0, dh, dw, OH, OW = _geometry(
        x, weight, stride, padding, dilation, groups)
    if num_features is not None and int(num_features) != OC:
        raise ValueError(f"num_features={num_features} does not match the {OC} output channels")
    OCG = OC // groups
    HW = OH * OW
    if HW < 2:
        raise ValueError("instance norm needs more than one spatial element per instance")
    y = torch.empty((N, OC, OH, OW), dtype=input.dtype, device=input.device)
    if not (N and OC):
        return y
    w = weight.contiguous()  # B tile addressing assumes (O, C/groups, kH, kW) row-major
    b = bias.contiguous() if bias is not None else w  # dummy pointer when there is no bias
    K = CG * KH * KW
    BLOCK_M = 128 if HW >= 4096 else 64
    BLOCK_N = max(16, min(128, triton.next_power_of_2(OCG)))
    BLOCK_K = max(16, min(32, triton.next_power_of_2(K)))
    T = triton.cdiv(HW, BLOCK_M)
    psum = torch.empty((N, OC, T), dtype=torch.float32, device=input.device)
    pm2 = torch.empty((N, OC, T), dtype=torch.float32, device=input.device)
    grid = (N * T, triton.cdiv(OCG, BLOCK_N), groups)
    _conv2d_selu_stats_kernel[grid](x, w, b, y, psum, pm2, OC, OH, OW, H, W, CG, OCG, T, *x.stride(),
                                    KH, KW, sh, sw, ph0, pw0, dh, dw,
                                    HAS_BIAS=bias is not None,
                                    BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K,
                                    num_warps=8 if BLOCK_M * BLOCK_N >= 128 * 128 else 4, num_stages=3)
    mean = torch.empty(N * OC, dtype=torch.float32, device=input.device)
    rstd = torch.empty(N * OC, dtype=torch.float32, device=input.device)
    _instance_stats_kernel[(N * OC,)](psum, pm2, mean, rstd, T, HW, float(HW), float(eps), TILE_ROWS=BLOCK_M,
                                      BLOCK_T=128)
    total = y.numel()
    BLOCK = 1024
    _normalize_kernel[(triton.cdiv(total, BLOCK),)](y, mean, rstd, total, HW, BLOCK=BLOCK)
    return y
