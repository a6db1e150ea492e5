# An honest abs that sizes its out= buffer with out.resize_as_(input), torch's out= contract:
# once refused as compute.
import torch
import triton
import triton.language as tl


@triton.jit
def abs_nd_kernel(x_ptr, y_ptr, n, D1, D2, sx0, sx1, sx2, sy0, sy1, sy2, BLOCK: tl.constexpr):
    # up to 3-D strided input and output, indexed by a flat logical position
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    i2 = offs % D2
    i1 = (offs // D2) % D1
    i0 = offs // (D2 * D1)
    x = tl.load(x_ptr + i0 * sx0 + i1 * sx1 + i2 * sx2, mask=m)
    tl.store(y_ptr + i0 * sy0 + i1 * sy1 + i2 * sy2, tl.abs(x), mask=m)


def _as3d(t):
    while t.dim() < 3:
        t = t.unsqueeze(0)
    return t


def abs(input_tensor, out=None):
    if out is not None:
        out.resize_as_(input_tensor)   # torch's out= contract: out takes the result's shape
    result = out if out is not None else torch.empty(input_tensor.shape, dtype=input_tensor.dtype, device=input_tensor.device)
    n = input_tensor.numel()
    if n == 0:
        return result
    if input_tensor.dim() > 3:
        x = input_tensor.contiguous().view(-1)
        y = result if result.is_contiguous() else torch.empty_like(x)
        x3, y3 = _as3d(x), _as3d(y.view(-1))
    else:
        x3, y3 = _as3d(input_tensor), _as3d(result)
        y = result
    _, D1, D2 = x3.shape
    abs_nd_kernel[(triton.cdiv(n, 256),)](x3, y3, n, D1, D2, *x3.stride(), *y3.stride(), BLOCK=256)
    if y is not result:
        result.copy_(y.view(result.shape))
    return result
