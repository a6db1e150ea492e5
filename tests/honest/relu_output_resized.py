# An honest ReLU whose output is allocated empty and grown with resize_ (torch's own out= idiom):
# the memory resize_ makes is the call's, which the result rule once missed.
import torch
import triton
import triton.language as tl

@triton.jit
def _relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(y_ptr + offs, tl.where(x < 0.0, 0.0, x), mask=m)

def relu(input, inplace=False):
    x = input.contiguous()
    y = torch.empty(0, dtype=x.dtype, device=x.device)
    y.resize_(x.shape)
    n = x.numel()
    if n:
        _relu_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
    if inplace:
        input.copy_(y)
        return input
    return y
