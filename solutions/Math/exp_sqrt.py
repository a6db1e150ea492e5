import torch
import triton
import triton.language as tl


@triton.jit
def _exp_sqrt_kernel(x_ptr, y_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)  # int64: inputs can exceed 2**31
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask).to(tl.float32)
    # Same order as the specification: the float32 exp overflows to inf above ~88.72 and the
    # result must be inf there too, so this is deliberately not exp(x / 2).
    e = tl.exp(x)
    y = tl.sqrt(e)
    tl.store(y_ptr + offsets, y.to(y_ptr.dtype.element_ty), mask=mask)


def exp_sqrt(input: torch.Tensor, out: torch.Tensor = None) -> torch.Tensor:
    x = input.contiguous()
    n = x.numel()
    # Write straight into `out` when it is dense; otherwise go through a dense buffer and copy.
    direct = out is not None and out.is_contiguous() and out.shape == x.shape and out.dtype == x.dtype
    y = out if direct else torch.empty_like(x)
    if n:
        BLOCK = 1024
        _exp_sqrt_kernel[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK)
    if out is None:
        return y.view(input.shape)
    if not direct:
        out.copy_(y)
    return out
