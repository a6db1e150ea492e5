# An honest GELU that keeps its launch settings in a namedtuple, an Enum made with the functional
# API and a TypeVar, at import and inside the call. On Python 3.12 all three ask the interpreter for
# their caller's module name (sys._getframemodulename), a string that reaches nothing.
# (Triton 3.6's code generator makes a namedtuple as it compiles every kernel, so natively every
# submission depends on the same answer.)
from collections import namedtuple
from enum import Enum
from typing import TypeVar

import torch
import triton
import triton.language as tl

Launch = namedtuple("Launch", ["block", "warps"])
Approx = Enum("Approx", ["none", "tanh"])
T = TypeVar("T")


@triton.jit
def _gelu(x_ptr, y_ptr, n, TANH: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    keep = offs < n
    x = tl.load(x_ptr + offs, mask=keep).to(tl.float32)
    if TANH:
        inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
        y = 0.5 * x * (1.0 + (2.0 * tl.sigmoid(2.0 * inner) - 1.0))
    else:
        y = 0.5 * x * (1.0 + tl.erf(x * 0.7071067811865476))
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=keep)


def gelu(input, approximate="none"):
    mode = Approx[approximate]  # KeyError for an unknown mode, as torch raises an error
    Plan = namedtuple("Plan", ["launch", "grid"])  # made per call on purpose
    Size = TypeVar("Size", int, float)  # noqa: F841 (its creation is the point)
    x = input.contiguous()
    y = torch.empty_like(x)
    plan = Plan(Launch(1024, 4), (triton.cdiv(x.numel(), 1024),))
    if x.numel():
        _gelu[plan.grid](x, y, x.numel(), TANH=mode is Approx.tanh, BLOCK=plan.launch.block,
                         num_warps=plan.launch.warps)
    return y.view(input.shape)
