import torch
import triton
import triton.language as tl


@triton.jit
def _trunc_kernel(x_ptr, y_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)  # int64: inputs can exceed 2**31
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    # Round toward zero with floor/ceil in floating point, never through an integer cast: float32
    # reaches 3.4e38 (beyond int64), and floor/ceil keep inf, NaN and the sign of -0.0 as they are.
    y = tl.where(x < 0.0, tl.ceil(x), tl.floor(x))
    tl.store(y_ptr + offsets, y, mask=mask)


def trunc(input: torch.Tensor, out=None) -> torch.Tensor:
    x = input.contiguous()
    if out is not None and out.shape != input.shape:
        out.resize_(input.shape)
    # Write straight into `out` when it is a dense float32 buffer; otherwise (a strided view)
    # compute into a scratch tensor and copy.
    direct = out is not None and out.dtype == x.dtype and out.is_contiguous()
    y = out if direct else torch.empty_like(x)
    n = x.numel()
    if n:
        BLOCK = 1024
        _trunc_kernel[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK)
    if out is None:
        return y.view(input.shape)
    if not direct:
        out.copy_(y.view(input.shape))
    return out
