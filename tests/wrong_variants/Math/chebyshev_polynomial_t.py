"""Plausible wrong versions of solutions/Math/chebyshev_polynomial_t.py: each must fail exe."""

VARIANTS = {
    "degree off by one (T_(n-1))": ("nf = n.to(tl.float32)", "nf = n.to(tl.float32) - 1.0"),
    "cos(n acos x) used outside [-1, 1] too": ("tl.where(ax <= 1.0, trig, hyp)", "trig"),
    "sign of odd degrees lost for x < -1": ("hyp = tl.where((x < 0.0) & odd, -hyp, hyp)", "hyp = hyp"),
    "negative degree not zero": ("res = tl.where(n < 0, 0.0, res)", "res = res"),
    "recurrence with x instead of 2x": ("t_next = 2.0 * x * t_cur - t_prev", "t_next = x * t_cur - t_prev"),
    "acos branch for |x| > 1/2 without the factor 2": ("big_res = tl.where(x < 0.0, 3.141592653589793 - 2.0 * r, 2.0 * r)",
                                                       "big_res = tl.where(x < 0.0, 3.141592653589793 - r, r)"),
    "T_0 computed as x * 0 + 1 (NaN for NaN inputs)": ("small = tl.where(n == 0, 1.0, x)",
                                                       "small = tl.where(n == 0, x * 0.0 + 1.0, x)"),
    "non-contiguous out never written": ("        out.copy_(y)\n", "        pass\n"),
}
