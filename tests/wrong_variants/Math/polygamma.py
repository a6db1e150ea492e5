"""Plausible wrong versions of solutions/Math/polygamma.py: each must fail exe."""

VARIANTS = {
    "sign (-1)^n instead of (-1)^(n+1)": ("sign_fact = (1.0 if n % 2 == 1 else -1.0)", "sign_fact = (1.0 if n % 2 == 0 else -1.0)"),
    "n! factor forgotten": ("* float(math.factorial(n))", ""),
    "digamma reflection term dropped": ("res = tl.where(x < 0.5, res - 3.141592653589793 * cot, res)", "res = res"),
    "digamma asymptotic series without -1/(2t)": ("res = tl.log(t) - 0.5 * inv - tail - acc", "res = tl.log(t) - tail - acc"),
    "asymptotic expansion used from t >= 2": ("SHIFT_TO = 10.0", "SHIFT_TO = 2.0"),
    "sign of zero ignored: digamma(-0) = -inf": ('tl.where(neg_zero, float("inf"), float("-inf"))', 'float("-inf")'),
    "Hurwitz tail without the t^-s / 2 term": ("zeta = w1 * (inv_s_minus_1 + inv * (0.5 + inv * poly)) + acc",
                                              "zeta = w1 * (inv_s_minus_1 + inv * (inv * poly)) + acc"),
}
