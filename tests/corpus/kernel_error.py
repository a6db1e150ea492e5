import torch
import triton
import triton.language as tl


@triton.jit
def _gelu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, 100)  # not a power of two: Triton rejects it
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, 0.5 * x * (1.0 + tl.erf(x * 0.7071067811865476)), mask=mask)


def gelu(input, approximate="none"):
    x = input.contiguous()
    y = torch.empty_like(x)
    _gelu_kernel[(triton.cdiv(x.numel(), 128),)](x, y, x.numel(), BLOCK=128)
    return y.view(input.shape)
