# An honest DFT that reads its complex buffers as float32 with Tensor.view(torch.float32) (view_as_real
# by another name): once refused as bytes reinterpreted.
import math
import torch
import triton
import triton.language as tl

_MAXD = 8
_SCRATCH = {}   # (numel, device) -> a pair of reusable float32 complex workspaces


@triton.jit
def _load_pad_kernel(x_ptr, w_ptr, n, meta_ptr, NDIM: tl.constexpr, BLOCK: tl.constexpr):
    # w (contiguous, interleaved complex) <- x zero-padded / trimmed; meta: out size, in size, in stride per dim
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    rem = offs.to(tl.int64)
    src = tl.zeros([BLOCK], dtype=tl.int64)
    inside = m
    for j in tl.static_range(NDIM):
        d = NDIM - 1 - j
        osz = tl.load(meta_ptr + 3 * d)
        isz = tl.load(meta_ptr + 3 * d + 1)
        st = tl.load(meta_ptr + 3 * d + 2)
        i = rem % osz
        rem = rem // osz
        inside = inside & (i < isz)
        src += i * st
    v = tl.load(x_ptr + src, mask=inside, other=0.0)
    tl.store(w_ptr + 2 * offs, v, mask=m)
    tl.store(w_ptr + 2 * offs + 1, tl.zeros_like(v), mask=m)


@triton.jit
def _dft_axis_kernel(src_ptr, dst_ptr, total, L, inner, scale, BLOCK: tl.constexpr, BLOCK_J: tl.constexpr):
    # src/dst contiguous complex (outer, L, inner); dst[o, k, i] = sum_j src[o, j, i] * exp(-2 pi i j k / L)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < total
    i = offs % inner
    k = (offs // inner) % L
    o = offs // (inner * L)
    acc_re = tl.zeros([BLOCK], dtype=tl.float32)
    acc_im = tl.zeros([BLOCK], dtype=tl.float32)
    two_pi_over_l = 6.283185307179586 / L
    for j0 in range(0, L, BLOCK_J):
        j = j0 + tl.arange(0, BLOCK_J)
        jm = j < L
        idx = (o[:, None] * L + j[None, :]) * inner + i[:, None]
        mm = m[:, None] & jm[None, :]
        re = tl.load(src_ptr + 2 * idx, mask=mm, other=0.0)
        im = tl.load(src_ptr + 2 * idx + 1, mask=mm, other=0.0)
        jk = (j[None, :] * k[:, None]) % L          # reduce before forming the angle
        ang = jk.to(tl.float32) * two_pi_over_l
        c = tl.cos(ang)
        s = tl.sin(ang)
        acc_re += tl.sum(re * c + im * s, axis=1)
        acc_im += tl.sum(im * c - re * s, axis=1)
    tl.store(dst_ptr + 2 * offs, acc_re * scale, mask=m)
    tl.store(dst_ptr + 2 * offs + 1, acc_im * scale, mask=m)


def _scratch(numel, device):
    key = (numel, str(device))
    bufs = _SCRATCH.get(key)
    if bufs is None:
        bufs = (torch.empty(numel * 2, dtype=torch.float32, device=device),
                torch.empty(numel * 2, dtype=torch.float32, device=device))
        _SCRATCH[key] = bufs
    return bufs


def fftn(input, s=None, dim=None, norm=None, out=None):
    x = input
    nd = x.dim()
    if dim is None:
        dims = list(range(nd)) if s is None else list(range(nd - len(s), nd))
    elif isinstance(dim, int):
        dims = [dim]
    else:
        dims = list(dim)
    dims = [d % nd for d in dims]
    sizes = list(x.shape)
    if s is not None:
        for d, n_ in zip(dims, s):
            if n_ != -1:
                sizes[d] = n_
    N = 1
    for d in dims:
        N *= sizes[d]
    scale_total = {None: 1.0, 'backward': 1.0, 'forward': 1.0 / N, 'ortho': 1.0 / math.sqrt(N)}[norm]
    numel = 1
    for sz in sizes:
        numel *= sz
    res_c = torch.empty(sizes, dtype=torch.complex64, device=x.device)
    result = res_c.view(torch.float32)          # interleaved (re, im) pairs, same memory
    if numel == 0:
        pass
    else:
        meta = []
        for d in range(nd):
            meta += [sizes[d], x.shape[d], x.stride(d)]
        meta_t = torch.tensor(meta, dtype=torch.int64, device=x.device)
        w0, w1 = _scratch(numel, x.device)
        BLOCK = 128
        _load_pad_kernel[(triton.cdiv(numel, BLOCK),)](x, w0, numel, meta_t, NDIM=nd, BLOCK=BLOCK)
        src = w0
        for t, d in enumerate(dims):
            L = sizes[d]
            inner = 1
            for sz in sizes[d + 1:]:
                inner *= sz
            last = t == len(dims) - 1
            dst = result.view(-1) if last else (w1 if src is w0 else w0)
            _dft_axis_kernel[(triton.cdiv(numel, 64),)](src, dst, numel, L, inner, scale_total if last else 1.0,
                                                        BLOCK=64, BLOCK_J=32)
            src = dst
    if out is not None:
        out.copy_(res_c)
        return out
    return res_c
