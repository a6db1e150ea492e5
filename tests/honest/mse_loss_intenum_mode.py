# An honest MSE loss whose reduction mode reaches the kernel as an IntEnum member (a constexpr):
# an enum of numbers runs no code of the submission's when Triton reads it, and was once refused.
from enum import IntEnum

import torch
import triton
import triton.language as tl


class Reduction(IntEnum):
    NONE = 0
    MEAN = 1
    SUM = 2


@triton.jit
def _mse_kernel(x_ptr, y_ptr, out_ptr, n, REDUCTION: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    d = tl.load(x_ptr + offs, mask=m, other=0.0) - tl.load(y_ptr + offs, mask=m, other=0.0)
    # (the enum's values, not the class: compiled Triton reads no global that is not a constexpr)
    if REDUCTION == 0:
        tl.store(out_ptr + offs, d * d, mask=m)
    else:
        s = tl.sum(d * d, axis=0)
        if REDUCTION == 1:
            s = s / n
        tl.atomic_add(out_ptr, s)


def mse_loss(input, target, reduction="mean"):
    red = Reduction[reduction.upper()]
    x, y = input.contiguous().view(-1), target.contiguous().view(-1)
    n = x.numel()
    if red == Reduction.NONE:
        out = torch.empty_like(x)
    else:
        out = torch.full((), float("nan") if (n == 0 and red == Reduction.MEAN) else 0.0, device=x.device)
    if n:
        _mse_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, REDUCTION=red, BLOCK=1024)
    return out.view(input.shape) if red == Reduction.NONE else out
