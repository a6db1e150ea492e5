import torch
import triton
import triton.language as tl


@triton.jit
def _conv2d_bn_kernel(x_ptr, w_ptr, b_ptr, y_ptr,
                      rm_ptr, rv_ptr, g_ptr, be_ptr, psum_ptr, pm2_ptr,
                      M, OC, OH, OW, H, W, CG, OCG,
                      sxn, sxc, sxh, sxw, s_rm, s_rv,
                      KH, KW, stride_h, stride_w, pad_h, pad_w, dil_h, dil_w, eps,
                      HAS_BIAS: tl.constexpr, HAS_GAMMA: tl.constexpr, HAS_BETA: tl.constexpr,
                      TRAINING: tl.constexpr,
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # Implicit GEMM, one group per program along axis 2:
    #   Y[m, o] = sum_k A[m, k] * B[k, o],  m = (n, oh, ow), o = output channel in the group,
    #   k = (c, r, s) over the group's input channels and the kernel window (im2col gathered on the fly).
    # Inference: the normalization with the running statistics and the ReLU are applied to the fp32
    # accumulator (one pass). Training: the batch statistics need every row first, so this pass stores
    # the convolution and, per tile and channel, the sum and the sum of squared deviations from the
    # TILE mean (stable partial statistics, merged by _bn_stats_kernel).
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    grp = tl.program_id(2)
    K = CG * KH * KW
    KHW = KH * KW

    m = pid_m.to(tl.int64) * BLOCK_M + tl.arange(0, BLOCK_M)  # int64: N*C*H*W may exceed 2**31
    m_mask = m < M
    ow = m % OW
    t = m // OW
    oh = t % OH
    n = t // OH
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
        a = tl.load(x_ptr + x_base[:, None] + c[None, :].to(tl.int64) * sxc + ih * sxh + iw * sxw,
                    mask=a_mask, other=0.0)
        b = tl.load(w_ptr + w_row[None, :] + k[:, None], mask=k_mask[:, None] & o_mask[None, :], other=0.0)
        # "ieee": true fp32 products, matching a float32 (non-TF32) reference.
        acc = tl.dot(a.to(tl.float32), b.to(tl.float32), acc, input_precision="ieee", out_dtype=tl.float32)

    if HAS_BIAS:
        bias = tl.load(b_ptr + oc, mask=o_mask, other=0.0).to(tl.float32)
        acc += bias[None, :]
    out_mask = m_mask[:, None] & o_mask[None, :]
    if TRAINING:
        rows = tl.minimum(M - pid_m.to(tl.int64) * BLOCK_M, BLOCK_M).to(tl.float32)
        tile_sum = tl.sum(tl.where(out_mask, acc, 0.0), axis=0)
        dev = tl.where(out_mask, acc - (tile_sum / rows)[None, :], 0.0)
        tile_m2 = tl.sum(dev * dev, axis=0)
        p_off = pid_m.to(tl.int64) * OC + oc
        tl.store(psum_ptr + p_off, tile_sum, mask=o_mask)
        tl.store(pm2_ptr + p_off, tile_m2, mask=o_mask)
    else:
        mean = tl.load(rm_ptr + oc * s_rm, mask=o_mask, other=0.0).to(tl.float32)
        var = tl.load(rv_ptr + oc * s_rv, mask=o_mask, other=1.0).to(tl.float32)
        scale = 1.0 / tl.sqrt(var + eps)
        if HAS_GAMMA:
            scale *= tl.load(g_ptr + oc, mask=o_mask, other=1.0).to(tl.float32)
        acc = (acc - mean[None, :]) * scale[None, :]
        if HAS_BETA:
            acc += tl.load(be_ptr + oc, mask=o_mask, other=0.0).to(tl.float32)[None, :]
        acc = tl.maximum(acc, 0.0)
    # y is contiguous (N, OC, OH, OW)
    y_off = (n * OC * OH * OW + oh * OW + ow)[:, None] + (oc.to(tl.int64) * OH * OW)[None, :]
    tl.store(y_ptr + y_off, acc.to(y_ptr.dtype.element_ty), mask=out_mask)


@triton.jit
def _bn_stats_kernel(psum_ptr, pm2_ptr, mean_ptr, scale_ptr, rm_ptr, rv_ptr, g_ptr,
                     T, M, OC, s_rm, s_rv, count, eps, momentum,
                     TILE_ROWS: tl.constexpr, HAS_RUNNING: tl.constexpr, HAS_GAMMA: tl.constexpr,
                     BLOCK_T: tl.constexpr):
    # One program per channel merges the T tiles' partial statistics (Chan et al.): the mean from the
    # sums, then M2 = sum_i (M2_i + rows_i * (mean_i - mean)^2) -- no E[x^2] - E[x]^2 cancellation.
    ch = tl.program_id(0)
    total = tl.zeros([BLOCK_T], dtype=tl.float32)
    for t0 in range(0, T, BLOCK_T):
        ti = t0 + tl.arange(0, BLOCK_T)
        total += tl.load(psum_ptr + ti.to(tl.int64) * OC + ch, mask=ti < T, other=0.0)
    n = count  # a float: an int argument equal to 1 would be specialised to a constexpr
    mean = tl.sum(total, axis=0) / n
    m2 = tl.zeros([BLOCK_T], dtype=tl.float32)
    for t0 in range(0, T, BLOCK_T):
        ti = t0 + tl.arange(0, BLOCK_T)
        t_mask = ti < T
        rows = tl.minimum(M - ti.to(tl.int64) * TILE_ROWS, TILE_ROWS).to(tl.float32)
        tsum = tl.load(psum_ptr + ti.to(tl.int64) * OC + ch, mask=t_mask, other=0.0)
        tm2 = tl.load(pm2_ptr + ti.to(tl.int64) * OC + ch, mask=t_mask, other=0.0)
        d = tl.where(t_mask, tsum / rows - mean, 0.0)
        m2 += tl.where(t_mask, tm2 + rows * d * d, 0.0)
    var = tl.sum(m2, axis=0) / n  # biased: normalizes the batch
    scale = 1.0 / tl.sqrt(var + eps)
    if HAS_GAMMA:
        scale *= tl.load(g_ptr + ch).to(tl.float32)
    tl.store(mean_ptr + ch, mean)
    tl.store(scale_ptr + ch, scale)
    if HAS_RUNNING:
        rm = tl.load(rm_ptr + ch * s_rm).to(tl.float32)
        rv = tl.load(rv_ptr + ch * s_rv).to(tl.float32)
        unbiased = tl.sum(m2, axis=0) / (n - 1.0)  # the running estimate uses the unbiased variance
        tl.store(rm_ptr + ch * s_rm, ((1.0 - momentum) * rm + momentum * mean).to(rm_ptr.dtype.element_ty))
        tl.store(rv_ptr + ch * s_rv, ((1.0 - momentum) * rv + momentum * unbiased).to(rv_ptr.dtype.element_ty))


@triton.jit
def _bn_apply_relu_kernel(y_ptr, mean_ptr, scale_ptr, be_ptr, total, OC, HW,
                          HAS_BETA: tl.constexpr, BLOCK: tl.constexpr):
    # In place on the stored convolution: y = relu((y - mean[c]) * scale[c] + beta[c]).
    i = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = i < total
    ch = (i // HW) % OC
    y = tl.load(y_ptr + i, mask=mask, other=0.0).to(tl.float32)
    y = (y - tl.load(mean_ptr + ch, mask=mask, other=0.0)) * tl.load(scale_ptr + ch, mask=mask, other=1.0)
    if HAS_BETA:
        y += tl.load(be_ptr + ch, mask=mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + i, tl.maximum(y, 0.0).to(y_ptr.dtype.element_ty), mask=mask)


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


def fused_relu_batch_norm_conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1,
                                 running_mean=None, running_var=None, bn_weight=None, bn_bias=None, training=False,
                                 momentum=0.1, eps=1e-05, inplace=False):
    # `inplace` concerns only the fresh normalized intermediate; the output is always a new tensor.
    x = input
    groups = int(groups)
    N, C, H, W, OC, CG, KH, KW, sh, sw, ph0, pw0, dh, dw, OH, OW = _geometry(
        x, weight, stride, padding, dilation, groups)
    if (running_mean is None) != (running_var is None):
        raise ValueError("running_mean and running_var must both be given or both be None")
    if not training and running_mean is None:
        raise ValueError("running_mean and running_var are required when training=False")
    OCG = OC // groups
    y = torch.empty((N, OC, OH, OW), dtype=input.dtype, device=input.device)
    M = N * OH * OW
    if training and M < 2:
        raise ValueError("batch norm in training needs more than one value per channel")
    if not (M and OC):
        return y
    w = weight.contiguous()  # B tile addressing assumes (O, C/groups, kH, kW) row-major
    dummy = w  # pointer for absent optional tensors (never read)
    b = bias.contiguous() if bias is not None else dummy
    gamma = bn_weight.contiguous() if bn_weight is not None else dummy
    beta = bn_bias.contiguous() if bn_bias is not None else dummy
    has_running = running_mean is not None
    rm = running_mean if has_running else dummy  # strided running tensors are addressed by stride
    rv = running_var if has_running else dummy
    s_rm = running_mean.stride(0) if has_running else 0
    s_rv = running_var.stride(0) if has_running else 0
    K = CG * KH * KW
    BLOCK_M = 128 if M >= 4096 else 64
    BLOCK_N = max(16, min(128, triton.next_power_of_2(OCG)))
    BLOCK_K = max(16, min(32, triton.next_power_of_2(K)))
    T = triton.cdiv(M, BLOCK_M)
    psum = torch.empty((T, OC), dtype=torch.float32, device=input.device) if training else dummy
    pm2 = torch.empty((T, OC), dtype=torch.float32, device=input.device) if training else dummy
    grid = (T, triton.cdiv(OCG, BLOCK_N), groups)
    _conv2d_bn_kernel[grid](x, w, b, y, rm, rv, gamma, beta, psum, pm2,
                            M, OC, OH, OW, H, W, CG, OCG, *x.stride(), s_rm, s_rv,
                            KH, KW, sh, sw, ph0, pw0, dh, dw, float(eps),
                            HAS_BIAS=bias is not None, HAS_GAMMA=bn_weight is not None,
                            HAS_BETA=bn_bias is not None, TRAINING=bool(training),
                            BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K,
                            num_warps=8 if BLOCK_M * BLOCK_N >= 128 * 128 else 4, num_stages=3)
    if training:
        mean = torch.empty(OC, dtype=torch.float32, device=input.device)
        scale = torch.empty(OC, dtype=torch.float32, device=input.device)
        _bn_stats_kernel[(OC,)](psum, pm2, mean, scale, rm, rv, gamma, T, M, OC, s_rm, s_rv, float(M), float(eps),
                                float(momentum), TILE_ROWS=BLOCK_M, HAS_RUNNING=has_running,
                                HAS_GAMMA=bn_weight is not None, BLOCK_T=128)
        total = y.numel()
        BLOCK = 1024
        _bn_apply_relu_kernel[(triton.cdiv(total, BLOCK),)](y, mean, scale, beta, total, OC, OH * OW,
                                                            HAS_BETA=bn_bias is not None, BLOCK=BLOCK)
    return y
