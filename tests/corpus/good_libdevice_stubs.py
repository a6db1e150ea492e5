# An honest GELU with libdevice spelled as Triton 3.x documents it: the backend-neutral stub module
# (`from triton.language.extra import libdevice`), one of its functions imported by name, and its
# attribute path through `tl.extra`. On a GPU the compiler swaps the stubs for the backend's functions;
# in CPU mode the stubs are empty Python functions (each call returned None) until the harness bound
# them to the backend's before the import. The name imported here is bound when the submission is
# imported, so only a binding made before then reaches it.
import torch
import triton
import triton.language as tl
from triton.language.extra import libdevice
from triton.language.extra.libdevice import tanh


@triton.jit
def _phi(x):
    # the standard normal CDF, through the stubs' attribute path
    return 0.5 * (1.0 + tl.extra.libdevice.erf(x * 0.7071067811865476))


@triton.jit
def _gelu_stubs(x_ptr, y_ptr, n, TANH: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    keep = offs < n
    x = tl.load(x_ptr + offs, mask=keep).to(tl.float32)
    if TANH:
        y = 0.5 * x * (1.0 + tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)))
    else:
        # both erf spellings: the module's attribute and the helper's path
        y = 0.5 * x * (1.0 + libdevice.erf(x * 0.7071067811865476)) * 0.5 + 0.5 * x * _phi(x)
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=keep)


def gelu(input, approximate="none"):
    if approximate not in ("none", "tanh"):
        raise ValueError(f"approximate must be 'none' or 'tanh', got {approximate!r}")
    x = input.contiguous()
    y = torch.empty_like(x)
    if x.numel():
        _gelu_stubs[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), TANH=approximate == "tanh", BLOCK=1024)
    return y.view(input.shape)
