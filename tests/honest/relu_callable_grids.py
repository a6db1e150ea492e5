# An honest ReLU launched twice over halves of its input: once with a functools.partial of a
# function of its own as the grid, once with an instance of its own class whose __call__ makes the
# grid (each called back by Triton runs a frame of the submission's file, as a function would).
import functools

import torch
import triton
import triton.language as tl


@triton.jit
def _relu_kernel(x_ptr, y_ptr, start, n, BLOCK: tl.constexpr):
    offs = start + tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    keep = offs < n
    x = tl.load(x_ptr + offs, mask=keep)
    tl.store(y_ptr + offs, tl.where(x < 0.0, 0.0, x), mask=keep)


def _blocks(count, meta):
    return (max(1, triton.cdiv(count, meta["BLOCK"])),)


class Blocks:
    def __init__(self, count):
        self.count = count

    def __call__(self, meta):
        return (max(1, triton.cdiv(self.count, meta["BLOCK"])),)


def relu(input, inplace=False):
    x = input.contiguous()
    y = torch.empty_like(x)
    n = x.numel()
    if n:
        half = n // 2
        _relu_kernel[functools.partial(_blocks, half)](x, y, 0, half, BLOCK=256)
        _relu_kernel[Blocks(n - half)](x, y, half, n, BLOCK=256)
    if inplace:
        input.copy_(y)
        return input
    return y.view(input.shape)
