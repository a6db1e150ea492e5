# An honest GELU as persistent kernels are written: it asks how many SMs the GPU has (through torch
# and through Triton's driver), which target Triton compiles for, and the current stream, and sizes
# its grid to that. Natively these go through torch's and Triton's drivers while the submission
# runs; in CPU mode (no device queries) it is a plain kernel, so the entry passes both ways.
import torch
import triton
import triton.language as tl
from triton.runtime import driver


@triton.jit
def _gelu_persistent(x_ptr, y_ptr, n, TANH: tl.constexpr, NUM_PROGRAMS: tl.constexpr, BLOCK: tl.constexpr):
    start = tl.program_id(0)
    for block in range(start, tl.cdiv(n, BLOCK), NUM_PROGRAMS):
        offs = tl.arange(0, BLOCK).to(tl.int64) + block * BLOCK
        keep = offs < n
        x = tl.load(x_ptr + offs, mask=keep).to(tl.float32)
        if TANH:
            inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
            y = 0.5 * x * (1.0 + (2.0 * tl.sigmoid(2.0 * inner) - 1.0))
        else:
            y = 0.5 * x * (1.0 + tl.erf(x * 0.7071067811865476))
        tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=keep)


def _programs(device: torch.device) -> int:
    if device.type != "cuda":
        return 4
    sms = torch.cuda.get_device_properties(device).multi_processor_count
    props = driver.active.utils.get_device_properties(device.index or torch.cuda.current_device())
    assert props["multiprocessor_count"] == sms
    assert driver.active.get_current_target().backend == "cuda"
    torch.cuda.current_stream(device)
    return sms


def gelu(input, approximate="none"):
    if approximate not in ("none", "tanh"):
        raise ValueError(f"approximate must be 'none' or 'tanh', got {approximate!r}")
    x = input.contiguous()
    y = torch.empty_like(x)
    n = x.numel()
    if n:
        programs = min(_programs(x.device), triton.cdiv(n, 1024))
        _gelu_persistent[(programs,)](x, y, n, TANH=approximate == "tanh", NUM_PROGRAMS=programs, BLOCK=1024)
    return y.view(input.shape)
