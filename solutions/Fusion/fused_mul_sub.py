import torch
import triton
import triton.language as tl


@triton.jit
def _mul_sub_kernel(x_ptr, m_ptr, s_ptr, out_ptr, n_elements, alpha, m_scalar, s_scalar,
                    S1, S2, S3,
                    xs0, xs1, xs2, xs3,
                    ms0, ms1, ms2, ms3,
                    ss0, ss1, ss2, ss3,
                    FLAT: tl.constexpr, M_SCALAR: tl.constexpr, S_SCALAR: tl.constexpr,
                    BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)  # int64: outputs can exceed 2**31
    mask = offs < n_elements
    if FLAT:
        # Every tensor operand is dense with the output's shape.
        x_off = offs
        m_off = offs
        s_off = offs
    else:
        # Split the flat output index into 4 coordinates; broadcast dimensions have stride 0.
        i3 = offs % S3
        r = offs // S3
        i2 = r % S2
        r = r // S2
        i1 = r % S1
        i0 = r // S1
        x_off = i0 * xs0 + i1 * xs1 + i2 * xs2 + i3 * xs3
        m_off = i0 * ms0 + i1 * ms1 + i2 * ms2 + i3 * ms3
        s_off = i0 * ss0 + i1 * ss1 + i2 * ss2 + i3 * ss3
    x = tl.load(x_ptr + x_off, mask=mask).to(tl.float32)
    if M_SCALAR:
        m = m_scalar
    else:
        m = tl.load(m_ptr + m_off, mask=mask).to(tl.float32)
    if S_SCALAR:
        s = s_scalar
    else:
        s = tl.load(s_ptr + s_off, mask=mask).to(tl.float32)
    # alpha scales other_sub only.
    res = x * m - alpha * s
    tl.store(out_ptr + offs, res.to(out_ptr.dtype.element_ty), mask=mask)


def _broadcast_shape(*shapes):
    nd = max(len(s) for s in shapes)
    padded = [(1,) * (nd - len(s)) + tuple(s) for s in shapes]
    shape = []
    for sizes in zip(*padded):
        big = {s for s in sizes if s != 1}
        if len(big) > 1:
            raise RuntimeError(f"shapes {[tuple(s) for s in shapes]} are not broadcastable")
        shape.append(big.pop() if big else 1)
    return tuple(shape)


def _strides4(t, shape):
    """Element strides of `t` broadcast to `shape` (<= 4 dims), padded to 4 dims at the front."""
    t = t.expand(shape)
    strides = [0 if s == 1 else st for s, st in zip(t.shape, t.stride())]
    return [0] * (4 - len(strides)) + strides


def fused_mul_sub(input: torch.Tensor, other_mul, other_sub, alpha=1, out=None) -> torch.Tensor:
    m_scalar = not isinstance(other_mul, torch.Tensor)
    s_scalar = not isinstance(other_sub, torch.Tensor)
    tensors = [input] + [t for t in (other_mul, other_sub) if isinstance(t, torch.Tensor)]
    shape = _broadcast_shape(*[t.shape for t in tensors])
    if len(shape) > 4:
        # Beyond 4 dims, materialise the broadcast operands once (views and copies only).
        tensors = [t.expand(shape).contiguous() for t in tensors]
    flat = all(t.is_contiguous() and tuple(t.shape) == shape for t in tensors)
    x = tensors[0]
    m = tensors[1] if not m_scalar else x
    s = tensors[-1] if not s_scalar else x

    n = 1
    for d in shape:
        n *= d
    direct = out is not None and out.is_contiguous() and tuple(out.shape) == shape and out.dtype == input.dtype
    res = out if direct else torch.empty(shape, dtype=input.dtype, device=input.device)
    if n:
        sizes = [1] * (4 - len(shape)) + list(shape)
        zeros = [0, 0, 0, 0]
        xs = zeros if flat else _strides4(x, shape)
        ms = zeros if (flat or m_scalar) else _strides4(m, shape)
        ss = zeros if (flat or s_scalar) else _strides4(s, shape)
        BLOCK = 1024
        _mul_sub_kernel[(triton.cdiv(n, BLOCK),)](
            x, m, s, res, n, float(alpha),
            float(other_mul) if m_scalar else 0.0, float(other_sub) if s_scalar else 0.0,
            sizes[1], sizes[2], sizes[3], *xs, *ms, *ss,
            FLAT=flat, M_SCALAR=m_scalar, S_SCALAR=s_scalar, BLOCK=BLOCK)
    if out is None:
        return res
    if not direct:
        out.copy_(res)
    return out
