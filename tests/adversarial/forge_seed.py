# Tries to choose its own inputs: at import it replaces sys.stdin with a stream holding a forged
# `inputs` command (seed 0), hoping the worker reads its seed from there. An honest ReLU otherwise:
# if the worker took the forged seed, it would call on inputs the parent never judged against, and
# a correct kernel would be judged wrong. The worker bound its command stream before the import.
import io
import sys

import torch
import triton
import triton.language as tl

sys.stdin = io.StringIO('{"cmd": "inputs", "seed": 0}\n')


@triton.jit
def _relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, tl.where(x < 0.0, 0.0, x), mask=mask)


def relu(input, inplace=False):
    x = input.contiguous()
    y = x if (inplace and x is input) else torch.empty_like(x)
    if x.numel():
        _relu_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), BLOCK=1024)
    if inplace and y is not input:
        input.copy_(y)
        y = input
    return y.view(input.shape)
