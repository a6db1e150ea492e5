import torch
import triton
import triton.language as tl


@triton.jit
def _cos_pool_kernel(a_ptr, b_ptr, out_ptr, TOTAL, C, H, W, OH, OW, KH, KW, SH, SW, PH, PW,
                     san, sac, sah, saw, sbn, sbc, sbh, sbw, eps, inv_area,
                     BLOCK_O: tl.constexpr, BLOCK_C: tl.constexpr):
    # Program = BLOCK_O pooled outputs (n, i, j). For each window offset (dh, dw) the cosine at the
    # map position under it is formed from its C-channel dot product and norms, and added to the
    # window sum: the cosine map never reaches memory. With the default stride = kernel size every
    # position is visited once; overlapping windows recompute their shared cosines instead of
    # storing the map (a k/s-fold re-read that stays in cache).
    pid = tl.program_id(0)
    o = pid.to(tl.int64) * BLOCK_O + tl.arange(0, BLOCK_O)
    omask = o < TOTAL
    j = o % OW
    t = o // OW
    i = t % OH
    n = t // OH
    cc = tl.arange(0, BLOCK_C)
    acc = tl.zeros([BLOCK_O], dtype=tl.float32)
    for dh in range(0, KH):
        h = i * SH - PH + dh
        for dw in range(0, KW):
            w = j * SW - PW + dw
            valid = omask & (h >= 0) & (h < H) & (w >= 0) & (w < W)  # padding contributes zeros
            a_pos = n * san + h * sah + w * saw
            b_pos = n * sbn + h * sbh + w * sbw
            dot = tl.zeros([BLOCK_O], dtype=tl.float32)
            na = tl.zeros([BLOCK_O], dtype=tl.float32)
            nb = tl.zeros([BLOCK_O], dtype=tl.float32)
            for c0 in range(0, C, BLOCK_C):
                c = (c0 + cc).to(tl.int64)
                m = valid[:, None] & (c < C)[None, :]
                a = tl.load(a_ptr + a_pos[:, None] + c[None, :] * sac, mask=m, other=0.0)
                b = tl.load(b_ptr + b_pos[:, None] + c[None, :] * sbc, mask=m, other=0.0)
                dot += tl.sum(a * b, axis=1)
                na += tl.sum(a * a, axis=1)
                nb += tl.sum(b * b, axis=1)
            cos = dot / (tl.maximum(tl.sqrt(na), eps) * tl.maximum(tl.sqrt(nb), eps))
            acc += tl.where(valid, cos, 0.0)
    # count_include_pad with ceil_mode off: every window's divisor is k_h * k_w
    tl.store(out_ptr + o, acc * inv_area, mask=omask)


def _pair(v):
    return (int(v[0]), int(v[1])) if isinstance(v, (tuple, list)) else (int(v), int(v))


def fused_avg_pool2d_cosine_similarity(x1, x2, kernel_size, stride=None, padding=0, eps=1e-08):
    if x1.dim() != 4 or x1.shape != x2.shape:
        raise ValueError("x1 and x2 must be (N, C, H, W) tensors of one shape")
    kh, kw = _pair(kernel_size)
    sh, sw = _pair(kernel_size if stride is None or stride == [] else stride)
    ph, pw = _pair(padding)
    N, C, H, W = (int(s) for s in x1.shape)
    OH = (H + 2 * ph - kh) // sh + 1
    OW = (W + 2 * pw - kw) // sw + 1
    out = torch.empty((N, 1, OH, OW), dtype=torch.float32, device=x1.device)
    total = out.numel()
    if total:
        BLOCK_C = min(64, triton.next_power_of_2(max(C, 1)))
        BLOCK_O = min(256, max(16, 4096 // BLOCK_C))  # [outputs, channels] tiles of <= 4096
        _cos_pool_kernel[(triton.cdiv(total, BLOCK_O),)](
            x1, x2, out, total, C, H, W, OH, OW, kh, kw, sh, sw, ph, pw,
            *x1.stride(), *x2.stride(), float(eps), 1.0 / (kh * kw),
            BLOCK_O=BLOCK_O, BLOCK_C=BLOCK_C, num_warps=8)
    return out
