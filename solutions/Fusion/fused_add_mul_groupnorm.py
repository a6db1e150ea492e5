import torch
import triton
import triton.language as tl

_BLOCK = 2048            # elements per tile
_TARGET_PROGRAMS = 1056  # ~8 programs per SM: a group's reduction is split until the grid is this big
_MAX_SPLIT = 256


@triton.jit
def _partial_stats_kernel(a_ptr, b_ptr, pcnt_ptr, pmean_ptr, pm2_ptr, L, T, SPLIT, BLOCK: tl.constexpr):
    # Group gi occupies elements [gi*L, (gi+1)*L) of the contiguous (N, C, S) layout. Program
    # (gi, k) takes tiles k, k + SPLIT, ... of it, forms m = (a + b) * b in registers, and merges
    # each tile's exact two-pass (count, mean, M2) into its running triple with Chan's formula.
    gi = tl.program_id(0)
    k = tl.program_id(1)
    base = gi.to(tl.int64) * L
    cnt = tl.full([], 0.0, tl.float32)
    mean = tl.full([], 0.0, tl.float32)
    m2 = tl.full([], 0.0, tl.float32)
    for t in range(k, T, SPLIT):
        offs = t * BLOCK + tl.arange(0, BLOCK)
        mask = offs < L
        a = tl.load(a_ptr + base + offs, mask=mask, other=0.0)
        b = tl.load(b_ptr + base + offs, mask=mask, other=0.0)
        m = (a + b) * b
        n_t = tl.sum(mask.to(tl.float32), axis=0)
        mean_t = tl.sum(m, axis=0) / n_t
        d = tl.where(mask, m - mean_t, 0.0)
        m2_t = tl.sum(d * d, axis=0)
        tot = cnt + n_t
        delta = mean_t - mean
        mean = mean + delta * (n_t / tot)
        m2 = m2 + m2_t + delta * delta * (cnt * (n_t / tot))
        cnt = tot
    idx = gi * SPLIT + k
    tl.store(pcnt_ptr + idx, cnt)
    tl.store(pmean_ptr + idx, mean)
    tl.store(pm2_ptr + idx, m2)


@triton.jit
def _apply_kernel(a_ptr, b_ptr, w_ptr, b_aff_ptr, out_ptr, pcnt_ptr, pmean_ptr, pm2_ptr,
                  L, S, CG, G, T, SPLIT, eps, BLOCK: tl.constexpr, BLOCK_P: tl.constexpr):
    # Every program of group gi merges the group's SPLIT partial statistics (a few hundred floats,
    # cheaper than another launch), then normalizes its share of the tiles, recomputing m from
    # the inputs rather than storing it.
    gi = tl.program_id(0)
    k = tl.program_id(1)
    p = tl.arange(0, BLOCK_P)
    pm = p < SPLIT
    n_i = tl.load(pcnt_ptr + gi * SPLIT + p, mask=pm, other=0.0)
    mean_i = tl.load(pmean_ptr + gi * SPLIT + p, mask=pm, other=0.0)
    m2_i = tl.load(pm2_ptr + gi * SPLIT + p, mask=pm, other=0.0)
    n = tl.sum(n_i, axis=0)
    mean = tl.sum(n_i * mean_i, axis=0) / n
    dm = tl.where(pm, mean_i - mean, 0.0)
    var = tl.sum(m2_i + n_i * dm * dm, axis=0) / n  # biased, as group norm uses
    rstd = 1.0 / tl.sqrt(var + eps)
    base = gi.to(tl.int64) * L
    c0 = (gi % G) * CG
    for t in range(k, T, SPLIT):
        offs = t * BLOCK + tl.arange(0, BLOCK)
        mask = offs < L
        a = tl.load(a_ptr + base + offs, mask=mask, other=0.0)
        b = tl.load(b_ptr + base + offs, mask=mask, other=0.0)
        c = c0 + (offs // S).to(tl.int32)
        w = tl.load(w_ptr + c, mask=mask, other=1.0)
        sh = tl.load(b_aff_ptr + c, mask=mask, other=0.0)
        m = (a + b) * b
        tl.store(out_ptr + base + offs, (m - mean) * rstd * w + sh, mask=mask)


def fused_add_mul_groupnorm(input1, input2, weight, bias, num_groups, eps=1e-05, *, out=None):
    shape = tuple(input1.shape)
    if tuple(torch.broadcast_shapes(input1.shape, input2.shape)) != shape:
        raise ValueError("input2 must broadcast to input1's shape")
    N, C = shape[0], shape[1]
    if C % num_groups:
        raise ValueError("num_groups must divide the number of channels")
    a = input1.contiguous()
    b = input2.expand(shape).contiguous()  # materializes a broadcast input2 (views are read flat)
    w = weight.contiguous()
    bb = bias.contiguous()
    direct = out is not None and out.is_contiguous()
    res = out if direct else torch.empty(shape, dtype=torch.float32, device=input1.device)
    if input1.numel():
        S = input1.numel() // (N * C)
        CG = C // num_groups
        L = CG * S
        groups = N * num_groups
        T = triton.cdiv(L, _BLOCK)
        split = max(1, min(T, triton.cdiv(_TARGET_PROGRAMS, groups), _MAX_SPLIT))
        pcnt = torch.empty(groups * split, dtype=torch.float32, device=input1.device)
        pmean = torch.empty_like(pcnt)
        pm2 = torch.empty_like(pcnt)
        _partial_stats_kernel[(groups, split)](a, b, pcnt, pmean, pm2, L, T, split, BLOCK=_BLOCK, num_warps=8)
        _apply_kernel[(groups, split)](a, b, w, bb, res, pcnt, pmean, pm2, L, S, CG, num_groups, T, split,
                                       float(eps), BLOCK=_BLOCK, BLOCK_P=triton.next_power_of_2(split),
                                       num_warps=8)
    if out is not None and not direct:
        out.copy_(res)
    return out if out is not None else res
