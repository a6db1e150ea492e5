import torch
import triton
import triton.language as tl


@triton.jit
def _lgamma_2_plus(e):
    # ln Gamma(2 + e) for |e| <= 1/2 from its Taylor series at 2:
    #   (1 - gamma) e + sum_{k>=2} (-1)^k (zeta(k) - 1) / k * e^k,
    # cut after e^12 (remainder < 2e-9). It has relative accuracy right down to the zero at e = 0,
    # where formulas built from logs of shifted arguments cancel.
    p = 2.050721277567069e-05
    p = p * e - 4.492623673813314e-05
    p = p * e + 9.945751278180853e-05
    p = p * e - 0.00022315475845357939
    p = p * e + 0.0005096695247430425
    p = p * e - 0.001192753911703261
    p = p * e + 0.0028905103307415234
    p = p * e - 0.007385551028673986
    p = p * e + 0.020580808427784546
    p = p * e - 0.0673523010531981
    p = p * e + 0.3224670334241132
    p = p * e + 0.42278433509846713
    return p * e


@triton.jit
def _lgamma_positive(z):
    # ln Gamma(z) for z > 0 (z = +inf gives +inf).
    # z >= 8: Stirling's series (t - 1/2) ln t - t + ln(2 pi)/2 + 1/(12t) - 1/(360t^3) + ...;
    # the first omitted term is below 1e-11 there.
    r = 1.0 / z
    r2 = r * r
    series = r * (1.0 / 12.0 - r2 * (1.0 / 360.0 - r2 * (1.0 / 1260.0 - r2 * (1.0 / 1680.0))))
    big = (z - 0.5) * tl.log(z) - z + 0.9189385332046727 + series  # ln(2 pi) / 2
    # z < 8: bring the argument to 2 + e, |e| <= 1/2, with Gamma(z + 1) = z Gamma(z):
    #   1.5 <= z < 8: step down, ln Gamma(z) = ln Gamma(t) + ln((z-1)(z-2)...(t)), at most 6 steps
    #                 (z - k is exact in float32);
    #   0.5 <= z < 1.5: ln Gamma(z) = ln Gamma(2 + e) - log1p(e), e = z - 1 (exact);
    #   0 < z < 0.5:  ln Gamma(z) = ln Gamma(2 + z) - ln(z (z + 1)).
    t = z
    p = tl.full(z.shape, 1.0, tl.float32)
    for _ in tl.static_range(6):
        c = t >= 2.5
        t = tl.where(c, t - 1.0, t)
        p = tl.where(c, p * t, p)
    # log1p(e) for |e| <= 1/2 as 2 atanh(s), s = e / (2 + e): no 1 + e rounding.
    e1 = z - 1.0
    s = e1 / (2.0 + e1)
    s2 = s * s
    q = 1.0 / 15.0
    q = q * s2 + 1.0 / 13.0
    q = q * s2 + 1.0 / 11.0
    q = q * s2 + 1.0 / 9.0
    q = q * s2 + 1.0 / 7.0
    q = q * s2 + 1.0 / 5.0
    q = q * s2 + 1.0 / 3.0
    log1p_e1 = 2.0 * (s + s * s2 * q)
    e = tl.where(z < 0.5, z, tl.where(z < 1.5, e1, t - 2.0))
    corr = tl.where(z < 0.5, -tl.log(z * (z + 1.0)), tl.where(z < 1.5, -log1p_e1, tl.log(p)))
    small = _lgamma_2_plus(e) + corr
    return tl.where(z < 8.0, small, big)


@triton.jit
def _gammaln_kernel(x_ptr, y_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)  # int64: inputs can exceed 2**31
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=1.0).to(tl.float32)
    neg = x < 0.0
    # Negative x: reflection ln|Gamma(x)| = ln pi - ln|sin(pi x)| - ln Gamma(1 - x). The sine is
    # taken of r = x - nearest integer, which is exact in float32 (so it stays accurate next to the
    # poles), rather than of the rounded product pi * x.
    z = tl.where(neg, 1.0 - x, x)
    lg = _lgamma_positive(tl.where(z > 0.0, z, 1.0))
    r = x - tl.floor(x + 0.5)
    sin_pr = tl.sin(3.141592653589793 * r)
    refl = 1.1447298858494002 - tl.log(tl.abs(sin_pr)) - lg  # 1.1447... = ln(pi)
    y = tl.where(neg, refl, lg)
    # Poles: ln|Gamma| = +inf at ±0 and at every negative integer (every negative float32 beyond
    # 2**23 is one), and ln|Gamma(±inf)| = +inf.
    pole = (x == 0.0) | (neg & (r == 0.0)) | (tl.abs(x) == float("inf"))
    y = tl.where(pole, float("inf"), y)
    y = tl.where(x != x, x, y)  # NaN in, NaN out
    tl.store(y_ptr + offsets, y.to(y_ptr.dtype.element_ty), mask=mask)


def gammaln(input: torch.Tensor, out: torch.Tensor = None) -> torch.Tensor:
    x = input.contiguous()
    n = x.numel()
    # Write straight into `out` when it is dense; otherwise go through a dense buffer and copy.
    direct = out is not None and out.is_contiguous() and out.shape == x.shape and out.dtype == x.dtype
    y = out if direct else torch.empty_like(x)
    if n:
        BLOCK = 1024
        _gammaln_kernel[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK)
    if out is None:
        return y.view(input.shape)
    if not direct:
        out.copy_(y)
    return out
