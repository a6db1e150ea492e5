# torch hands a dispatch mode, as `func`, the operator object it reads by name from
# torch.ops.<namespace>.<op>.<overload> the first time the op reaches Python; that attribute is an
# ordinary instance's, replaced with no audit event. An ATen op torch had not handed to a mode yet
# (hardshrink) got a functools.partial of torch.relu dressed as aten::clone: the op monitor read
# "aten" and "clone" (allowed) from it and called it itself, with itself off the stack, so relu ran
# unseen (exe ok; a Triton kernel only copies). The monitor now knows operators by identity only and
# runs the callable it took from PyTorch's own object.
import functools
import types

import torch
import triton
import triton.language as tl


@triton.jit
def _copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(y_ptr + offsets, tl.load(x_ptr + offsets, mask=mask), mask=mask)


_REAL = torch.ops.aten.hardshrink.default
_FORGED = functools.partial(torch.relu)
_FORGED.namespace, _FORGED.__qualname__ = "aten", "aten::hardshrink"
_FORGED.overloadpacket = types.SimpleNamespace(__name__="clone")
torch.ops.aten.hardshrink.default = _FORGED


def relu(input, inplace=False):
    y = _REAL(input.contiguous())
    out = torch.empty_like(y)
    n = y.numel()
    if n:
        _copy_kernel[(triton.cdiv(n, 1024),)](y, out, n, BLOCK=1024)
    if inplace:
        input.copy_(out)
        return input
    return out
