import math

import torch
import triton
import triton.language as tl

SHIFT_TO = 10.0  # asymptotic expansions are used once the argument is >= this
# Bernoulli numbers B_2 ... B_14
BERNOULLI = [1.0 / 6.0, -1.0 / 30.0, 1.0 / 42.0, -1.0 / 30.0, 5.0 / 66.0, -691.0 / 2730.0, 7.0 / 6.0]


@triton.jit
def _polygamma_kernel(x_ptr, y_ptr, n_elements, shift_to, sign_fact, inv_s_minus_1,
                      c1, c2, c3, c4, c5, c6, c7,
                      N: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)  # int64: inputs can exceed 2**31
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=1.0).to(tl.float32)
    # r = x - nearest integer is exact in float32; it locates the poles and feeds the reflection
    # formulas (period 1), so they stay accurate next to the poles.
    r = x - tl.floor(x + 0.5)
    finite = tl.abs(x) < float("inf")
    pole = (x <= 0.0) & (r == 0.0)  # 0 and the negative integers (all floats below -2**23)
    if N <= 1:
        # Reflection to the right half-line: psi(x) = psi(1 - x) - pi cot(pi x) and
        # psi'(x) = pi^2 / sin^2(pi x) - psi'(1 - x).
        z = tl.where(x < 0.5, 1.0 - x, x)
    else:
        # Orders >= 2 sum the Hurwitz series directly, also across the poles of negative x.
        z = x
    # Recurrence up to t = z + k >= shift_to, adding the terms f(z), ..., f(t - 1) explicitly:
    #   psi(z) = psi(t) - sum 1/(z + i),  zeta(s, z) = zeta(s, t) + sum (z + i)^-s.
    # The trip count is the block's largest need (inputs that end as inf/NaN/poles take no steps).
    live = mask & finite & (z == z) & (~pole) & (z < shift_to)
    n_steps = tl.max(tl.where(live, tl.ceil(shift_to - z), 0.0)).to(tl.int32)
    t = z
    acc = tl.zeros_like(z)
    for _ in range(0, n_steps):
        step = t < shift_to
        inv = 1.0 / tl.where(step, t, 1.0)
        if N == 0:
            term = inv
        else:
            term = inv
            for _k in tl.static_range(N):  # inv^(N + 1) by repeated products
                term = term * inv
        acc += tl.where(step, term, 0.0)
        t = tl.where(step, t + 1.0, t)
    inv = 1.0 / t
    inv2 = inv * inv
    if N == 0:
        # psi(t) ~ ln t - 1/(2t) - sum B_2j / (2j t^2j); the first omitted term is < 1e-12.
        tail = inv2 * (1.0 / 12.0 - inv2 * (1.0 / 120.0 - inv2 * (1.0 / 252.0 - inv2 * (
            1.0 / 240.0 - inv2 * (1.0 / 132.0)))))
        res = tl.log(t) - 0.5 * inv - tail - acc
        pr = 3.141592653589793 * r
        cot = tl.cos(pr) / tl.sin(pr)
        res = tl.where(x < 0.5, res - 3.141592653589793 * cot, res)
        # Poles: psi(+0) = -inf, psi(-0) = +inf (sign of the zero), NaN at negative integers.
        neg_zero = x.to(tl.int32, bitcast=True) < 0
        res = tl.where(x == 0.0, tl.where(neg_zero, float("inf"), float("-inf")), res)
        res = tl.where(pole & (x != 0.0), float("nan"), res)
        res = tl.where(x == float("-inf"), float("nan"), res)
    else:
        # zeta(s, t) ~ t^(1-s)/(s-1) + t^-s/2 + sum_j B_2j/(2j)! s(s+1)...(s+2j-2) t^(-s-2j+1)
        # with s = N + 1; the c_j (which depend only on s) come from the host.
        # Factored as t^(1-s) (1/(s-1) + t^-1 (1/2 + t^-1 poly)) so that the leading term does not
        # underflow through t^-s * t for huge t.
        w1 = tl.full(z.shape, 1.0, tl.float32)
        for _k in tl.static_range(N):
            w1 = w1 * inv  # t^(1-s)
        poly = c1 + inv2 * (c2 + inv2 * (c3 + inv2 * (c4 + inv2 * (c5 + inv2 * (c6 + inv2 * c7)))))
        zeta = w1 * (inv_s_minus_1 + inv * (0.5 + inv * poly)) + acc
        zeta = tl.where(t == float("inf"), 0.0, zeta)  # zeta(s, +inf) = 0
        res = sign_fact * zeta  # (-1)^(n+1) n! zeta(n+1, x)
        if N == 1:
            s = tl.sin(3.141592653589793 * r)
            res = tl.where(x < 0.5, 9.869604401089358 / (s * s) - res, res)  # pi^2 / sin^2
        # Poles: +inf for odd orders (both sides), (-1)^(n+1) inf for even orders.
        res = tl.where(pole, sign_fact * float("inf"), res)
        res = tl.where(x == float("-inf"), float("nan"), res)
    res = tl.where(x != x, x, res)  # NaN in, NaN out
    tl.store(y_ptr + offsets, res.to(y_ptr.dtype.element_ty), mask=mask)


def polygamma(n, input, *, out=None):
    n = int(n)
    if n < 0:
        raise ValueError(f"polygamma is only defined for n >= 0, got {n}")
    x = input.contiguous()
    numel = x.numel()
    # Write straight into `out` when it is dense; otherwise go through a dense buffer and copy.
    direct = out is not None and out.is_contiguous() and out.shape == x.shape and out.dtype == x.dtype
    y = out if direct else torch.empty_like(x)
    if numel:
        s = n + 1
        # c_j = B_2j / (2j)! * s (s+1) ... (s+2j-2), in double on the host.
        coeffs = []
        rising = float(s)
        for j in range(1, 8):
            coeffs.append(BERNOULLI[j - 1] / math.factorial(2 * j) * rising)
            rising *= (s + 2 * j - 1) * (s + 2 * j)
        sign_fact = (1.0 if n % 2 == 1 else -1.0) * float(math.factorial(n))
        inv_s_minus_1 = 1.0 / n if n > 0 else 0.0
        BLOCK = 1024
        _polygamma_kernel[(triton.cdiv(numel, BLOCK),)](x, y, numel, SHIFT_TO, sign_fact, inv_s_minus_1,
                                                         *coeffs, N=n, BLOCK=BLOCK)
    if out is None:
        return y.view(input.shape)
    if not direct:
        out.copy_(y)
    return out
