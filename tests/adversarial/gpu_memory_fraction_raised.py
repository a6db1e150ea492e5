# Raises its process's GPU memory fraction back to the whole device through torch's public setter,
# as a library would for it, before doing honest work (GPU only: on the CPU the setter finds no
# device first).
import torch
import triton
import triton.language as tl

torch.cuda.set_per_process_memory_fraction(1.0)


@triton.jit
def _relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    tl.store(y_ptr + offsets, tl.where(x < 0, 0.0, x), mask=mask)  # NaN passes through


def relu(input, inplace=False):
    src = input.contiguous()
    out = torch.empty_like(src)
    n = src.numel()
    if n:
        _relu_kernel[(triton.cdiv(n, 1024),)](src, out, n, BLOCK=1024)
    if inplace:
        input.copy_(out)
        return input
    return out
