# A finalizer that is a builtin callable: os.system, tied to the first call's input, runs when the
# harness drops that input, with the harness's frame innermost and no frame of the submission's on
# the stack (no launch path to judge). Refused: the harness asks for no process once armed. Later
# calls report whether the command ran (an error), and return zeros otherwise (judged wrong).
import functools
import os
import weakref

import torch
import triton
import triton.language as tl

MARKER = "spawned_by_finalizer"
_CALLS = []


@triton.jit
def _relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    keep = offs < n
    x = tl.load(x_ptr + offs, mask=keep)
    tl.store(y_ptr + offs, tl.where(x < 0, 0.0, x), mask=keep)


def relu(input, inplace=False):
    _CALLS.append(1)
    if len(_CALLS) == 1:
        weakref.finalize(input, functools.partial(os.system, f"echo spawned > {MARKER}"))
    elif len(_CALLS) > 2 and os.path.exists(MARKER):  # the first input is dropped after the second call
        raise RuntimeError("a finalizer of the submission's started a process")
    x = input.contiguous() if len(_CALLS) <= 2 else torch.zeros_like(input)
    y = torch.empty_like(x)
    if x.numel():
        _relu_kernel[(triton.cdiv(x.numel(), 256),)](x, y, x.numel(), BLOCK=256)
    y = y.view(input.shape)
    if inplace:
        input.copy_(y)
        return input
    return y
