# An honest GELU through libdevice functions that PyTorch names otherwise or not at all: the exact
# form as x * normcdf(x) (torch's ndtr), the tanh form's polynomial with fma. On a GPU these are
# CUDA's libdevice; in CPU mode the harness evaluates them as CUDA defines them (they failed there
# with "not supported in interpreter mode" before 2026-12-05).
import torch
import triton
import triton.language as tl
from triton.language.extra.cuda import libdevice


@triton.jit
def _gelu(x_ptr, y_ptr, n, TANH: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    keep = offs < n
    x = tl.load(x_ptr + offs, mask=keep, other=0.0).to(tl.float32)
    if TANH:
        cube = x * x * x
        inner = 0.7978845608028654 * libdevice.fma(0.044715, cube, x)
        y = 0.5 * x * (1.0 + libdevice.tanh(inner))
    else:
        y = x * libdevice.normcdf(x)
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=keep)


def gelu(input, approximate="none"):
    x = input.contiguous()
    y = torch.empty_like(x)
    n = x.numel()
    if n:
        _gelu[(triton.cdiv(n, 1024),)](x, y, n, TANH=approximate == "tanh", BLOCK=1024)
    return y.view(input.shape)
