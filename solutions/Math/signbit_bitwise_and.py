import torch
import triton
import triton.language as tl


@triton.jit
def _signbit_and_kernel(x_ptr, o_ptr, sign_ptr, and_ptr, n_elements,
                        OTHER_IS_BOOL: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)  # int64: inputs can exceed 2**31
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    o = tl.load(o_ptr + offsets, mask=mask)
    # Sign bit = sign of the int32 reinterpretation (true for -0.0, unlike x < 0).
    sign = x.to(tl.int32, bitcast=True) < 0
    if OTHER_IS_BOOL:
        # float -> bool is x != 0 (NaN and fractions are True), not a cast through an integer.
        xc = x != 0.0
        res = xc & (o != 0)
    else:
        # float -> integer conversion rounds toward zero, as in torch's .to(int8).
        xc = x.to(o_ptr.dtype.element_ty)
        res = xc & o
    tl.store(sign_ptr + offsets, sign, mask=mask)
    tl.store(and_ptr + offsets, res.to(and_ptr.dtype.element_ty), mask=mask)


def signbit_bitwise_and(input: torch.Tensor, other: torch.Tensor):
    if other.dtype.is_floating_point or other.dtype.is_complex:
        raise TypeError(f"bitwise_and needs an integral or bool `other`, got {other.dtype}")
    x = input.contiguous()
    # A broadcast `other` (e.g. one row) is materialised at input's shape.
    o = other.expand(input.shape).contiguous()
    sign = torch.empty(x.shape, dtype=torch.bool, device=x.device)
    res = torch.empty(x.shape, dtype=other.dtype, device=x.device)
    n = x.numel()
    if n:
        BLOCK = 1024
        _signbit_and_kernel[(triton.cdiv(n, BLOCK),)](x, o, sign, res, n,
                                                      OTHER_IS_BOOL=other.dtype == torch.bool,
                                                      BLOCK=BLOCK)
    return sign.view(input.shape), res.view(input.shape)
