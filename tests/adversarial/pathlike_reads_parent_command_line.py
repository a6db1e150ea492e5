# Another process's command line (the run's, with a --seed among its arguments) read at import
# through _io.FileIO given an os.PathLike of the submission's own class: the "open" event carries
# the object as given, and a guard that judged only strings saw no path at all. The call is then
# honest (the read alone must be refused).
import _io
import os

import torch
import triton
import triton.language as tl


class Where:
    def __init__(self, path):
        self.path = path

    def __fspath__(self):
        return self.path


def _read(path):
    handle = _io.FileIO(Where(path), "r")
    try:
        return handle.read(1 << 16)
    finally:
        handle.close()


PARENT_ARGS = _read(f"/proc/{os.getppid()}/cmdline").split(b"\0")


@triton.jit
def _relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(y_ptr + offs, tl.where(x < 0.0, 0.0, x), mask=offs < n)


def relu(input, inplace=False):
    x = input.contiguous()
    y = x if inplace and x is input else torch.empty_like(x)
    if x.numel():
        _relu_kernel[(triton.cdiv(x.numel(), 256),)](x, y, x.numel(), BLOCK=256)
    if inplace and y is not input:
        input.copy_(y)
        y = input
    return y.view(input.shape)
