# stat_of_sibling_files.py with each path handed over as an os.PathLike of the submission's own
# class: os.stat's stand-in received the object, and a guard that judged only strings let the
# original os.stat convert it and read what other jobs' folders hold (their sizes and times carry
# values between jobs of one run). The call is then honest.
import os

import torch
import triton
import triton.language as tl


class Where:
    def __init__(self, path):
        self.path = path

    def __fspath__(self):
        return self.path


@triton.jit
def _relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(y_ptr + offs, tl.where(x < 0.0, 0.0, x), mask=offs < n)


def relu(input, inplace=False):
    os.stat(Where(os.path.dirname(os.getcwd())))
    x = input.contiguous()
    y = x if inplace and x is input else torch.empty_like(x)
    if x.numel():
        _relu_kernel[(triton.cdiv(x.numel(), 256),)](x, y, x.numel(), BLOCK=256)
    if inplace and y is not input:
        input.copy_(y)
        y = input
    return y.view(input.shape)
