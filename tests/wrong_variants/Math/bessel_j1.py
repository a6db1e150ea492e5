"""Plausible wrong versions of solutions/Math/bessel_j1.py: each must fail exe."""

VARIANTS = {
    "even instead of odd (J1(-x) = J1(x))": ("y = tl.where(x < 0.0, -y, y)", "y = y"),
    "asymptotic phase x - pi/4 (order-0 phase)": ("large = ((pp + qq) * sn + (qq - pp) * cs)",
                                                  "large = ((pp - qq) * sn + (pp + qq) * cs)"),
    "leading asymptotic term only (Q1 dropped)": ("qq = qq * (8.0 * inv)", "qq = qq * 0.0"),
    "branch switch too early (asymptotic form below 8)": ("y = tl.where(a <= 8.0, small, large)",
                                                         "y = tl.where(a <= 3.0, small, large)"),
    "second zero factor dropped": ("small = a * d1 * d2 * p", "small = a * d1 * p"),
    "non-contiguous out never written": ("        out.copy_(y)\n", "        pass\n"),
}
