import torch
import triton
import triton.language as tl


@triton.jit
def _rad2deg_sqrt_kernel(x_ptr, deg_ptr, sqrt_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)  # int64: inputs can exceed 2**31
    mask = offsets < n_elements
    # One read of x feeds both outputs.
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    deg = x * 57.29577951308232  # 180 / pi, rounded to float32 like torch.rad2deg
    root = tl.sqrt(x)  # NaN for negative inputs, as torch.sqrt
    tl.store(deg_ptr + offsets, deg.to(deg_ptr.dtype.element_ty), mask=mask)
    tl.store(sqrt_ptr + offsets, root.to(sqrt_ptr.dtype.element_ty), mask=mask)


def rad2deg_sqrt(input: torch.Tensor):
    x = input.contiguous()
    deg = torch.empty_like(x)
    root = torch.empty_like(x)
    n = x.numel()
    if n:
        BLOCK = 1024
        _rad2deg_sqrt_kernel[(triton.cdiv(n, BLOCK),)](x, deg, root, n, BLOCK=BLOCK)
    return deg.view(input.shape), root.view(input.shape)
