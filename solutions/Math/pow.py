import torch
import triton
import triton.language as tl

_MAX_DIMS = 4  # broadcast/strided layouts up to this rank are indexed in-kernel without copies

# Scalar exponents that torch evaluates with plain arithmetic (x*x, sqrt, 1/x, ...) rather than
# powf. Using the same formulas is faster and matches torch bit for bit on their edge cases
# (e.g. (-inf) ** 0.5 is sqrt(-inf) = NaN there).
_FAST = {2.0: 1, 3.0: 2, 0.5: 3, -0.5: 4, -1.0: 5, -2.0: 6}


@triton.jit
def _powf(x, y):
    # x ** y with C99 powf semantics, in float32: exp2(y * log2|x|) plus sign and special cases.
    r = tl.exp2(y * tl.log2(tl.abs(x)))
    # Integer / odd-integer tests on y. floor(inf) == inf counts as an (even) integer; every
    # float32 beyond 2**24 is an even integer, which the same test gets right.
    y_int = tl.floor(y) == y
    half = y * 0.5
    y_odd = y_int & (tl.floor(half) != half)
    # A set sign bit (also -0.0 and -inf) with an odd exponent makes the result negative.
    x_neg_bit = x.to(tl.int32, bitcast=True) < 0
    r = tl.where(x_neg_bit & y_odd, -r, r)
    # A finite negative base with a non-integer exponent has no real power.
    r = tl.where((x < 0.0) & (x > float("-inf")) & (~y_int), float("nan"), r)
    # Cases where the result is 1 even though the formula gives NaN (0*inf or NaN operands).
    one = (y == 0.0) | (x == 1.0) | ((x == -1.0) & (tl.abs(y) == float("inf")))
    return tl.where(one, 1.0, r)


@triton.jit
def _pow_kernel(x_ptr, e_ptr, y_ptr, n_elements, e_scalar,
                S1, S2, S3,
                sx0, sx1, sx2, sx3,
                se0, se1, se2, se3,
                FLAT: tl.constexpr, E_IS_SCALAR: tl.constexpr, MODE: tl.constexpr,
                BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)  # int64: sizes can exceed 2**31
    mask = offsets < n_elements
    if FLAT:
        x_off = offsets
        e_off = offsets
    else:
        # Flat output index -> 4-D coordinates -> each operand's strided offset (stride 0 along
        # broadcast dimensions).
        i3 = offsets % S3
        r = offsets // S3
        i2 = r % S2
        r = r // S2
        i1 = r % S1
        i0 = r // S1
        x_off = i0 * sx0 + i1 * sx1 + i2 * sx2 + i3 * sx3
        e_off = i0 * se0 + i1 * se1 + i2 * se2 + i3 * se3
    x = tl.load(x_ptr + x_off, mask=mask, other=1.0).to(tl.float32)
    if MODE == 1:
        y = x * x
    elif MODE == 2:
        y = x * x * x
    elif MODE == 3:
        y = tl.sqrt_rn(x)
    elif MODE == 4:
        y = 1.0 / tl.sqrt_rn(x)
    elif MODE == 5:
        y = 1.0 / x
    elif MODE == 6:
        y = 1.0 / (x * x)
    else:
        if E_IS_SCALAR:
            e = tl.zeros_like(x) + e_scalar
        else:
            e = tl.load(e_ptr + e_off, mask=mask, other=1.0).to(tl.float32)
        y = _powf(x, e)
    tl.store(y_ptr + offsets, y.to(y_ptr.dtype.element_ty), mask=mask)


def _strides4(t: torch.Tensor, shape):
    """Strides of `t` broadcast to `shape`, left-padded to 4 dims (stride 0 where broadcast)."""
    st = list(t.expand(shape).stride())
    return [0] * (_MAX_DIMS - len(st)) + st


def pow(input_tensor: torch.Tensor, exponent, out=None) -> torch.Tensor:
    e_is_scalar = not isinstance(exponent, torch.Tensor)
    x = input_tensor
    e = None if e_is_scalar else exponent
    if e_is_scalar:
        out_shape = tuple(x.shape)
        mode = _FAST.get(float(exponent), 0)
    else:
        out_shape = tuple(torch.broadcast_shapes(x.shape, e.shape))
        mode = 0
    if len(out_shape) > _MAX_DIMS:
        # Rare high-rank case: materialise the broadcast operands densely.
        x = x.expand(out_shape).contiguous()
        e = None if e_is_scalar else e.expand(out_shape).contiguous()
    flat = (tuple(x.shape) == out_shape and x.is_contiguous()
            and (e_is_scalar or (tuple(e.shape) == out_shape and e.is_contiguous())))
    if out is not None and tuple(out.shape) != out_shape:
        out.resize_(out_shape)
    # Write straight into `out` when it is a dense float32 buffer; otherwise compute into a
    # scratch tensor and copy (out may be a strided view).
    direct = out is not None and out.dtype == input_tensor.dtype and out.is_contiguous()
    y = out if direct else torch.empty(out_shape, dtype=input_tensor.dtype, device=input_tensor.device)
    n = y.numel()
    if n:
        if flat:
            shape4, sx, se = [1] * _MAX_DIMS, [0] * _MAX_DIMS, [0] * _MAX_DIMS  # unused
        else:
            shape4 = [1] * (_MAX_DIMS - len(out_shape)) + list(out_shape)
            sx = _strides4(x, out_shape)
            se = [0] * _MAX_DIMS if e_is_scalar else _strides4(e, out_shape)
        BLOCK = 1024
        _pow_kernel[(triton.cdiv(n, BLOCK),)](
            x, x if e_is_scalar else e, y, n, float(exponent) if e_is_scalar else 0.0,
            shape4[1], shape4[2], shape4[3], *sx, *se,
            FLAT=flat, E_IS_SCALAR=e_is_scalar, MODE=mode, BLOCK=BLOCK)
    if out is None:
        return y
    if not direct:
        out.copy_(y)
    return out
