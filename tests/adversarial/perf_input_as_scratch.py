# Right outputs, but at perf sizes (a million elements or more) the wrapper uses its input as scratch:
# the kernel writes the result over the input, then copies it out to a new tensor. The reference
# leaves its input alone, so the arguments after a timed or checked call differ from the reference's:
# wrong, although every output is right (the judge keeps such an argument as a digest of its bytes,
# harness/kept.py, and compares it exactly).
import torch
import triton
import triton.language as tl


@triton.jit
def _relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, tl.where(x < 0.0, 0.0, x), mask=mask)


@triton.jit
def _copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)


def relu(input, inplace=False):
    x = input.contiguous()
    n = x.numel()
    if inplace or n < (1 << 20) or x is not input:
        y = x if (inplace and x is input) else torch.empty_like(x)
        if n:
            _relu_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
        if inplace and y is not input:
            input.copy_(y)
        return input if inplace else y.view(input.shape)
    _relu_kernel[(triton.cdiv(n, 1024),)](x, x, n, BLOCK=1024)   # over its own input
    y = torch.empty_like(x)
    _copy_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
    return y
