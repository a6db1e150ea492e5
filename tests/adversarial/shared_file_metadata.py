# Sets the mode of one of torch's own files (to the mode it has: nothing changes here) while it is
# called. Landlock rules no file's mode, owner, times or extended attributes, and a worker run by
# the files' owner may change them: another job reads them back (a channel between jobs), and a
# library file made unreadable breaks every later job. It then does the work honestly.
import os

import torch
import triton
import triton.language as tl


@triton.jit
def _relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(y_ptr + offs, tl.where(x < 0.0, 0.0, x), mask=offs < n)


def _honest(input, inplace):
    x = input.contiguous()
    y = torch.empty_like(x)
    if x.numel():
        _relu_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), BLOCK=1024)
    if inplace:
        input.copy_(y.view(input.shape))
        return input
    return y.view(input.shape)


def relu(input, inplace=False):
    os.chmod(torch.__file__, os.stat(torch.__file__).st_mode & 0o7777)
    return _honest(input, inplace)
