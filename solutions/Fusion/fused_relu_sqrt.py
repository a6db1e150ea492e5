import torch
import triton
import triton.language as tl


@triton.jit
def _relu_sqrt_kernel(x_ptr, y_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)  # int64: inputs can exceed 2**31
    mask = offsets < n_elements
    # int64 converts to the float result dtype (round to nearest) before anything else.
    x = tl.load(x_ptr + offsets, mask=mask).to(y_ptr.dtype.element_ty)
    # Select on x < 0 rather than max(x, 0): NaN compares false and passes through.
    r = tl.where(x < 0, 0.0, x).to(y_ptr.dtype.element_ty)
    # In float32, sqrt_rn is the correctly rounded root (tl.sqrt may be the approximate
    # instruction); the float64 root is always correctly rounded.
    if y_ptr.dtype.element_ty == tl.float64:
        y = tl.sqrt(r)
    else:
        y = tl.sqrt_rn(r)
    tl.store(y_ptr + offsets, y, mask=mask)


def fused_relu_sqrt(input: torch.Tensor, inplace: bool = False, out=None) -> torch.Tensor:
    floating = input.dtype in (torch.float32, torch.float64)
    res_dtype = input.dtype if floating else torch.float32
    in_place = inplace and floating  # an int64 input has no floating storage to overwrite
    x = input.contiguous()
    if in_place:
        # Elementwise, so reading and writing the same dense buffer is safe. A strided input is
        # computed in its dense copy, which is then copied back into the view.
        y = x
    elif out is not None and out.is_contiguous() and out.shape == input.shape and out.dtype == res_dtype:
        y = out
    else:
        y = torch.empty(input.shape, dtype=res_dtype, device=input.device)
    n = x.numel()
    if n:
        BLOCK = 1024
        _relu_sqrt_kernel[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK)
    if in_place:
        if x is not input:
            input.copy_(x)
        return input
    if out is None:
        return y
    if y is not out:
        out.copy_(y)
    return out
