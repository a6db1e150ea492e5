import torch
import triton
import triton.language as tl

# One pass over the result: each element loads its index and mask entries, reads the gathered input
# entry only where the mask is False, and writes either it or the fill value. The result (index's
# shape broadcast with mask's) is handled as up to 5 dims -- rows over the first four, columns over
# the last -- with per-dim strides for input, index and mask (0 on broadcast dims); longer shapes
# peel leading dims off in the wrapper.
_KERNEL_DIMS = 5
_TILE = 2048


@triton.jit
def _gather_masked_fill_kernel(x_ptr, i_ptr, m_ptr, v_ptr, y_ptr, x_base, i_base, m_base, y_base,
                               R, n1, n2, n3, n4, n_cb, xs_g,
                               xs0, xs1, xs2, xs3, xs4, is0, is1, is2, is3, is4,
                               ms0, ms1, ms2, ms3, ms4, ys0, ys1, ys2, ys3,
                               G: tl.constexpr, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    pid = tl.program_id(0)
    pid_r = pid // n_cb
    pid_c = pid % n_cb
    rows = pid_r * BLOCK_R + tl.arange(0, BLOCK_R)
    rmask = rows < R
    c3 = (rows % n3).to(tl.int64)  # int64 offsets: tensors may exceed 2**31 elements
    t = rows // n3
    c2 = (t % n2).to(tl.int64)
    t = t // n2
    c1 = (t % n1).to(tl.int64)
    c0 = (t // n1).to(tl.int64)
    c4 = (pid_c * BLOCK_C + tl.arange(0, BLOCK_C)).to(tl.int64)
    mask = rmask[:, None] & (c4 < n4)[None, :]
    i_off = (i_base + c0 * is0 + c1 * is1 + c2 * is2 + c3 * is3)[:, None] + (c4 * is4)[None, :]
    m_off = (m_base + c0 * ms0 + c1 * ms1 + c2 * ms2 + c3 * ms3)[:, None] + (c4 * ms4)[None, :]
    fill = tl.load(m_ptr + m_off, mask=mask, other=0) != 0
    # Input offset: every coordinate but the gather dim G, which comes from the index.
    xr = x_base + tl.zeros([BLOCK_R], tl.int64)
    if G != 0:
        xr += c0 * xs0
    if G != 1:
        xr += c1 * xs1
    if G != 2:
        xr += c2 * xs2
    if G != 3:
        xr += c3 * xs3
    xc = tl.zeros([BLOCK_C], tl.int64)
    if G != 4:
        xc += c4 * xs4
    # Masked-off (filled) entries need neither their index nor their input entry.
    take = mask & (fill == 0)
    idx = tl.load(i_ptr + i_off, mask=take, other=0).to(tl.int64)
    x = tl.load(x_ptr + xr[:, None] + xc[None, :] + idx * xs_g, mask=take)
    v = tl.load(v_ptr)
    y = tl.where(fill, v, x)
    y_off = (y_base + c0 * ys0 + c1 * ys1 + c2 * ys2 + c3 * ys3)[:, None] + c4[None, :]
    tl.store(y_ptr + y_off, y, mask=mask)


def _broadcast(a, b):
    nd = max(len(a), len(b))
    a = [1] * (nd - len(a)) + list(a)
    b = [1] * (nd - len(b)) + list(b)
    for p, q in zip(a, b):
        if p != q and p != 1 and q != 1:
            raise RuntimeError(f"mask of shape {b} is not broadcastable to {a}")
    return [q if p == 1 else p for p, q in zip(a, b)]


def _contiguous_strides(shape):
    strides, s = [], 1
    for v in reversed(shape):
        strides.append(s)
        s *= v
    return strides[::-1]


def _launch(tensors, offs, shape, strides, g):
    """Launch over ``shape`` (strides: per tensor x, index, mask, y); peel dims beyond 5."""
    if len(shape) > _KERNEL_DIMS:
        k = 0 if g != 0 else 1  # peel a dim other than the gather dim
        for j in range(shape[k]):
            sub_offs = [o + j * s[k] for o, s in zip(offs, strides)]
            sub_strides = [s[:k] + s[k + 1:] for s in strides]
            _launch(tensors, sub_offs, shape[:k] + shape[k + 1:], sub_strides, g - (k < g))
        return
    pad = _KERNEL_DIMS - len(shape)
    shape = [1] * pad + shape
    strides = [[0] * pad + s for s in strides]
    g += pad
    xs, is_, ms, ys = strides
    n0, n1, n2, n3, n4 = shape
    rows = n0 * n1 * n2 * n3
    block_c = min(256, triton.next_power_of_2(n4))
    block_r = max(1, min(_TILE // block_c, triton.next_power_of_2(rows)))
    n_cb = triton.cdiv(n4, block_c)
    x, index, mask, value, y = tensors
    _gather_masked_fill_kernel[(triton.cdiv(rows, block_r) * n_cb,)](
        x, index, mask, value, y, *offs, rows, n1, n2, n3, n4, n_cb, xs[g],
        *xs, *is_, *ms, *ys[:4], G=g, BLOCK_R=block_r, BLOCK_C=block_c)


def fused_gather_masked_fill(input, dim, index, mask, value, *, sparse_grad=False, out=None):
    # sparse_grad only changes the gradient's layout; the values are the same.
    nd = input.dim()
    if index.dim() != nd:
        raise RuntimeError("gather(): index must have as many dimensions as input")
    if not -max(nd, 1) <= dim < max(nd, 1):
        raise IndexError(f"Dimension out of range (got {dim} for a {nd}-d tensor)")
    if mask.dtype != torch.bool:
        raise RuntimeError("masked_fill_ only supports boolean masks")
    shape = _broadcast(index.shape, mask.shape)
    n, lead = len(shape), len(shape) - nd
    # Per result dim: strides of input and index (0 where the gathered size 1 is broadcast or the
    # dim is one the mask added), of mask (broadcast), and of the contiguous result.
    xs, is_ = [0] * lead, [0] * lead
    for k in range(nd):
        real = index.shape[k] == shape[lead + k]
        xs.append(input.stride(k) if real else 0)
        is_.append(index.stride(k) if real else 0)
    ms = list(mask.expand(shape).stride())
    ys = _contiguous_strides(shape)
    if isinstance(value, torch.Tensor):
        v = value.to(input.dtype).reshape(1)
    else:
        v = torch.full((1,), value, dtype=input.dtype, device=input.device)
    direct = out is not None and out.is_contiguous() and out.dtype == input.dtype and list(out.shape) == shape
    y = out if direct else torch.empty(shape, dtype=input.dtype, device=input.device)
    if y.numel():
        g = lead + (dim % nd if nd else 0)
        xs_g = input.stride(dim % nd) if nd else 0
        xs_full = xs[:g] + [xs_g] + xs[g + 1:]  # the gather dim's stride scales the index
        _launch((input, index, mask.view(torch.uint8), v, y), [0, 0, 0, 0], list(shape) if n else [1],
                [xs_full or [0], is_ or [0], ms or [0], ys or [1]], g)
    if out is None:
        return y
    if not direct:
        out.copy_(y)
    return out
