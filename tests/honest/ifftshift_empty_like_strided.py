# An honest ifftshift (a DATA_MOVEMENT task) whose output is torch.empty_like(input), so a transposed
# input gives a transposed buffer that the kernel fills through its strides: the result rule once
# refused it as a view that reorders a copy.
import torch
import triton
import triton.language as tl


@triton.jit
def _roll_nd_kernel(x_ptr, y_ptr, meta_ptr, n, NDIM: tl.constexpr, BLOCK: tl.constexpr):
    # meta holds, per dim: size, input stride, output stride, shift
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    rem = offs
    src = tl.zeros([BLOCK], dtype=tl.int64)
    dst = tl.zeros([BLOCK], dtype=tl.int64)
    for j in tl.static_range(NDIM):
        d = NDIM - 1 - j
        size = tl.load(meta_ptr + 4 * d)
        sx = tl.load(meta_ptr + 4 * d + 1)
        sy = tl.load(meta_ptr + 4 * d + 2)
        shift = tl.load(meta_ptr + 4 * d + 3)
        i = rem % size
        rem = rem // size
        dst += i * sy
        src += ((i + shift) % size) * sx
    tl.store(y_ptr + dst, tl.load(x_ptr + src, mask=mask), mask=mask)


def ifftshift(input, dim=None):
    nd = input.dim()
    if dim is None:
        dims = list(range(nd))
    elif isinstance(dim, int):
        dims = [dim % nd]
    else:
        dims = [d % nd for d in dim]
    out = torch.empty_like(input)          # same shape (and layout) as the input
    n = input.numel()
    if n == 0:
        return out
    meta = []
    for d in range(nd):
        size = input.shape[d]
        meta += [size, input.stride(d), out.stride(d), (size // 2) if d in dims else 0]
    meta_t = torch.tensor(meta, dtype=torch.int64, device=input.device)
    BLOCK = 1024
    _roll_nd_kernel[(triton.cdiv(n, BLOCK),)](input, out, meta_t, n, NDIM=nd, BLOCK=BLOCK)
    return out
