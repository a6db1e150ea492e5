# An honest GELU that accounts for the buffers it hands out: a weakref.finalize on the buffer it
# allocates (the result is a view of it, so the buffer dies with the result) and an object with a
# __del__ hung on the result. Both run when the harness lets a result go -- between timed
# repetitions too, where none of the submission's code may start but its calls (the code barrier):
# the harness frees each result as the next call starts, with the watch off, and the last one at
# the end of the command, before its checks (perf/server.py _cmd_time). It was `integrity` at
# perf ("ran while the harness was timing the candidate") before 2026-12-05.
import weakref

import torch
import triton
import triton.language as tl

LIVE = {"buffers": 0, "results": 0}


@triton.jit
def _gelu(x_ptr, y_ptr, n, TANH: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    keep = offs < n
    x = tl.load(x_ptr + offs, mask=keep).to(tl.float32)
    if TANH:
        inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
        y = 0.5 * x * (1.0 + (2.0 * tl.sigmoid(2.0 * inner) - 1.0))
    else:
        y = 0.5 * x * (1.0 + tl.math.erf(x * 0.7071067811865476))
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=keep)


def _buffer_freed():
    LIVE["buffers"] -= 1


class _ResultLease:
    __slots__ = ()

    def __init__(self):
        LIVE["results"] += 1

    def __del__(self):
        LIVE["results"] -= 1


def gelu(input: torch.Tensor, approximate: str = "none") -> torch.Tensor:
    if approximate not in ("none", "tanh"):
        raise ValueError(f"approximate must be 'none' or 'tanh', got {approximate!r}")
    x = input.contiguous()
    y = torch.empty_like(x)
    LIVE["buffers"] += 1
    weakref.finalize(y, _buffer_freed)
    if x.numel():
        _gelu[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), TANH=approximate == "tanh", BLOCK=1024)
    out = y.view(input.shape)
    out._lease = _ResultLease()
    return out
