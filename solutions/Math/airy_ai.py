import torch
import triton
import triton.language as tl


@triton.jit
def _airy_ai_kernel(x_ptr, y_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)  # int64: inputs can exceed 2**31
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask).to(tl.float32)
    SQRT_PI = 1.7724538509055159

    # |x| <= 2: Maclaurin series Ai(x) = c1 f(x) - c2 g(x) with f = sum a_k x^(3k),
    # g = sum b_k x^(3k+1), a_k = a_(k-1) / ((3k-1) 3k), b_k = b_(k-1) / (3k (3k+1)); nine
    # terms reach 1e-9 at |x| = 2, where c1 f and c2 g cancel by at most ~30x.
    w = x * x * x
    f = 3.9236655187e-17
    f = f * w + 2.1658633663e-14
    f = f * w + 9.0966261385e-12
    f = f * w + 2.7835675984e-09
    f = f * w + 5.8454919566e-07
    f = f * w + 7.7160493827e-05
    f = f * w + 5.5555555556e-03
    f = f * w + 1.6666666667e-01
    f = f * w + 1.0
    g = 6.2111466308e-18
    g = g * w + 3.7266879785e-15
    g = g * w + 1.7217298461e-12
    g = g * w + 5.8883160735e-10
    g = g * w + 1.4131958576e-07
    g = g * w + 2.2045855379e-05
    g = g * w + 1.9841269841e-03
    g = g * w + 8.3333333333e-02
    g = g * w + 1.0
    mid = 0.3550280538878172 * f - 0.2588194037928068 * (x * g)

    # x > 2: Ai(x) = exp(-zeta) F(1/zeta) / (2 sqrt(pi) x^(1/4)), zeta = 2/3 x^(3/2); F is a
    # degree-8 fit in s = 1/zeta on (0, 0.53] (~1e-9 error). exp underflows cleanly to 0.
    xp = tl.maximum(x, 2.0)
    tp = tl.sqrt(xp)
    zp = 0.6666666666666666 * xp * tp
    sp = 1.0 / zp
    F = 2.4682999294e-02
    F = F * sp - 6.9655676668e-02
    F = F * sp + 9.0447691552e-02
    F = F * sp - 7.5967786861e-02
    F = F * sp + 5.2055966804e-02
    F = F * sp - 3.7511550065e-02
    F = F * sp + 3.7111580445e-02
    F = F * sp - 6.9444049674e-02
    F = F * sp + 9.9999999885e-01
    pos = tl.exp(-zp) * F / (2.0 * SQRT_PI * tl.sqrt(tp))

    # x < -2: Ai(-y) = (P(s) cos(phi) + Q(s) sin(phi)) / (sqrt(pi) y^(1/4)), phi = zeta - pi/4,
    # s = 1/zeta, with P, Q degree-8 fits on (0, 0.53]. zeta grows like y^1.5, so it is carried
    # as an unevaluated sum hi + lo (fma error terms) and cos/sin(phi) are rebuilt from
    # sin/cos(hi) and the small angle lo - pi/4: the phase then stays accurate to a few ulps of
    # 1 instead of a few ulps of zeta.
    yn = tl.maximum(-x, 2.0)
    tn = tl.sqrt_rn(yn)
    tn_lo = tl.fma(-tn, tn, yn) / (2.0 * tn)  # sqrt(yn) = tn + tn_lo
    p_hi = yn * tn
    p_lo = tl.fma(yn, tn, -p_hi) + yn * tn_lo  # yn^1.5 = p_hi + p_lo
    # 2/3 = 0.6666666865348816 (exact float32) - 1.9868214925130207e-08
    z_hi = p_hi * 0.6666666865348816
    z_lo = tl.fma(p_hi, 0.6666666865348816, -z_hi) - p_hi * 1.9868214925130207e-08 + p_lo * 0.6666666865348816
    sn = 1.0 / z_hi
    P = -7.9748572271e-03
    P = P * sn - 2.5985714510e-02
    P = P * sn + 1.0636071378e-01
    P = P * sn - 1.3691357851e-01
    P = P * sn + 8.0876471479e-02
    P = P * sn - 2.1481455357e-03
    P = P * sn - 3.7033735272e-02
    P = P * sn - 1.7951191530e-06
    P = P * sn + 1.0000000052e+00
    Q = -1.1282269236e-01
    Q = Q * sn + 2.8895359614e-01
    Q = Q * sn - 2.9994388433e-01
    Q = Q * sn + 1.4106054409e-01
    Q = Q * sn + 2.1339194326e-03
    Q = Q * sn - 3.8577425839e-02
    Q = Q * sn + 4.0318372339e-05
    Q = Q * sn + 6.9443535251e-02
    Q = Q * sn + 3.0481972293e-09
    b = z_lo - 0.7853981633974483
    sb = tl.sin(b)
    cb = tl.cos(b)
    sz = tl.sin(z_hi)
    cz = tl.cos(z_hi)
    cos_phi = cz * cb - sz * sb
    sin_phi = sz * cb + cz * sb
    neg = (P * cos_phi + Q * sin_phi) / (SQRT_PI * tl.sqrt(tn))

    y = tl.where(x > 2.0, pos, tl.where(x < -2.0, neg, mid))  # NaN falls through to mid: NaN
    y = tl.where(tl.abs(x) == float("inf"), float("nan"), y)  # PyTorch returns NaN at ±inf
    tl.store(y_ptr + offsets, y.to(y_ptr.dtype.element_ty), mask=mask)


def airy_ai(input: torch.Tensor, out: torch.Tensor = None) -> torch.Tensor:
    x = input.contiguous()
    n = x.numel()
    # Write straight into `out` when it is dense; otherwise go through a dense buffer and copy.
    direct = out is not None and out.is_contiguous() and out.shape == x.shape and out.dtype == x.dtype
    y = out if direct else torch.empty_like(x)
    if n:
        BLOCK = 1024
        _airy_ai_kernel[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK)
    if out is None:
        return y.view(input.shape)
    if not direct:
        out.copy_(y)
    return out
