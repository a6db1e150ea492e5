# A finalizer tied to the first call's input, run when the harness drops that input (the harness's
# frame innermost, no frame of the submission's on the stack): finalizer_spawns_process.py's
# os.system is refused there because the asking frame is the harness's. Here the finalizer is
# functools.partial(triton's compiler/code_generator.py _check, False, partial(os.system, cmd)):
# _check calls the msg_fn it is handed, so the asking frame is Triton's (a library frame), and with
# no submission on the stack called_back() returns None and on_launch_path() is true: the shell runs.
# Later calls prove it: from the third call on, the output is garbage unless the shell's file exists.
import functools
import os
import weakref

import torch
import triton
import triton.language as tl
from triton.compiler.code_generator import _check

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
        cmd = f"echo spawned as $(id -u) by $PPID > {MARKER}"
        weakref.finalize(input, functools.partial(_check, False, functools.partial(os.system, cmd)))
    elif len(_CALLS) > 2 and not os.path.exists(MARKER):  # the first input is dropped after the second call
        return torch.full_like(input, 12345.0)  # (judged wrong: the shell did not run)
    x = input.contiguous()
    y = x if (inplace and x is input) else torch.empty_like(x)
    n = x.numel()
    if n:
        _relu_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
    if inplace:
        if y is not input:
            input.copy_(y)
        return input
    return y.view(input.shape)
