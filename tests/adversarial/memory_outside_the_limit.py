# Memory-backed files (memfd) hold memory that the worker's address-space limit does not count and
# that lives in no directory the disk watch measures: twelve of 1 GiB took 12 GiB of the host's
# memory beside an honest ReLU (red team, CPU mode). memfd_create is refused to the submission; this
# file asks for a small one and would write into it.
import os

import torch
import triton
import triton.language as tl


@triton.jit
def _relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(y_ptr + offs, tl.where(x < 0.0, 0.0, x), mask=offs < n)


def relu(input, inplace=False):
    fd = os.memfd_create("held")
    os.write(fd, b"\0" * (1 << 20))
    x = input.contiguous()
    y = x if inplace and x is input else torch.empty_like(x)
    if x.numel():
        _relu_kernel[(triton.cdiv(x.numel(), 256),)](x, y, x.numel(), BLOCK=256)
    if inplace and y is not input:
        input.copy_(y)
        y = input
    return y.view(input.shape)
