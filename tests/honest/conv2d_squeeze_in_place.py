# An honest implicit-GEMM conv2d that drops the batch dimension of an unbatched result with the
# in-place view op squeeze_: once refused as compute.
import torch
import torch.nn.functional as F
import triton
import triton.language as tl


def _pair(v):
    return tuple(v) if isinstance(v, (tuple, list)) else (v, v)


def _prune(configs, named_args, **kwargs):
    # drop tiles much wider than the per-group output channel count
    cpg = named_args['COUT_G']
    kept = [c for c in configs if c.kwargs['BLOCK_N'] <= max(16, triton.next_power_of_2(cpg))]
    return kept or configs[:1]


@triton.autotune(
    configs=[
        triton.Config({'BLOCK_M': 32, 'BLOCK_N': 16, 'BLOCK_K': 16}, num_warps=4),
        triton.Config({'BLOCK_M': 64, 'BLOCK_N': 32, 'BLOCK_K': 32}, num_warps=4),
        triton.Config({'BLOCK_M': 16, 'BLOCK_N': 64, 'BLOCK_K': 16}, num_warps=2),
    ],
    key=['NPIX', 'COUT_G', 'KTOT'],
    prune_configs_by={'early_config_prune': _prune},
)
@triton.jit
def conv2d_igemm(x_ptr, w_ptr, b_ptr, y_ptr,
                 N, C, H, W, OH, OW, NPIX, COUT_G, CIN_G, KTOT,
                 sxn, sxc, sxh, sxw,
                 swo, swc, swh, sww,
                 syn, syc, syh, syw,
                 stride_h, stride_w, pad_h, pad_w, dil_h, dil_w,
                 KH: tl.constexpr, KW: tl.constexpr, HAS_BIAS: tl.constexpr,
                 BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    g = tl.program_id(2)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)   # output pixel (n, oh, ow)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)   # output channel in group
    m_mask = offs_m < NPIX
    n_mask = offs_n < COUT_G
    ow = offs_m % OW
    oh = (offs_m // OW) % OH
    nb = offs_m // (OW * OH)
    co = g * COUT_G + offs_n
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, KTOT, BLOCK_K):
        kk = k0 + tl.arange(0, BLOCK_K)
        k_mask = kk < KTOT
        s = kk % KW
        r = (kk // KW) % KH
        c = kk // (KW * KH)
        ih = oh[:, None] * stride_h - pad_h + r[None, :] * dil_h
        iw = ow[:, None] * stride_w - pad_w + s[None, :] * dil_w
        x_mask = m_mask[:, None] & k_mask[None, :] & (ih >= 0) & (ih < H) & (iw >= 0) & (iw < W)
        x_off = nb[:, None] * sxn + (g * CIN_G + c[None, :]) * sxc + ih * sxh + iw * sxw
        xv = tl.load(x_ptr + x_off, mask=x_mask, other=0.0)
        w_off = co[None, :] * swo + c[:, None] * swc + r[:, None] * swh + s[:, None] * sww
        wv = tl.load(w_ptr + w_off, mask=k_mask[:, None] & n_mask[None, :], other=0.0)
        acc += tl.dot(xv, wv, input_precision="ieee")
    if HAS_BIAS:
        bias = tl.load(b_ptr + co, mask=n_mask, other=0.0)
        acc += bias[None, :]
    y_off = nb[:, None] * syn + co[None, :] * syc + oh[:, None] * syh + ow[:, None] * syw
    tl.store(y_ptr + y_off, acc, mask=m_mask[:, None] & n_mask[None, :])


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    unbatched = input.dim() == 3
    x = input.unsqueeze(0) if unbatched else input
    N, C, H, W = x.shape
    Cout, CinG, KH, KW = weight.shape
    sh, sw = _pair(stride)
    dh, dw = _pair(dilation)
    if isinstance(padding, str):
        if padding == 'valid':
            ph, pw = 0, 0
        else:  # 'same': asymmetric padding done with an explicit zero pad of the input
            th, tw = dh * (KH - 1), dw * (KW - 1)
            x = F.pad(x, (tw // 2, tw - tw // 2, th // 2, th - th // 2))
            N, C, H, W = x.shape
            ph, pw = 0, 0
    else:
        ph, pw = _pair(padding)
    OH = (H + 2 * ph - dh * (KH - 1) - 1) // sh + 1
    OW = (W + 2 * pw - dw * (KW - 1) - 1) // sw + 1
    y = torch.empty((N, Cout, OH, OW), device=x.device, dtype=torch.float32)
    if y.numel() == 0:
        if unbatched:
            y.squeeze_(0)
        return y
    cout_g = Cout // groups
    npix = N * OH * OW
    ktot = CinG * KH * KW
    grid = lambda META: (triton.cdiv(npix, META['BLOCK_M']), triton.cdiv(cout_g, META['BLOCK_N']), groups)
    conv2d_igemm[grid](x, weight, bias.contiguous() if bias is not None else weight, y,
                       N, C, H, W, OH, OW, npix, cout_g, CinG, ktot,
                       *x.stride(), *weight.stride(), *y.stride(),
                       sh, sw, ph, pw, dh, dw,
                       KH=KH, KW=KW, HAS_BIAS=bias is not None)
    if unbatched:
        y.squeeze_(0)   # drop the batch dim we added, in place on our own buffer
    return y
