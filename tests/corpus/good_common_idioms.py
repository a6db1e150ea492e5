# An honest GELU written with ordinary Python and PyTorch idioms that LLM kernels use, each of
# which an over-strict guard once refused:
# - a namedtuple with defaults, a typing.NamedTuple class (typing always sets defaults), an Enum
#   made with the functional API and a TypeVar, at import and inside the call: on Python 3.12 they
#   ask for their caller's module name (sys._getframemodulename), a string that reaches nothing, and
#   namedtuple sets its generated __new__'s defaults (generated code the submission owns). Triton
#   3.6's code generator makes a namedtuple as it compiles every kernel, natively;
# - torch.tensor of a torch.Size and of a range (plain data, like a tuple of ints);
# - torch.manual_seed at import: before CUDA starts (CPU mode) torch queues the call with the
#   stack's text.
from collections import namedtuple
from enum import Enum
from typing import NamedTuple, TypeVar

import torch
import triton
import triton.language as tl

torch.manual_seed(0)
Launch = namedtuple("Launch", ["block", "warps"], defaults=[1024, 4])
Approx = Enum("Approx", ["none", "tanh"])
T = TypeVar("T")


class Plan(NamedTuple):
    launch: Launch
    grid: tuple = (1,)


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
    Local = namedtuple("Local", ["numel", "dims"])  # made per call on purpose
    Size = TypeVar("Size", int, float)  # noqa: F841 (its creation is the point)
    x = input.contiguous()
    info = Local(x.numel(), (torch.tensor(x.shape), torch.tensor(range(x.dim()))))
    y = torch.empty_like(x)
    plan = Plan(Launch(), (triton.cdiv(info.numel, Launch().block),))
    if info.numel:
        _gelu[plan.grid](x, y, info.numel, TANH=mode is Approx.tanh, BLOCK=plan.launch.block,
                         num_warps=plan.launch.warps)
    return y.view(input.shape)
