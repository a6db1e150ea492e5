import torch
import triton
import triton.language as tl


@triton.jit
def _conv2d_maxpool_relu_kernel(x_ptr, w_ptr, b_ptr, y_ptr,
                                M, OC, PH, PW, CH, CW, H, W, CG, OCG,
                                sxn, sxc, sxh, sxw,
                                KH, KW, stride_h, stride_w, pad_h, pad_w, dil_h, dil_w,
                                PKH, PKW, ps_h, ps_w, pp_h, pp_w, pd_h, pd_w,
                                HAS_BIAS: tl.constexpr,
                                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # One program: BLOCK_M pooled positions m = (n, py, px) x BLOCK_N output channels of one group.
    # For each pooling tap (u, v) the convolution output at (cy, cx) = (py*ps - pp + u*pd, ...) is an
    # implicit GEMM over k = (c, r, s) (im2col gathered on the fly, tl.dot in fp32); a running max
    # over the taps that fall inside the conv output keeps the pooled value, so the full-resolution
    # convolution never goes to memory. Bias is per channel, so it is added after the max; ReLU last.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    grp = tl.program_id(2)
    K = CG * KH * KW
    KHW = KH * KW

    m = pid_m.to(tl.int64) * BLOCK_M + tl.arange(0, BLOCK_M)  # int64: N*C*H*W may exceed 2**31
    m_mask = m < M
    px = m % PW
    t = m // PW
    py = t % PH
    n = t // PH
    x_base = n * sxn + (grp * CG).to(tl.int64) * sxc

    o = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    o_mask = o < OCG
    oc = grp * OCG + o  # absolute output channel
    w_row = oc.to(tl.int64) * K

    best = tl.full([BLOCK_M, BLOCK_N], float("-inf"), dtype=tl.float32)
    for u in range(PKH):
        for v in range(PKW):
            cy = py * ps_h - pp_h + u * pd_h
            cx = px * ps_w - pp_w + v * pd_w
            tap_ok = m_mask & (cy >= 0) & (cy < CH) & (cx >= 0) & (cx < CW)  # -inf padding never wins
            ih0 = cy * stride_h - pad_h
            iw0 = cx * stride_w - pad_w
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
                a_mask = (tap_ok[:, None] & k_mask[None, :] & (ih >= 0) & (ih < H) & (iw >= 0) & (iw < W))
                a = tl.load(x_ptr + x_base[:, None] + c[None, :].to(tl.int64) * sxc + ih * sxh + iw * sxw,
                            mask=a_mask, other=0.0)
                b = tl.load(w_ptr + w_row[None, :] + k[:, None], mask=k_mask[:, None] & o_mask[None, :],
                            other=0.0)
                # "ieee": true fp32 products, matching a float32 (non-TF32) reference.
                acc = tl.dot(a.to(tl.float32), b.to(tl.float32), acc, input_precision="ieee",
                             out_dtype=tl.float32)
            best = tl.where(tap_ok[:, None], tl.maximum(best, acc), best)

    if HAS_BIAS:
        bias = tl.load(b_ptr + oc, mask=o_mask, other=0.0).to(tl.float32)
        best += bias[None, :]
    best = tl.maximum(best, 0.0)
    # y is contiguous (N, OC, PH, PW)
    y_off = (n * OC * PH * PW + py * PW + px)[:, None] + (oc.to(tl.int64) * PH * PW)[None, :]
    tl.store(y_ptr + y_off, best.to(y_ptr.dtype.element_ty), mask=m_mask[:, None] & o_mask[None, :])


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


def _pool_size(size, k, s, p, d, ceil_mode):
    """max_pool2d's output length along one dimension."""
    if p > k // 2:
        raise ValueError("pool_padding must be at most half the pooling kernel size")
    span = size + 2 * p - d * (k - 1) - 1
    out = (span + (s - 1 if ceil_mode else 0)) // s + 1
    if ceil_mode and (out - 1) * s >= size + p:  # the last window would start in the right padding
        out -= 1
    if out <= 0:
        raise ValueError("max_pool2d output would be empty")
    return out


def fused_relu_max_pool2d_conv2d(input, weight, bias=None, conv_stride=1, conv_padding=0, conv_dilation=1,
                                 conv_groups=1, pool_kernel_size=2, pool_stride=None, pool_padding=0,
                                 pool_dilation=1, pool_ceil_mode=False, inplace=False):
    # `inplace` concerns only the fresh pooled intermediate, which is never materialised here.
    x = input
    groups = int(conv_groups)
    N, C, H, W, OC, CG, KH, KW, sh, sw, ph0, pw0, dh, dw, CH, CW = _geometry(
        x, weight, conv_stride, conv_padding, conv_dilation, groups)
    pkh, pkw = _pair(pool_kernel_size, "pool_kernel_size")
    psh, psw = _pair(pool_kernel_size if pool_stride is None else pool_stride, "pool_stride")
    pph, ppw = _pair(pool_padding, "pool_padding")
    pdh, pdw = _pair(pool_dilation, "pool_dilation")
    PH = _pool_size(CH, pkh, psh, pph, pdh, pool_ceil_mode)
    PW = _pool_size(CW, pkw, psw, ppw, pdw, pool_ceil_mode)
    OCG = OC // groups
    y = torch.empty((N, OC, PH, PW), dtype=input.dtype, device=input.device)
    M = N * PH * PW
    if M and OC:
        w = weight.contiguous()  # B tile addressing assumes (O, C/groups, kH, kW) row-major
        b = bias.contiguous() if bias is not None else w  # dummy pointer when there is no bias
        K = CG * KH * KW
        BLOCK_M = 128 if M >= 4096 else 64
        BLOCK_N = max(16, min(128, triton.next_power_of_2(OCG)))
        BLOCK_K = max(16, min(32, triton.next_power_of_2(K)))
        grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(OCG, BLOCK_N), groups)
        _conv2d_maxpool_relu_kernel[grid](x, w, b, y, M, OC, PH, PW, CH, CW, H, W, CG, OCG, *x.stride(),
                                          KH, KW, sh, sw, ph0, pw0, dh, dw,
                                          pkh, pkw, psh, psw, pph, ppw, pdh, pdw,
                                          HAS_BIAS=bias is not None,
                                          BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K,
                                          num_warps=8 if BLOCK_M * BLOCK_N >= 128 * 128 else 4, num_stages=3)
    return y
