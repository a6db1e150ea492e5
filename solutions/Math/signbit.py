import torch
import triton
import triton.language as tl


@triton.jit
def _signbit_kernel(x_ptr, y_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)  # int64: inputs can exceed 2**31
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    # Test the bit itself: reinterpreted as int32 the sign bit is the integer's sign. A float
    # comparison x < 0 would miss -0.0 and negative NaNs.
    bits = x.to(tl.int32, bitcast=True)
    tl.store(y_ptr + offsets, bits < 0, mask=mask)


def signbit(input: torch.Tensor, out=None) -> torch.Tensor:
    x = input.contiguous()
    if out is not None and out.shape != input.shape:
        out.resize_(input.shape)
    # Write straight into `out` when it is a dense bool buffer; otherwise (a strided view)
    # compute into a scratch tensor and copy.
    direct = out is not None and out.dtype == torch.bool and out.is_contiguous()
    y = out if direct else torch.empty(x.shape, dtype=torch.bool, device=x.device)
    n = x.numel()
    if n:
        BLOCK = 1024
        _signbit_kernel[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK)
    if out is None:
        return y.view(input.shape)
    if not direct:
        out.copy_(y.view(input.shape))
    return out
