import math

import torch
import triton
import triton.language as tl


@triton.jit
def _pow_abs(v, p, MODE: tl.constexpr):
    # |v|^p: MODE 1 -> p = 1, 2 -> p = 2, 3 -> p = inf (|v|, max-reduced), 0 -> 2^(p log2|v|)
    a = tl.abs(v)
    if MODE == 2:
        return a * a
    elif MODE == 0:
        return tl.exp2(p * tl.log2(a))
    else:
        return a


@triton.jit
def _root(s, p, MODE: tl.constexpr):
    if MODE == 2:
        return tl.sqrt(s)
    elif MODE == 0:
        return tl.where(s > 0.0, tl.exp2(tl.log2(s) / p), 0.0)
    else:
        return s


@triton.jit
def _pool_dist_kernel(a_ptr, b_ptr, out_ptr, ROWS, C, H, W, OH, OW, KH, KW,
                      san, sac, sah, saw, sbn, sbc, sbh, sbw, p, eps,
                      MODE: tl.constexpr, BLOCK_O: tl.constexpr, BLOCK_W: tl.constexpr):
    # Program = BLOCK_O output rows (n, c, i) x all S_w pooled columns (BLOCK_W at a time). Each
    # pooled pair is averaged from its window (masked to the window's own bounds inside the largest
    # KH x KW one), differenced, raised to p and added along the row: the pooled maps never reach
    # memory.
    pid = tl.program_id(0)
    o = pid.to(tl.int64) * BLOCK_O + tl.arange(0, BLOCK_O)
    omask = o < ROWS
    i = o % OH
    t = o // OH
    c = t % C
    n = t // C
    hs = (i * H) // OH
    he = ((i + 1) * H + OH - 1) // OH
    a_base = n * san + c * sac
    b_base = n * sbn + c * sbc
    acc = tl.zeros([BLOCK_O], dtype=tl.float32)
    for j0 in range(0, OW, BLOCK_W):
        j = j0 + tl.arange(0, BLOCK_W)
        jmask = j < OW
        ws = (j * W) // OW
        we = ((j + 1) * W + OW - 1) // OW
        sa = tl.zeros([BLOCK_O, BLOCK_W], dtype=tl.float32)
        sb = tl.zeros([BLOCK_O, BLOCK_W], dtype=tl.float32)
        for dh in range(0, KH):
            h = hs + dh
            hmask = omask & (h < he)
            for dw in range(0, KW):
                w = ws + dw
                m = hmask[:, None] & (jmask & (w < we))[None, :]
                sa += tl.load(a_ptr + (a_base + h * sah)[:, None] + (w * saw)[None, :], mask=m, other=0.0)
                sb += tl.load(b_ptr + (b_base + h * sbh)[:, None] + (w * sbw)[None, :], mask=m, other=0.0)
        count = ((he - hs)[:, None] * (we - ws)[None, :]).to(tl.float32)
        diff = (sa - sb) / count + eps
        term = tl.where(omask[:, None] & jmask[None, :], _pow_abs(diff, p, MODE), 0.0)
        if MODE == 3:
            acc = tl.maximum(acc, tl.max(term, axis=1))
        else:
            acc += tl.sum(term, axis=1)
    tl.store(out_ptr + o, _root(acc, p, MODE), mask=omask)


def _max_window(n_in: int, n_out: int) -> int:
    # largest ceil((i+1)*n_in/n_out) - floor(i*n_in/n_out): at most ceil(n_in/n_out) + 1
    return min(n_in, -(-n_in // n_out) + 1)


def fused_pairwise_distance_adaptive_avg_pool2d(x1, x2, output_size, p=2.0, eps=1e-06, keepdim=False):
    if x1.dim() not in (3, 4) or x1.shape != x2.shape:
        raise ValueError("x1 and x2 must be (N, C, H, W) or (C, H, W) tensors of one shape")
    H, W = int(x1.shape[-2]), int(x1.shape[-1])
    oh, ow = output_size if isinstance(output_size, (tuple, list)) else (output_size, output_size)
    OH = H if oh is None else int(oh)
    OW = W if ow is None else int(ow)
    a = x1 if x1.dim() == 4 else x1.unsqueeze(0)
    b = x2 if x2.dim() == 4 else x2.unsqueeze(0)
    N, C = int(a.shape[0]), int(a.shape[1])
    p = float(p)
    mode = 3 if math.isinf(p) else 1 if p == 1.0 else 2 if p == 2.0 else 0
    lead = tuple(x1.shape[:-2]) + (OH,)
    out = torch.empty(lead + ((1,) if keepdim else ()), dtype=torch.float32, device=x1.device)
    rows = N * C * OH
    if rows and OW:
        BLOCK_W = min(64, triton.next_power_of_2(OW))
        BLOCK_O = max(1, 1024 // BLOCK_W)
        _pool_dist_kernel[(triton.cdiv(rows, BLOCK_O),)](
            a, b, out, rows, C, H, W, OH, OW, _max_window(H, OH), _max_window(W, OW),
            *a.stride(), *b.stride(), p if mode == 0 else 1.0, float(eps),
            MODE=mode, BLOCK_O=BLOCK_O, BLOCK_W=BLOCK_W, num_warps=4)
    return out
