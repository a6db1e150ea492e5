import torch
import triton
import triton.language as tl


@triton.jit
def _asin_core(s):
    # asin(s) for s in [0, 0.5]: s + s^3 P(s^2), minimax (Cephes asinf coefficients).
    z = s * s
    p = 4.2163199048e-2
    p = p * z + 2.4181311049e-2
    p = p * z + 4.5470025998e-2
    p = p * z + 7.4953002686e-2
    p = p * z + 1.6666752422e-1
    return s + s * z * p


@triton.jit
def _acos(x):
    # acos(x) = pi/2 - asin(x) for |x| <= 1/2; beyond, 2 asin(sqrt((1 - |x|)/2)) (mirrored for
    # x < 0), with 1 - |x| exact, so the result keeps its accuracy next to x = ±1.
    a = tl.abs(x)
    big = a > 0.5
    s = tl.where(big, tl.sqrt(0.5 * (1.0 - tl.minimum(a, 1.0))), a)
    r = _asin_core(s)
    small_res = 1.5707963267948966 - tl.where(x < 0.0, -r, r)
    big_res = tl.where(x < 0.0, 3.141592653589793 - 2.0 * r, 2.0 * r)
    return tl.where(big, big_res, small_res)


@triton.jit
def _cheb_t_kernel(x_ptr, n_ptr, y_ptr, n_elements, n_scalar,
                   N_IS_SCALAR: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)  # int64: inputs can exceed 2**31
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask).to(tl.float32)
    if N_IS_SCALAR:
        n = tl.full([BLOCK], n_scalar, tl.int32)
    else:
        n = tl.load(n_ptr + offsets, mask=mask, other=0).to(tl.int32)  # float degrees truncate
    nf = n.to(tl.float32)
    ax = tl.abs(x)

    # n <= 6: the three-term recurrence T_(k+1) = 2x T_k - T_(k-1), unrolled (exact polynomial,
    # also what defines T_0(NaN) = 1).
    t_prev = tl.full([BLOCK], 1.0, tl.float32)
    t_cur = x
    small = tl.where(n == 0, 1.0, x)
    for k in tl.static_range(2, 7):
        t_next = 2.0 * x * t_cur - t_prev
        small = tl.where(n == k, t_next, small)
        t_prev = t_cur
        t_cur = t_next

    # |x| <= 1: T_n(x) = cos(n acos x), no loop over n.
    trig = tl.cos(nf * _acos(x))

    # |x| > 1: T_n(x) = sign^n cosh(n acosh|x|). acosh|x| = log1p(d + sqrt(d (|x| + 1))) with
    # d = |x| - 1 exact; log1p(v) = log(1 + v) * v / ((1 + v) - 1) keeps accuracy for small v.
    d = ax - 1.0
    v = d + tl.sqrt(d * (ax + 1.0))
    w = 1.0 + v
    w1 = tl.where(w == 1.0, 1.0, w - 1.0)
    acosh = tl.where(w == 1.0, v, tl.log(w) * (v / w1))
    e = tl.exp(nf * acosh)
    hyp = 0.5 * (e + 1.0 / e)
    odd = (n % 2) != 0
    hyp = tl.where((x < 0.0) & odd, -hyp, hyp)

    res = tl.where(n <= 6, small, tl.where(ax <= 1.0, trig, hyp))  # NaN x: hyp branch -> NaN
    res = tl.where(n < 0, 0.0, res)
    tl.store(y_ptr + offsets, res.to(y_ptr.dtype.element_ty), mask=mask)


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


def chebyshev_polynomial_t(input: torch.Tensor, n, out: torch.Tensor = None) -> torch.Tensor:
    if isinstance(n, torch.Tensor) and n.numel() == 1 and n.dim() <= input.dim():
        n = n.reshape(()).item()  # one degree for every element: pass it as a scalar
    n_is_scalar = not isinstance(n, torch.Tensor)
    if n_is_scalar:
        shape = tuple(input.shape)
        x = input.contiguous()
        nt = x  # unused placeholder pointer
    else:
        # Per-element degrees: materialise both operands at the broadcast shape.
        shape = _broadcast_shape(input.shape, n.shape)
        x = input.expand(shape).contiguous()
        nt = n.expand(shape).contiguous()
    numel = 1
    for s in shape:
        numel *= s
    direct = out is not None and out.is_contiguous() and tuple(out.shape) == shape and out.dtype == input.dtype
    y = out if direct else torch.empty(shape, dtype=input.dtype, device=input.device)
    if numel:
        BLOCK = 1024
        _cheb_t_kernel[(triton.cdiv(numel, BLOCK),)](
            x, nt, y, numel, int(n) if n_is_scalar else 0, N_IS_SCALAR=n_is_scalar, BLOCK=BLOCK)
    if out is None:
        return y
    if not direct:
        out.copy_(y)
    return out
