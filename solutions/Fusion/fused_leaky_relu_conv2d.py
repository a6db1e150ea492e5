import torch
import triton
import triton.language as tl


@triton.jit
def _conv2d_leaky_relu_kernel(x_ptr, w_ptr, b_ptr, y_ptr,
                        M, OC, OH, OW, H, W, CG, OCG,
                        sxn, sxc, sxh, sxw,
                        KH, KW, stride_h, stride_w, pad_h, pad_w, dil_h, dil_w, slope,
                        HAS_BIAS: tl.constexpr,
                        BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # Implicit GEMM, one group per program along axis 2:
    #   Y[m, o] = sum_k A[m, k] * B[k, o],  m = (n, oh, ow), o = output channel in the group,
    #   k = (c, r, s) over the group's input channels and the kernel window.
    # A (the im2col matrix) is gathered on the fly; Leaky ReLU is applied to the fp32 accumulator, so the
    # pre-activation tensor never goes to memory.
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
    acc = tl.where(acc > 0, acc, acc * slope)
    # y is contiguous (N, OC, OH, OW)
    y_off = (n * OC * OH * OW + oh * OW + ow)[:, None] + (oc.to(tl.int64) * OH * OW)[None, :]
    tl.store(y_ptr + y_off, acc.to(y_ptr.dtype.element_ty), mask=m_mask[:, None] & o_mask[None, :])


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


def fused_leaky_relu_conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1,
                            negative_slope=0.01, inplace=False):
    # `inplace` concerns only the conv's fresh intermediate, which is never materialised here.
    x = input
    groups = int(groups)
    N, C, H, W, OC, CG, KH, KW, sh, sw, ph0, pw0, dh, dw, OH, OW = _geometry(
        x, weight, stride, padding, dilation, groups)
    OCG = OC // groups
    y = torch.empty((N, OC, OH, OW), dtype=input.dtype, device=input.device)
    M = N * OH * OW
    if M and OC:
        w = weight.contiguous()  # B tile addressing assumes (O, C/groups, kH, kW) row-major
        b = bias.contiguous() if bias is not None else w  # dummy pointer when there is no bias
        K = CG * KH * KW
        BLOCK_M = 128 if M >= 4096 else 64
        BLOCK_N = max(16, min(128, triton.next_power_of_2(OCG)))
        BLOCK_K = max(16, min(32, triton.next_power_of_2(K)))
        grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(OCG, BLOCK_N), groups)
        _conv2d_leaky_relu_kernel[grid](x, w, b, y, M, OC, OH, OW, H, W, CG, OCG, *x.stride(),
                                        KH, KW, sh, sw, ph0, pw0, dh, dw, float(negative_slope),
                                        HAS_BIAS=bias is not None,
                                        BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K,
                                        num_warps=8 if BLOCK_M * BLOCK_N >= 128 * 128 else 4, num_stages=3)
    return y
