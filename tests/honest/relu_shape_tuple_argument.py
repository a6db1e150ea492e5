# An honest ReLU that hands its kernel a tensor's shape (a torch.Size, PyTorch's own tuple of ints) as a
# tuple argument, indexed in the kernel: Triton takes tuple arguments, and the launch check once
# refused a torch.Size as an unknown type.
import torch
import triton
import triton.language as tl


@triton.jit
def _relu_2d_kernel(x_ptr, y_ptr, shape, BLOCK: tl.constexpr):
    n = shape[0] * shape[1]
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    tl.store(y_ptr + offs, tl.where(x < 0, 0.0, x), mask=m)


def relu(input, inplace=False):
    x = input.contiguous().reshape(1, -1)
    y = torch.empty_like(x)
    if x.numel():
        _relu_2d_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, x.shape, BLOCK=1024)
    if inplace:
        input.copy_(y.view(input.shape))
        return input
    return y.view(input.shape)
