import os

import torch
import triton
import triton.language as tl

EPS = 1e-5  # batch norm's epsilon


@triton.jit
def _conv_tile(x_ptr, w_ptr, b_ptr, pid_m, pid_n, grp, M, OH, OW, H, W, CG, OCG,
               sxn, sxc, sxh, sxw, KH, KW, stride_h, stride_w, pad_h, pad_w, dil_h, dil_w,
               HAS_BIAS: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # Implicit GEMM: rows m = (n, oh, ow), columns = output channels of group `grp`, reduction over
    # k = (c, r, s); the im2col matrix is gathered on the fly, never materialised.
    K = CG * KH * KW
    KHW = KH * KW
    m = pid_m.to(tl.int64) * BLOCK_M + tl.arange(0, BLOCK_M)
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
    oc = grp * OCG + o
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
        a_mask = m_mask[:, None] & k_mask[None, :] & (ih >= 0) & (ih < H) & (iw >= 0) & (iw < W)
        a = tl.load(x_ptr + x_base[:, None] + c[None, :].to(tl.int64) * sxc + ih * sxh + iw * sxw,
                    mask=a_mask, other=0.0)
        b = tl.load(w_ptr + w_row[None, :] + k[:, None], mask=k_mask[:, None] & o_mask[None, :], other=0.0)
        acc = tl.dot(a, b, acc, input_precision="ieee", out_dtype=tl.float32)
    if HAS_BIAS:
        acc += tl.load(b_ptr + oc, mask=o_mask, other=0.0)[None, :]
    return acc, m, m_mask, n, oh, ow, oc, o_mask


@triton.jit
def _conv_stats_kernel(x_ptr, w_ptr, b_ptr, pmean_ptr, pm2_ptr, M, OC, OH, OW, H, W, CG, OCG,
                       sxn, sxc, sxh, sxw, KH, KW, stride_h, stride_w, pad_h, pad_w, dil_h, dil_w,
                       HAS_BIAS: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                       BLOCK_K: tl.constexpr):
    # Pass 1: each tile's per-channel mean and centred sum of squares (nothing else is written).
    pid_m = tl.program_id(0)
    acc, m, m_mask, n, oh, ow, oc, o_mask = _conv_tile(
        x_ptr, w_ptr, b_ptr, pid_m, tl.program_id(1), tl.program_id(2), M, OH, OW, H, W, CG, OCG,
        sxn, sxc, sxh, sxw, KH, KW, stride_h, stride_w, pad_h, pad_w, dil_h, dil_w,
        HAS_BIAS, BLOCK_M, BLOCK_N, BLOCK_K)
    cnt = tl.minimum(M - pid_m.to(tl.int64) * BLOCK_M, BLOCK_M).to(tl.float32)
    mean = tl.sum(tl.where(m_mask[:, None], acc, 0.0), axis=0) / cnt
    dev = tl.where(m_mask[:, None], acc - mean[None, :], 0.0)
    m2 = tl.sum(dev * dev, axis=0)
    off = pid_m.to(tl.int64) * OC + oc
    tl.store(pmean_ptr + off, mean, mask=o_mask)
    tl.store(pm2_ptr + off, m2, mask=o_mask)


@triton.jit
def _combine_stats_kernel(pmean_ptr, pm2_ptr, mean_ptr, rstd_ptr, M, OC, T, eps,
                          BLOCK_M: tl.constexpr, BLOCK_T: tl.constexpr, BLOCK_C: tl.constexpr):
    # Pass 2: merge the tiles' (count, mean, M2) per channel (Chan et al.): a block of tiles is
    # merged about its own mean, then into the running total, so no large sums of squares cancel.
    ch = tl.program_id(0) * BLOCK_C + tl.arange(0, BLOCK_C)
    cmask = ch < OC
    n_a = 0.0
    mean_a = tl.zeros((BLOCK_C,), dtype=tl.float32)
    m2_a = tl.zeros((BLOCK_C,), dtype=tl.float32)
    for t0 in range(0, T, BLOCK_T):
        t = t0 + tl.arange(0, BLOCK_T)
        tmask = t < T
        n_t = tl.where(tmask, tl.minimum(M - t.to(tl.int64) * BLOCK_M, BLOCK_M), 0).to(tl.float32)
        msk = tmask[:, None] & cmask[None, :]
        off = t[:, None].to(tl.int64) * OC + ch[None, :]
        mean_t = tl.load(pmean_ptr + off, mask=msk, other=0.0)
        m2_t = tl.load(pm2_ptr + off, mask=msk, other=0.0)
        n_b = tl.sum(n_t, axis=0)
        mean_b = tl.sum(n_t[:, None] * mean_t, axis=0) / n_b
        d_t = mean_t - mean_b[None, :]
        m2_b = tl.sum(m2_t + n_t[:, None] * d_t * d_t, axis=0)
        n = n_a + n_b
        delta = mean_b - mean_a
        mean_a = mean_a + delta * (n_b / n)
        m2_a = m2_a + m2_b + delta * delta * (n_a * n_b / n)
        n_a = n
    var = m2_a / n_a  # biased, as batch norm normalises with
    tl.store(mean_ptr + ch, mean_a, mask=cmask)
    tl.store(rstd_ptr + ch, 1.0 / tl.sqrt(var + eps), mask=cmask)


@triton.jit(do_not_specialize=["seed", "p", "scale"])
def _conv_bn_relu_dropout_kernel(x_ptr, w_ptr, b_ptr, mean_ptr, rstd_ptr, y_ptr, M, OC, OH, OW, H, W, CG, OCG,
                                 sxn, sxc, sxh, sxw, KH, KW, stride_h, stride_w, pad_h, pad_w, dil_h, dil_w,
                                 seed, p, scale, HAS_BIAS: tl.constexpr, BLOCK_M: tl.constexpr,
                                 BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # Pass 3: recompute the convolution tile (cheaper than writing and re-reading it), then
    # normalise, ReLU and dropout, and write the output once.
    acc, m, m_mask, n, oh, ow, oc, o_mask = _conv_tile(
        x_ptr, w_ptr, b_ptr, tl.program_id(0), tl.program_id(1), tl.program_id(2), M, OH, OW, H, W, CG, OCG,
        sxn, sxc, sxh, sxw, KH, KW, stride_h, stride_w, pad_h, pad_w, dil_h, dil_w,
        HAS_BIAS, BLOCK_M, BLOCK_N, BLOCK_K)
    mean = tl.load(mean_ptr + oc, mask=o_mask, other=0.0)
    rstd = tl.load(rstd_ptr + oc, mask=o_mask, other=0.0)
    v = tl.maximum((acc - mean[None, :]) * rstd[None, :], 0.0)
    y_off = (n * OC * OH * OW + oh * OW + ow)[:, None] + (oc.to(tl.int64) * OH * OW)[None, :]
    r = tl.rand(seed, y_off)  # counter = the element's flat index in the output
    v = tl.where(r >= p, v * scale, 0.0)
    tl.store(y_ptr + y_off, v, mask=m_mask[:, None] & o_mask[None, :])


def _pair(v):
    if isinstance(v, (tuple, list)):
        return (int(v[0]), int(v[0])) if len(v) == 1 else (int(v[0]), int(v[1]))
    return int(v), int(v)


def fused_dropout_relu_batch_norm_conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, p=0.5,
                                         training=True, inplace=False):
    # `inplace` concerns only the internal convolution result, which is never materialised here.
    if not training:
        raise RuntimeError("batch norm without running statistics needs training=True")
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    N, C, H, W = input.shape
    OC, CG, KH, KW = weight.shape
    sh, sw = _pair(stride)
    dh, dw = _pair(dilation)
    if isinstance(padding, str):
        if padding == "valid":
            ph, pw = 0, 0
            ph1, pw1 = 0, 0
        else:  # 'same' (stride 1): the odd extra zero goes after
            ph, pw = dh * (KH - 1) // 2, dw * (KW - 1) // 2
            ph1, pw1 = dh * (KH - 1) - ph, dw * (KW - 1) - pw
    else:
        ph, pw = _pair(padding)
        ph1, pw1 = ph, pw
    OH = (H + ph + ph1 - dh * (KH - 1) - 1) // sh + 1
    OW = (W + pw + pw1 - dw * (KW - 1) - 1) // sw + 1
    OCG = OC // groups
    M = N * OH * OW
    if M <= 1:
        raise ValueError("batch norm needs more than one value per channel")
    y = torch.empty((N, OC, OH, OW), dtype=input.dtype, device=input.device)
    w = weight.contiguous()  # (O, C/groups, kH, kW) row-major: the B tile is w[o * K + k]
    b = bias.contiguous() if bias is not None else w
    K = CG * KH * KW
    BLOCK_M = 128 if M >= 8192 else 64
    BLOCK_N = max(16, min(64, triton.next_power_of_2(OCG)))
    BLOCK_K = max(16, min(32, triton.next_power_of_2(K)))
    T = triton.cdiv(M, BLOCK_M)
    grid = (T, triton.cdiv(OCG, BLOCK_N), groups)
    geometry = (M, OC, OH, OW, H, W, CG, OCG, *input.stride(), KH, KW, sh, sw, ph, pw, dh, dw)
    pmean = torch.empty((T, OC), dtype=torch.float32, device=input.device)
    pm2 = torch.empty((T, OC), dtype=torch.float32, device=input.device)
    _conv_stats_kernel[grid](input, w, b, pmean, pm2, *geometry, HAS_BIAS=bias is not None,
                             BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K, num_warps=4)
    mean = torch.empty((OC,), dtype=torch.float32, device=input.device)
    rstd = torch.empty((OC,), dtype=torch.float32, device=input.device)
    BLOCK_C = 16
    _combine_stats_kernel[(triton.cdiv(OC, BLOCK_C),)](pmean, pm2, mean, rstd, M, OC, T, EPS,
                                                       BLOCK_M=BLOCK_M, BLOCK_T=64, BLOCK_C=BLOCK_C)
    seed = int.from_bytes(os.urandom(4), "little") & 0x7FFFFFFF
    scale = 0.0 if p >= 1.0 else 1.0 / (1.0 - p)
    _conv_bn_relu_dropout_kernel[grid](input, w, b, mean, rstd, y, *geometry, seed, float(p), scale,
                                       HAS_BIAS=bias is not None, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N,
                                       BLOCK_K=BLOCK_K, num_warps=4)
    return y
