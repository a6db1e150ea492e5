# An honest GELU written the way many LLM kernels are: CUDA libdevice's erf and tanh. In the
# interpreter the harness evaluates libdevice calls itself; that must not count as the wrapper
# falling back to PyTorch.
import torch
import triton
import triton.language as tl
from triton.language.extra.cuda import libdevice


@triton.jit
def _gelu_libdevice(x_ptr, y_ptr, n, TANH: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    keep = offs < n
    x = tl.load(x_ptr + offs, mask=keep).to(tl.float32)
    if TANH:
        y = 0.5 * x * (1.0 + libdevice.tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)))
    else:
        y = 0.5 * x * (1.0 + libdevice.erf(x * 0.7071067811865476))
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=keep)


def gelu(input, approximate="none"):
    if approximate not in ("none", "tanh"):
        raise ValueError(f"approximate must be 'none' or 'tanh', got {approximate!r}")
    x = input.contiguous()
    y = torch.empty_like(x)
    if x.numel():
        _gelu_libdevice[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), TANH=approximate == "tanh", BLOCK=1024)
    return y.view(input.shape)
