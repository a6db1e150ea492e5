import torch
import triton
import triton.language as tl


@triton.jit
def _div_kernel(x_ptr, y_ptr, out_ptr, n_elements, y_scalar,
                S1, S2, S3,
                xs0, xs1, xs2, xs3,
                ys0, ys1, ys2, ys3,
                MODE: tl.constexpr,  # 0: true division, 1: trunc, 2: floor
                FLAT: tl.constexpr, Y_IS_SCALAR: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)  # int64: outputs can exceed 2**31
    mask = offs < n_elements
    if FLAT:
        x_off = offs
        y_off = offs
    else:
        # Split the flat output index into 4 coordinates; broadcast dimensions have stride 0.
        i3 = offs % S3
        r = offs // S3
        i2 = r % S2
        r = r // S2
        i1 = r % S1
        i0 = r // S1
        x_off = i0 * xs0 + i1 * xs1 + i2 * xs2 + i3 * xs3
        y_off = i0 * ys0 + i1 * ys1 + i2 * ys2 + i3 * ys3
    a = tl.load(x_ptr + x_off, mask=mask).to(tl.float32)
    if Y_IS_SCALAR:
        b = tl.full([BLOCK], y_scalar, tl.float32)
    else:
        b = tl.load(y_ptr + y_off, mask=mask).to(tl.float32)

    # Correctly rounded quotient: plain '/' may be an approximate division on GPUs, which can
    # land just below an exact integer quotient and break the rounding modes.
    q = tl.div_rn(a, b)
    if MODE == 1:
        res = tl.where(q < 0.0, tl.ceil(q), tl.floor(q))
    elif MODE == 2:
        # Floor of the *exact* quotient. Rounding a/b is monotonic, so floor(q) is either the
        # answer or one too large (q rounded up onto an integer). The remainder a - k*b is
        # exactly representable, so one fma decides: a remainder of the other sign than b
        # means k*b overshot a.
        k = tl.floor(q)
        rem = tl.where(k == 0.0, a, tl.fma(-k, b, a))  # k == 0 also avoids 0 * inf for b = ±inf
        k = tl.where((rem != 0.0) & ((rem < 0.0) != (b < 0.0)), k - 1.0, k)
        k = tl.where(k == 0.0, q * 0.0, k)  # a zero result keeps the sign of the quotient
        a_inf = tl.abs(a) == float("inf")
        k = tl.where(a_inf & (b != 0.0), float("nan"), k)  # inf // finite is NaN (as in Python)
        res = tl.where(b == 0.0, q, k)  # x // 0 is the true quotient (±inf or NaN)
    else:
        res = q
    tl.store(out_ptr + offs, res.to(out_ptr.dtype.element_ty), mask=mask)


def _broadcast_shape(a, b):
    nd = max(len(a), len(b))
    a = (1,) * (nd - len(a)) + tuple(a)
    b = (1,) * (nd - len(b)) + tuple(b)
    shape = []
    for p, q in zip(a, b):
        if p != q and p != 1 and q != 1:
            raise RuntimeError(f"shapes {tuple(a)} and {tuple(b)} are not broadcastable")
        shape.append(q if p == 1 else p)
    return tuple(shape)


def _strides4(t, shape):
    """Element strides of `t` broadcast to `shape` (<= 4 dims), padded to 4 dims at the front."""
    t = t.expand(shape)
    return [0] * (4 - len(shape)) + [0 if s == 1 else st for s, st in zip(t.shape, t.stride())]


_MODES = {None: 0, "trunc": 1, "floor": 2}


def div(input: torch.Tensor, other, rounding_mode=None, out: torch.Tensor = None) -> torch.Tensor:
    if rounding_mode not in _MODES:
        raise ValueError(f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but found {rounding_mode!r}")
    y_is_scalar = not isinstance(other, torch.Tensor)
    shape = tuple(input.shape) if y_is_scalar else _broadcast_shape(input.shape, other.shape)
    x, y = input, (input if y_is_scalar else other)
    if not y_is_scalar:
        same = tuple(x.shape) == shape and tuple(y.shape) == shape
        if (same and x.is_contiguous() and y.is_contiguous()) or len(shape) > 4:
            # Dense flat path; beyond 4 dims materialise the broadcast operands once.
            x = x.expand(shape).contiguous()
            y = y.expand(shape).contiguous()
    flat = x.is_contiguous() and tuple(x.shape) == shape and (
        y_is_scalar or (y.is_contiguous() and tuple(y.shape) == shape))

    n = 1
    for s in shape:
        n *= s
    direct = out is not None and out.is_contiguous() and tuple(out.shape) == shape and out.dtype == input.dtype
    res = out if direct else torch.empty(shape, dtype=input.dtype, device=input.device)
    if n:
        sizes = [1] * (4 - len(shape)) + list(shape)
        xs = [0, 0, 0, 0] if flat else _strides4(x, shape)
        ys = [0, 0, 0, 0] if (flat or y_is_scalar) else _strides4(y, shape)
        BLOCK = 1024
        _div_kernel[(triton.cdiv(n, BLOCK),)](
            x, y, res, n, float(other) if y_is_scalar else 0.0,
            sizes[1], sizes[2], sizes[3], *xs, *ys,
            MODE=_MODES[rounding_mode], FLAT=flat, Y_IS_SCALAR=y_is_scalar, BLOCK=BLOCK)
    if out is None:
        return res
    if not direct:
        out.copy_(res)
    return out
