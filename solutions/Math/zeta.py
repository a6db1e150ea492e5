import torch
import triton
import triton.language as tl

_MAX_DIMS = 4  # broadcast/strided layouts up to this rank are indexed in-kernel without copies
_N_DIRECT = 9  # terms summed directly before the Euler-Maclaurin tail (as in Cephes)


@triton.jit
def _inv_pow(a, x, x_odd):
    # a ** -x for any real a (negative a only occurs with integer x): |a| ** -x via exp2/log2,
    # negative for a < 0 and odd x. a = 0 gives +inf (only at the poles, replaced later).
    r = tl.exp2(-x * tl.log2(tl.abs(a)))
    return tl.where((a < 0.0) & x_odd, -r, r)


@triton.jit
def _zeta_kernel(x_ptr, q_ptr, y_ptr, n_elements, x_scalar, q_scalar,
                 S1, S2, S3,
                 sx0, sx1, sx2, sx3,
                 sq0, sq1, sq2, sq3,
                 FLAT: tl.constexpr, X_IS_SCALAR: tl.constexpr, Q_IS_SCALAR: tl.constexpr,
                 N_DIRECT: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)  # int64: sizes can exceed 2**31
    mask = offsets < n_elements
    if FLAT:
        x_off = offsets
        q_off = offsets
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
        q_off = i0 * sq0 + i1 * sq1 + i2 * sq2 + i3 * sq3
    if X_IS_SCALAR:
        x = tl.zeros([BLOCK], tl.float32) + x_scalar
    else:
        x = tl.load(x_ptr + x_off, mask=mask, other=2.0).to(tl.float32)
    if Q_IS_SCALAR:
        q = tl.zeros([BLOCK], tl.float32) + q_scalar
    else:
        q = tl.load(q_ptr + q_off, mask=mask, other=1.0).to(tl.float32)

    x_int = tl.floor(x) == x
    half = x * 0.5
    x_odd = x_int & (tl.floor(half) != half)
    q_nonpos = q <= 0.0
    q_int = tl.floor(q) == q
    # A negative non-integer q (only meaningful for integer x) first needs ceil(-q) extra direct
    # terms so that the tail starts at w = q + n in [9, 10). |q| < 2**23 here: larger float32
    # values are integers, i.e. poles.
    neg = q_nonpos & (~q_int) & x_int & (x > 1.0)
    n_terms = N_DIRECT + tl.where(neg, tl.ceil(-q), 0.0)

    # Direct part: sum_{k < n_terms} (q + k) ** -x. The first N_DIRECT terms are common to all
    # elements; the block then runs to its largest n_terms, masking terms past each element's own.
    s = tl.zeros([BLOCK], tl.float32)
    for k in tl.static_range(N_DIRECT):
        s += _inv_pow(q + k, x, x_odd)
    n_max = tl.max(tl.where(mask, n_terms, 0.0), axis=0).to(tl.int32)
    for k in range(N_DIRECT, n_max):
        s += tl.where(k < n_terms, _inv_pow(q + k, x, x_odd), 0.0)

    # Euler-Maclaurin tail from w = q + n_terms (w >= 9):
    #   sum_{k>=0} (w+k)^-x = w^(1-x)/(x-1) + w^-x/2
    #                         + sum_j B_2j/(2j)! * x(x+1)...(x+2j-2) * w^(-x-2j+1)
    # Six Bernoulli terms (B_2..B_12) take it below float32 rounding for w >= 9; each term is
    # built from the previous one, so no factorial or Pochhammer product overflows.
    w = q + n_terms
    b = tl.exp2(-x * tl.log2(w))
    tail = b * w / (x - 1.0) + 0.5 * b
    iw2 = 1.0 / (w * w)
    t = b * x / w
    tail += t * (1.0 / 12.0)
    t *= (x + 1.0) * (x + 2.0) * iw2
    tail += t * (-1.0 / 720.0)
    t *= (x + 3.0) * (x + 4.0) * iw2
    tail += t * (1.0 / 30240.0)
    t *= (x + 5.0) * (x + 6.0) * iw2
    tail += t * (-1.0 / 1209600.0)
    t *= (x + 7.0) * (x + 8.0) * iw2
    tail += t * (1.0 / 47900160.0)
    t *= (x + 9.0) * (x + 10.0) * iw2
    tail += t * (-691.0 / 1307674368000.0)
    res = s + tail

    # Special values, applied from the lowest to the highest priority of torch's checks:
    # x == 1 -> inf; x < 1 -> NaN; q a non-positive integer -> inf; q < 0, x non-integer -> NaN.
    res = tl.where(q_nonpos & (~q_int) & (~x_int), float("nan"), res)
    res = tl.where(q_nonpos & q_int, float("inf"), res)
    res = tl.where(x < 1.0, float("nan"), res)
    res = tl.where(x == 1.0, float("inf"), res)
    tl.store(y_ptr + offsets, res.to(y_ptr.dtype.element_ty), mask=mask)


def _strides4(t: torch.Tensor, shape):
    """Strides of `t` broadcast to `shape`, left-padded to 4 dims (stride 0 where broadcast)."""
    st = list(t.expand(shape).stride())
    return [0] * (_MAX_DIMS - len(st)) + st


def zeta(input, other, out=None) -> torch.Tensor:
    x_is_scalar = not isinstance(input, torch.Tensor)
    q_is_scalar = not isinstance(other, torch.Tensor)
    if x_is_scalar and q_is_scalar:
        raise TypeError("zeta needs at least one tensor argument")
    ref = other if x_is_scalar else input
    if x_is_scalar:
        out_shape = tuple(other.shape)
    elif q_is_scalar:
        out_shape = tuple(input.shape)
    else:
        out_shape = tuple(torch.broadcast_shapes(input.shape, other.shape))
    x = None if x_is_scalar else input
    q = None if q_is_scalar else other
    if len(out_shape) > _MAX_DIMS:
        # Rare high-rank case: materialise the broadcast operands densely.
        x = None if x_is_scalar else x.expand(out_shape).contiguous()
        q = None if q_is_scalar else q.expand(out_shape).contiguous()
    flat = all(t is None or (tuple(t.shape) == out_shape and t.is_contiguous()) for t in (x, q))
    if out is not None and tuple(out.shape) != out_shape:
        out.resize_(out_shape)
    # Write straight into `out` when it is a dense float32 buffer; otherwise compute into a
    # scratch tensor and copy (out may be a strided view).
    direct = out is not None and out.dtype == torch.float32 and out.is_contiguous()
    y = out if direct else torch.empty(out_shape, dtype=torch.float32, device=ref.device)
    n = y.numel()
    if n:
        if flat:
            shape4, sx, sq = [1] * _MAX_DIMS, [0] * _MAX_DIMS, [0] * _MAX_DIMS  # unused
        else:
            shape4 = [1] * (_MAX_DIMS - len(out_shape)) + list(out_shape)
            sx = [0] * _MAX_DIMS if x_is_scalar else _strides4(x, out_shape)
            sq = [0] * _MAX_DIMS if q_is_scalar else _strides4(q, out_shape)
        BLOCK = 512
        _zeta_kernel[(triton.cdiv(n, BLOCK),)](
            y if x_is_scalar else x, y if q_is_scalar else q, y, n,
            float(input) if x_is_scalar else 0.0, float(other) if q_is_scalar else 0.0,
            shape4[1], shape4[2], shape4[3], *sx, *sq,
            FLAT=flat, X_IS_SCALAR=x_is_scalar, Q_IS_SCALAR=q_is_scalar, N_DIRECT=_N_DIRECT,
            BLOCK=BLOCK)
    if out is None:
        return y
    if not direct:
        out.copy_(y)
    return out
