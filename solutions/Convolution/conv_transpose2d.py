import torch
import triton
import triton.language as tl


@triton.jit
def _conv_transpose2d_kernel(x_ptr, w_ptr, b_ptr, y_ptr,
                             N, H, W, OC, OH, OW, JH, JW, CG, OCG,
                             sxn, sxc, sxh, sxw,
                             KH: tl.constexpr, KW: tl.constexpr,
                             stride_h, stride_w, pad_h, pad_w, dil_h, dil_w,
                             HAS_BIAS: tl.constexpr,
                             BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # Gather form of the transposed convolution, as an implicit GEMM per output *phase*:
    #   out[n, o, oh, ow] = sum_{c, r, s} x[n, c, ih, iw] * w[c, o, r, s]
    #   with oh = ih * stride_h - pad_h + r * dil_h (same for w).
    # For a fixed phase (oh % stride_h, ow % stride_w) the set of taps (r, s) that hit integer input
    # positions is the same for every output, so a program owns outputs of one phase and loops only
    # over its valid taps: no multiply is wasted on the (stride_h * stride_w - 1) / (stride_h *
    # stride_w) share of taps that fall between input pixels. Per valid tap the work is a plain
    # [BLOCK_M x C_in/groups] @ [C_in/groups x BLOCK_N] GEMM, done with tl.dot in fp32.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    pid_z = tl.program_id(2)
    n_phase = stride_h * stride_w
    grp = pid_z // n_phase
    phase = pid_z % n_phase
    ph_h = phase // stride_w
    ph_w = phase % stride_w

    m = pid_m.to(tl.int64) * BLOCK_M + tl.arange(0, BLOCK_M)  # int64 for large tensors
    jw = m % JW
    t = m // JW
    jh = t % JH
    n = t // JH
    oh = ph_h + jh * stride_h
    ow = ph_w + jw * stride_w
    m_mask = (n < N) & (oh < OH) & (ow < OW)
    x_base = n * sxn + (grp * CG).to(tl.int64) * sxc

    o = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    o_mask = o < OCG
    oc = grp * OCG + o

    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for r in tl.static_range(KH):
        off_h = ph_h + pad_h - r * dil_h  # = stride_h * (ih - jh) when the tap is valid
        if off_h % stride_h == 0:
            ih = off_h // stride_h + jh  # exact division (also for negative off_h)
            ok_h = (ih >= 0) & (ih < H)
            for s in tl.static_range(KW):
                off_w = ph_w + pad_w - s * dil_w
                if off_w % stride_w == 0:
                    iw = off_w // stride_w + jw
                    ok = m_mask & ok_h & (iw >= 0) & (iw < W)
                    a_ptrs = x_ptr + x_base + ih * sxh + iw * sxw
                    for c0 in range(0, CG, BLOCK_K):
                        c = c0 + tl.arange(0, BLOCK_K)
                        c_mask = c < CG
                        a = tl.load(a_ptrs[:, None] + c[None, :].to(tl.int64) * sxc,
                                    mask=ok[:, None] & c_mask[None, :], other=0.0)
                        # weight (C_in, OCG, KH, KW) contiguous
                        w_off = ((grp * CG + c).to(tl.int64) * OCG)[:, None] * (KH * KW) \
                            + (o * (KH * KW) + r * KW + s)[None, :]
                        b = tl.load(w_ptr + w_off, mask=c_mask[:, None] & o_mask[None, :], other=0.0)
                        # "ieee": true fp32 products, matching a float32 (non-TF32) reference.
                        acc = tl.dot(a.to(tl.float32), b.to(tl.float32), acc, input_precision="ieee")

    if HAS_BIAS:
        bias = tl.load(b_ptr + oc, mask=o_mask, other=0.0).to(tl.float32)
        acc += bias[None, :]  # also for outputs that no tap reaches
    y_off = (n * OC * OH * OW + oh * OW + ow)[:, None] + (oc.to(tl.int64) * OH * OW)[None, :]
    tl.store(y_ptr + y_off, acc.to(y_ptr.dtype.element_ty), mask=m_mask[:, None] & o_mask[None, :])


def _pair(v, name):
    if isinstance(v, (tuple, list)):
        if len(v) == 1:
            return int(v[0]), int(v[0])
        if len(v) != 2:
            raise ValueError(f"conv_transpose2d: {name} must be an int or a pair, got {v!r}")
        return int(v[0]), int(v[1])
    return int(v), int(v)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    unbatched = input.dim() == 3
    x = input.unsqueeze(0) if unbatched else input
    if x.dim() != 4 or weight.dim() != 4:
        raise ValueError("conv_transpose2d expects input (N, C, H, W) or (C, H, W) and weight (C, O/groups, kH, kW)")
    N, C, H, W = (int(s) for s in x.shape)
    CW, OCG, KH, KW = (int(s) for s in weight.shape)
    groups = int(groups)
    if groups <= 0 or CW != C or C % groups:
        raise ValueError(f"conv_transpose2d: input channels {C} do not fit weight {tuple(weight.shape)} "
                         f"with groups={groups}")
    sh, sw = _pair(stride, "stride")
    ph, pw = _pair(padding, "padding")
    oph, opw = _pair(output_padding, "output_padding")
    dh, dw = _pair(dilation, "dilation")
    if oph >= max(sh, dh) or opw >= max(sw, dw):
        raise ValueError("conv_transpose2d: output padding must be smaller than either stride or dilation")
    CG = C // groups
    OC = OCG * groups
    OH = (H - 1) * sh - 2 * ph + dh * (KH - 1) + oph + 1
    OW = (W - 1) * sw - 2 * pw + dw * (KW - 1) + opw + 1
    if OH <= 0 or OW <= 0:
        raise ValueError("conv_transpose2d: output would be empty")

    y = torch.empty((N, OC, OH, OW), dtype=input.dtype, device=input.device)
    if y.numel() == 0:
        return y.squeeze(0) if unbatched else y
    if CG == 0:
        y.zero_() if bias is None else y.copy_(bias.view(1, OC, 1, 1).expand_as(y))
        return y.squeeze(0) if unbatched else y
    w = weight.contiguous()  # B tile addressing assumes (C, O/groups, kH, kW) row-major
    b = bias.contiguous() if bias is not None else w  # dummy pointer when there is no bias
    JH, JW = triton.cdiv(OH, sh), triton.cdiv(OW, sw)  # outputs per phase (upper bound)
    M = N * JH * JW
    BLOCK_M = 128 if M >= 4096 else 64
    BLOCK_N = max(16, min(128, triton.next_power_of_2(OCG)))
    BLOCK_K = max(16, min(32, triton.next_power_of_2(CG)))
    grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(OCG, BLOCK_N), groups * sh * sw)
    _conv_transpose2d_kernel[grid](x, w, b, y, N, H, W, OC, OH, OW, JH, JW, CG, OCG, *x.stride(),
                                   KH, KW, sh, sw, ph, pw, dh, dw,
                                   HAS_BIAS=bias is not None,
                                   BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K,
                                   num_warps=8 if BLOCK_M * BLOCK_N >= 128 * 128 else 4, num_stages=3)
    return y.squeeze(0) if unbatched else y
