import torch
import triton
import triton.language as tl


@triton.jit
def _add_gelu_kernel(x_ptr, y_ptr, out_ptr, n_elements, alpha, y_scalar,
                     S1, S2, S3,
                     xs0, xs1, xs2, xs3,
                     ys0, ys1, ys2, ys3,
                     FLAT: tl.constexpr, Y_IS_SCALAR: tl.constexpr, USE_TANH: tl.constexpr,
                     BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)  # int64: outputs can exceed 2**31
    mask = offs < n_elements
    if FLAT:
        # Both operands are dense with the output's shape (or `other` is a scalar).
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
    x = tl.load(x_ptr + x_off, mask=mask).to(tl.float32)
    if Y_IS_SCALAR:
        y = y_scalar
    else:
        y = tl.load(y_ptr + y_off, mask=mask).to(tl.float32)
    # The sum stays in registers: alpha scales `other` only.
    z = x + alpha * y
    if USE_TANH:
        inner = 0.7978845608028654 * (z + 0.044715 * z * z * z)
        # 0.5 * (1 + tanh(u)) = sigmoid(2u): no cancellation for negative z, finite for large |u|.
        res = z * tl.sigmoid(2.0 * inner)
    else:
        res = 0.5 * z * (1.0 + tl.math.erf(z * 0.7071067811865476))
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
    strides = [0 if s == 1 else st for s, st in zip(t.shape, t.stride())]
    return [0] * (4 - len(strides)) + strides


def fused_add_gelu(input: torch.Tensor, other, alpha=1, approximate='none', out=None) -> torch.Tensor:
    if approximate not in ("none", "tanh"):
        raise ValueError(f"approximate must be 'none' or 'tanh', got {approximate!r}")
    y_is_scalar = not isinstance(other, torch.Tensor)
    shape = tuple(input.shape) if y_is_scalar else _broadcast_shape(input.shape, other.shape)
    x, y = input, (input if y_is_scalar else other)
    if not y_is_scalar and len(shape) > 4:
        # Beyond 4 dims, materialise the broadcast operands once (views and copies only).
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
        _add_gelu_kernel[(triton.cdiv(n, BLOCK),)](
            x, y, res, n, float(alpha), float(other) if y_is_scalar else 0.0,
            sizes[1], sizes[2], sizes[3], *xs, *ys,
            FLAT=flat, Y_IS_SCALAR=y_is_scalar, USE_TANH=approximate == "tanh", BLOCK=BLOCK)
    if out is None:
        return res
    if not direct:
        out.copy_(res)
    return out
