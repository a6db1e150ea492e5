import os

import torch
import triton
import triton.language as tl


@triton.jit
def _window_start(pos, u, alpha, n_in, k, n_out):
    # PyTorch's interval rule: floor((i + u) * alpha) - floor(u * alpha), the last window pinned to
    # the end of the axis (all values are >= 0, so truncation is floor).
    s = ((pos.to(tl.float32) + u) * alpha).to(tl.int32) - (u * alpha).to(tl.int32)
    return tl.where(pos == n_out - 1, n_in - k, s)


@triton.jit(do_not_specialize=["seed"])
def _frac_max_pool_relu_kernel(x_ptr, out_ptr, idx_ptr, TOTAL, C, H, W, OH, OW, KH, KW,
                               sn, sc, sh, sw, alpha_h, alpha_w, seed,
                               WRITE_IDX: tl.constexpr, BLOCK: tl.constexpr):
    # One lane per output (plane p, row i, column j). Each plane's two samples come from a
    # counter-based generator keyed by (seed, 2p) and (seed, 2p + 1): every lane of a plane derives
    # the same samples without communication, and planes get independent ones. ReLU is applied to
    # each loaded element; the running max takes the first maximum in row-major window order.
    pid = tl.program_id(0)
    o = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = o < TOTAL
    j = (o % OW).to(tl.int32)
    t = o // OW
    i = (t % OH).to(tl.int32)
    p = t // OH
    n = p // C
    c = p % C
    p32 = p.to(tl.int32)
    u_h = tl.rand(seed, 2 * p32)
    u_w = tl.rand(seed, 2 * p32 + 1)
    h0 = _window_start(i, u_h, alpha_h, H, KH, OH)
    w0 = _window_start(j, u_w, alpha_w, W, KW, OW)
    base = n * sn + c * sc
    best = tl.full([BLOCK], -1.0, tl.float32)  # below any relu output: the first element always wins
    arg = tl.zeros([BLOCK], dtype=tl.int64)
    for dh in range(0, KH):
        h = h0 + dh
        for dw in range(0, KW):
            w = w0 + dw
            v = tl.load(x_ptr + base + h.to(tl.int64) * sh + w.to(tl.int64) * sw, mask=mask, other=0.0)
            v = tl.maximum(v, 0.0)
            take = v > best
            best = tl.where(take, v, best)
            arg = tl.where(take, h.to(tl.int64) * W + w, arg)
    tl.store(out_ptr + o, best, mask=mask)
    if WRITE_IDX:
        tl.store(idx_ptr + o, arg, mask=mask)


def _pair(v):
    return (v[0], v[1]) if isinstance(v, (tuple, list)) else (v, v)


def fused_fractional_max_pool2d_with_relu(input, kernel_size, output_size=None, output_ratio=None,
                                          return_indices=False):
    if input.dim() not in (3, 4):
        raise ValueError("input must be (N, C, H, W) or (C, H, W)")
    x = input if input.dim() == 4 else input.unsqueeze(0)
    N, C, H, W = (int(s) for s in x.shape)
    kh, kw = (int(k) for k in _pair(kernel_size))
    if output_size is not None:
        OH, OW = (int(s) for s in _pair(output_size))
    elif output_ratio is not None:
        rh, rw = _pair(output_ratio)
        OH, OW = int(H * rh), int(W * rw)
    else:
        raise ValueError("fractional_max_pool2d requires specifying either an output_size or an output_ratio")
    if OH + kh - 1 > H or OW + kw - 1 > W:
        raise ValueError("output size too large for the kernel and input size")
    shape = tuple(input.shape[:-2]) + (OH, OW)
    out = torch.empty(shape, dtype=torch.float32, device=input.device)
    idx = torch.empty(shape, dtype=torch.int64, device=input.device) if return_indices else out
    total = out.numel()
    if total:
        alpha_h = (H - kh) / (OH - 1) if OH > 1 else 0.0
        alpha_w = (W - kw) / (OW - 1) if OW > 1 else 0.0
        seed = int.from_bytes(os.urandom(4), "little") & 0x7FFFFFFF  # fresh samples on every call
        BLOCK = 1024
        _frac_max_pool_relu_kernel[(triton.cdiv(total, BLOCK),)](
            x, out, idx, total, C, H, W, OH, OW, kh, kw, *x.stride(), alpha_h, alpha_w, seed,
            WRITE_IDX=return_indices, BLOCK=BLOCK, num_warps=4)
    return (out, idx) if return_indices else out
