import torch
import triton
import triton.language as tl


@triton.jit
def _log_tanh_kernel(x_ptr, y_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)  # int64: inputs can exceed 2**31
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=1.0).to(tl.float32)
    # tanh(log x) = (x^2 - 1) / (x^2 + 1): no transcendental at all. The numerator as
    # (x - 1) * (x + 1) keeps full relative accuracy near x = 1, where the result crosses 0.
    y = (x - 1.0) * (x + 1.0) / (x * x + 1.0)
    # Beyond 2^32, x^2 overflows (inf / inf), while the true value 1 - 2 / x^2 rounds to 1.
    # NaN fails both comparisons and stays NaN; +inf gives 1.
    y = tl.where(x > 4294967296.0, 1.0, y)
    # Outside the domain (x < 0) log is NaN, and so is the result.
    y = tl.where(x < 0.0, float("nan"), y)
    tl.store(y_ptr + offsets, y.to(y_ptr.dtype.element_ty), mask=mask)


def fused_log_tanh(input: torch.Tensor, out=None) -> torch.Tensor:
    x = input.contiguous()
    # Write straight into a dense `out`; a strided `out` gets a scratch result copied into it.
    direct = (out is not None and out.is_contiguous() and out.shape == input.shape
              and out.dtype == input.dtype)
    y = out if direct else torch.empty_like(x)
    n = x.numel()
    if n:
        BLOCK = 1024
        _log_tanh_kernel[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK)
    if out is None:
        return y.view(input.shape)
    if not direct:
        out.copy_(y.view(input.shape))
    return out
