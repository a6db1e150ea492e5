import torch
import triton
import triton.language as tl

# Stream compaction with the arithmetic fused into its last pass: (1) count the selected elements
# of each block, (2) one program turns the counts into exclusive block offsets and the total,
# (3) every block computes gelu(x + alpha * other) for its selected elements and writes them at
# its offset plus their rank inside the block. Programs never read each other's results within a
# launch; the launches are the barriers.
_BLOCK = 4096
_SCAN_BLOCK = 1024


@triton.jit
def _count_kernel(m_ptr, counts_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)  # int64: n can exceed 2**31
    m = tl.load(m_ptr + offs, mask=offs < n, other=0) != 0
    tl.store(counts_ptr + pid, tl.sum(m.to(tl.int64), axis=0))


@triton.jit
def _scan_kernel(counts_ptr, offsets_ptr, n_blocks, SCAN_BLOCK: tl.constexpr):
    # Single program: exclusive prefix sum of the block counts; offsets[n_blocks] = total.
    carry = tl.zeros([], dtype=tl.int64)
    for start in range(0, n_blocks, SCAN_BLOCK):
        idx = start + tl.arange(0, SCAN_BLOCK)
        c = tl.load(counts_ptr + idx, mask=idx < n_blocks, other=0)
        incl = tl.cumsum(c, axis=0)
        tl.store(offsets_ptr + idx, carry + incl - c, mask=idx < n_blocks)
        carry += tl.sum(c, axis=0)
    tl.store(offsets_ptr + n_blocks, carry)


@triton.jit
def _compact_add_gelu_kernel(x_ptr, m_ptr, offsets_ptr, o_ptr, y_ptr, n, o_scalar, o_stride, alpha,
                             OTHER: tl.constexpr, USE_TANH: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    in_range = offs < n
    m = (tl.load(m_ptr + offs, mask=in_range, other=0) != 0) & in_range
    mi = m.to(tl.int32)
    rank = tl.cumsum(mi, axis=0) - mi  # exclusive: selected elements before this one in the block
    pos = tl.load(offsets_ptr + pid) + rank.to(tl.int64)  # position in the result
    x = tl.load(x_ptr + offs, mask=m, other=0.0).to(tl.float32)
    if OTHER == 0:  # a number
        o = o_scalar
    elif OTHER == 1:  # one element, broadcast
        o = tl.load(o_ptr).to(tl.float32)
    else:  # one value per selected element, matched by result position
        o = tl.load(o_ptr + pos * o_stride, mask=m, other=0.0).to(tl.float32)
    s = x + alpha * o
    if USE_TANH:
        inner = 0.7978845608028654 * (s + 0.044715 * s * s * s)
        # tanh(z) = 2 * sigmoid(2z) - 1 stays finite for large |z|
        y = 0.5 * s * (1.0 + (2.0 * tl.sigmoid(2.0 * inner) - 1.0))
    else:
        y = 0.5 * s * (1.0 + tl.math.erf(s * 0.7071067811865476))
    tl.store(y_ptr + pos, y.to(y_ptr.dtype.element_ty), mask=m)


def _broadcast_shape(a, b):
    nd = max(len(a), len(b))
    a = [1] * (nd - len(a)) + list(a)
    b = [1] * (nd - len(b)) + list(b)
    for p, q in zip(a, b):
        if p != q and p != 1 and q != 1:
            raise RuntimeError(f"shapes {tuple(a)} and {tuple(b)} are not broadcastable")
    return [q if p == 1 else p for p, q in zip(a, b)]


def fused_masked_select_add_gelu(input, mask, other, *, alpha=1, approximate="none", out=None):
    if mask.dtype != torch.bool:
        raise TypeError("masked_select: mask must be a bool tensor")
    if approximate not in ("none", "tanh"):
        raise ValueError(f"approximate must be 'none' or 'tanh', got {approximate!r}")
    shape = _broadcast_shape(input.shape, mask.shape)
    # Selection follows the row-major order of the broadcast shape: give both operands that layout
    # (a copy only when one is broadcast or non-contiguous).
    x = input.expand(shape).contiguous().view(-1)
    m = mask.view(torch.uint8).expand(shape).contiguous().view(-1)
    n = x.numel()
    n_blocks = max(1, triton.cdiv(n, _BLOCK))
    counts = torch.empty(n_blocks, dtype=torch.int64, device=x.device)
    offsets = torch.empty(n_blocks + 1, dtype=torch.int64, device=x.device)
    _count_kernel[(n_blocks,)](m, counts, n, BLOCK=_BLOCK)
    _scan_kernel[(1,)](counts, offsets, n_blocks, SCAN_BLOCK=_SCAN_BLOCK)
    total = int(offsets[n_blocks].item())  # the result's length depends on the data
    if isinstance(other, torch.Tensor):
        if other.numel() == 1:
            mode, o, o_stride = 1, other, 0
        elif other.dim() == 1 and other.shape[0] == total:
            mode, o, o_stride = 2, other, other.stride(0)
        else:
            raise RuntimeError(f"other of shape {list(other.shape)} does not broadcast to the {total} selected elements")
        o_scalar = 0.0
    else:
        mode, o, o_stride, o_scalar = 0, x, 0, float(other)
    if out is not None:
        if list(out.shape) != [total] or out.dtype != torch.float32:
            raise RuntimeError(f"out must be a float32 tensor of shape [{total}], got {out.dtype}{list(out.shape)}")
        y = out if out.is_contiguous() else torch.empty(total, dtype=torch.float32, device=x.device)
    else:
        y = torch.empty(total, dtype=torch.float32, device=x.device)
    if total:
        _compact_add_gelu_kernel[(n_blocks,)](x, m, offsets, o, y, n, o_scalar, o_stride, float(alpha),
                                              OTHER=mode, USE_TANH=approximate == "tanh", BLOCK=_BLOCK)
    if out is None:
        return y
    if y is not out:
        out.copy_(y)
    return out
