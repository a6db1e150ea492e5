import torch
import triton
import triton.language as tl


@triton.jit
def _asin_kernel(x_ptr, y_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)  # int64: inputs can exceed 2**31
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask).to(tl.float32)
    a = tl.abs(x)
    # |x| <= 0.5: odd polynomial in x directly.  |x| > 0.5: use
    #   asin(a) = pi/2 - 2 * asin(sqrt((1 - a) / 2)),
    # where 1 - a is exact (Sterbenz) so accuracy holds right up to |x| = 1.
    # For |x| > 1 (and inf) z < 0 and sqrt gives NaN, as asin must.
    big = a > 0.5
    z_big = 0.5 * (1.0 - a)
    s = tl.where(big, tl.sqrt(z_big), a)
    z = tl.where(big, z_big, a * a)
    # asin(s) = s + s * z * P(z), z = s^2, minimax for s in [0, 0.5] (Cephes asinf).
    p = 4.2163199048e-2
    p = p * z + 2.4181311049e-2
    p = p * z + 4.5470025998e-2
    p = p * z + 7.4953002686e-2
    p = p * z + 1.6666752422e-1
    r = s + s * z * p
    r = tl.where(big, 1.5707963267948966 - 2.0 * r, r)
    y = tl.where(x < 0.0, -r, r)
    y = tl.where(x != x, x, y)  # NaN in, NaN out
    tl.store(y_ptr + offsets, y.to(y_ptr.dtype.element_ty), mask=mask)


def asin(input_tensor: torch.Tensor) -> torch.Tensor:
    x = input_tensor.contiguous()
    y = torch.empty_like(x)
    n = x.numel()
    if n:
        BLOCK = 1024
        _asin_kernel[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK)
    return y.view(input_tensor.shape)
