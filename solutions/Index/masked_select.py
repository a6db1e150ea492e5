import torch
import triton
import triton.language as tl

# Stream compaction in three passes: (1) count the selected elements of each block, (2) one
# program turns the block counts into exclusive block offsets and the total, (3) every block
# writes its selected elements at its offset plus their rank inside the block.
_BLOCK = 4096
_SCAN_BLOCK = 1024


@triton.jit
def _count_kernel(m_ptr, counts_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)  # int64: n can exceed 2**31
    in_range = offs < n
    m = tl.load(m_ptr + offs, mask=in_range, other=0) != 0
    tl.store(counts_ptr + pid, tl.sum(m.to(tl.int64), axis=0))


@triton.jit
def _scan_kernel(counts_ptr, offsets_ptr, n_blocks, SCAN_BLOCK: tl.constexpr):
    # Single program: exclusive prefix sum over all block counts, carried across chunks;
    # offsets[n_blocks] receives the total.
    carry = tl.zeros([], dtype=tl.int64)
    for start in range(0, n_blocks, SCAN_BLOCK):
        idx = start + tl.arange(0, SCAN_BLOCK)
        c = tl.load(counts_ptr + idx, mask=idx < n_blocks, other=0)
        incl = tl.cumsum(c, axis=0)
        tl.store(offsets_ptr + idx, carry + incl - c, mask=idx < n_blocks)
        carry += tl.sum(c, axis=0)
    tl.store(offsets_ptr + n_blocks, carry)


@triton.jit
def _compact_kernel(x_ptr, m_ptr, offsets_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    in_range = offs < n
    m = tl.load(m_ptr + offs, mask=in_range, other=0) != 0
    mi = m.to(tl.int32)
    rank = tl.cumsum(mi, axis=0) - mi  # exclusive: number of selected elements before this one
    base = tl.load(offsets_ptr + pid)
    x = tl.load(x_ptr + offs, mask=in_range & m)
    tl.store(out_ptr + base + rank.to(tl.int64), x, mask=in_range & m)


def _broadcast_shape(a, b):
    nd = max(len(a), len(b))
    a = [1] * (nd - len(a)) + list(a)
    b = [1] * (nd - len(b)) + list(b)
    out = []
    for p, q in zip(a, b):
        if p != q and p != 1 and q != 1:
            raise ValueError(f"shapes {tuple(a)} and {tuple(b)} are not broadcastable")
        out.append(q if p == 1 else p)
    return out


def masked_select(input: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    if mask.dtype != torch.bool:
        raise TypeError("masked_select: mask must be a bool tensor")
    shape = _broadcast_shape(input.shape, mask.shape)
    # The output follows the row-major order of the broadcast shape: give both operands that
    # layout (a copy only when they are broadcast or non-contiguous).
    x = input.expand(shape).contiguous().view(-1)
    m = mask.view(torch.uint8).expand(shape).contiguous().view(-1)
    n = x.numel()
    if n == 0:
        return torch.empty(0, dtype=input.dtype, device=input.device)
    n_blocks = triton.cdiv(n, _BLOCK)
    counts = torch.empty(n_blocks, dtype=torch.int64, device=x.device)
    offsets = torch.empty(n_blocks + 1, dtype=torch.int64, device=x.device)
    _count_kernel[(n_blocks,)](m, counts, n, BLOCK=_BLOCK)
    _scan_kernel[(1,)](counts, offsets, n_blocks, SCAN_BLOCK=_SCAN_BLOCK)
    total = int(offsets[n_blocks].item())  # the output size depends on the data: one scalar read-back
    out = torch.empty(total, dtype=input.dtype, device=input.device)
    if total:
        _compact_kernel[(n_blocks,)](x, m, offsets, out, n, BLOCK=_BLOCK)
    return out
