import torch
import triton
import triton.language as tl


@triton.jit
def _log1p_kernel(x_ptr, y_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)  # int64: inputs can exceed 2**31
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    # |x| < 0.5: log(1 + x) = 2 atanh(s) with s = x / (2 + x), |s| <= 1/3, summed as an odd series
    # 2 (s + s^3/3 + ... + s^15/15); the first dropped term is < 2e-9 relative. This never forms
    # 1 + x, whose rounding would destroy small x, and does not rely on the accuracy of a hardware
    # log near 1.
    s = x / (2.0 + x)
    s2 = s * s
    p = 1.0 / 15.0
    p = p * s2 + 1.0 / 13.0
    p = p * s2 + 1.0 / 11.0
    p = p * s2 + 1.0 / 9.0
    p = p * s2 + 1.0 / 7.0
    p = p * s2 + 1.0 / 5.0
    p = p * s2 + 1.0 / 3.0
    small = 2.0 * (s + s * s2 * p)
    # |x| >= 0.5: 1 + x loses at most half an ulp relative to a result of size >= log(1.5), and
    # the log's IEEE edges give -inf at x = -1, NaN below -1 and inf at inf. NaN takes this branch.
    big = tl.log(1.0 + x)
    y = tl.where(tl.abs(x) < 0.5, small, big)
    tl.store(y_ptr + offsets, y.to(y_ptr.dtype.element_ty), mask=mask)


def log1p(input: torch.Tensor, out: torch.Tensor = None) -> torch.Tensor:
    x = input.contiguous()
    n = x.numel()
    # Write straight into `out` when it is dense; otherwise go through a dense buffer and copy.
    direct = out is not None and out.is_contiguous() and out.shape == x.shape and out.dtype == x.dtype
    y = out if direct else torch.empty_like(x)
    if n:
        BLOCK = 1024
        _log1p_kernel[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK)
    if out is None:
        return y.view(input.shape)
    if not direct:
        out.copy_(y)
    return out
