import torch
import triton
import triton.language as tl


@triton.jit
def _digamma_kernel(x_ptr, y_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)  # int64: inputs can exceed 2**31
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask).to(tl.float32)
    PI = 3.141592653589793

    neg = x < 0.0
    xi = tl.where(neg, tl.ceil(x), tl.floor(x))  # trunc(x)
    neg_int = neg & (x == xi)  # poles (and -inf): NaN
    # Reflection psi(x) = psi(1 - x) - pi / tan(pi x). tan has period pi, so use the exact
    # distance to the nearest integer, r = x - round(x) in [-1/2, 1/2]: pi * r then keeps its
    # relative accuracy right next to every pole, where pi * x (or pi * (x - trunc(x)), which
    # is near -pi beside the next pole) would lose it.
    r = x - tl.floor(x + 0.5)
    refl = PI * tl.cos(PI * r) / tl.sin(PI * r)

    # psi(z) for z = x (or 1 - x when reflecting), z > 0:
    # - z >= 10: asymptotic series ln z - 1/(2z) - sum B_2k / (2k z^2k) (five terms: < 1e-11).
    # - otherwise move z into [1, 2) with the recurrence psi(z) = psi(z - 1) + 1/(z - 1)
    #   (z - 1 is exact for z >= 2, and the added terms are positive, so nothing cancels) or,
    #   for z < 1, psi(z) = psi(z + 1) - 1/z; on [1, 2) use psi(z) = (z - x0) R(z - 3/2) with x0
    #   the positive root of psi split into float32 hi + lo, so psi keeps its relative accuracy
    #   next to the root (pushing z up to 10 instead would cancel ~2.3 against ~2.3 there).
    #   R is a degree-10 least-squares fit on [1, 2] (4e-9 relative error).
    z = tl.where(neg, 1.0 - x, x)
    big = z >= 10.0
    up = z < 1.0
    acc = tl.where(up, -1.0 / z, 0.0)
    zz = tl.where(up, z + 1.0, z)
    for _ in tl.static_range(8):
        m = (zz >= 2.0) & (zz < 10.0)
        acc = acc + tl.where(m, 1.0 / (zz - 1.0), 0.0)
        zz = tl.where(m, zz - 1.0, zz)
    t = zz - 1.5
    q = 1.1235070763e-02
    q = q * t - 1.6390994551e-02
    q = q * t + 1.6907932344e-02
    q = q * t - 2.5777337314e-02
    q = q * t + 4.0895120645e-02
    q = q * t - 6.2057726230e-02
    q = q * t + 9.4980681534e-02
    q = q * t - 1.4839874338e-01
    q = q * t + 2.4054265918e-01
    q = q * t - 4.2362749962e-01
    q = q * t + 9.5105587542e-01
    core = acc + ((zz - 1.4616321325302124) - 1.2438149938918909e-08) * q
    w = 1.0 / (z * z)
    series = w * (8.333333333333333e-2 - w * (8.333333333333333e-3 - w * (3.968253968253968e-3
                  - w * (4.166666666666667e-3 - w * 7.575757575757576e-3))))
    asym = tl.log(z) - 0.5 / z - series  # +inf -> inf
    res = tl.where(big, asym, core)  # NaN falls through to core: NaN
    res = tl.where(neg, res - refl, res)
    res = tl.where(neg_int, float("nan"), res)
    # psi(+0) = -inf, psi(-0) = +inf: 1/x carries the sign of zero.
    res = tl.where(x == 0.0, -1.0 / x, res)
    tl.store(y_ptr + offsets, res.to(y_ptr.dtype.element_ty), mask=mask)


def digamma(input_tensor: torch.Tensor) -> torch.Tensor:
    x = input_tensor.contiguous()
    y = torch.empty_like(x)
    n = x.numel()
    if n:
        BLOCK = 1024
        _digamma_kernel[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK)
    return y.view(input_tensor.shape)
