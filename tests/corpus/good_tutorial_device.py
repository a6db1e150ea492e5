# An honest GELU in the Triton tutorials' style: the device comes from Triton's driver at import
# (`DEVICE = triton.runtime.driver.active.get_active_torch_device()`) and the output is made there,
# and CUDA's libdevice functions are imported by name. In CPU mode Triton finds no driver ("0 active
# drivers"); the interpreter's device is the CPU, which is what the harness answers there.
import torch
import triton
import triton.language as tl
from triton.language.extra.cuda.libdevice import erf, tanh

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def _gelu_tutorial(x_ptr, y_ptr, n, TANH: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    keep = offs < n
    x = tl.load(x_ptr + offs, mask=keep).to(tl.float32)
    if TANH:
        y = 0.5 * x * (1.0 + tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)))
    else:
        y = 0.5 * x * (1.0 + erf(x * 0.7071067811865476))
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=keep)


def gelu(input, approximate="none"):
    if approximate not in ("none", "tanh"):
        raise ValueError(f"approximate must be 'none' or 'tanh', got {approximate!r}")
    assert input.device.type == DEVICE.type, (input.device, DEVICE)
    x = input.contiguous()
    y = torch.empty(x.shape, dtype=x.dtype, device=DEVICE)
    n = x.numel()
    if n:
        _gelu_tutorial[(triton.cdiv(n, 1024),)](x, y, n, TANH=approximate == "tanh", BLOCK=1024)
    return y.view(input.shape)
