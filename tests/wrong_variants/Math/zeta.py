"""Plausible wrong versions of solutions/Math/zeta.py: each must fail exe."""

VARIANTS = {
    "Euler-Maclaurin tail dropped (direct sum only)": ("res = s + tail", "res = s"),
    "tail without the half term": ("tail = b * w / (x - 1.0) + 0.5 * b", "tail = b * w / (x - 1.0)"),
    "first Bernoulli correction with the wrong sign": ("tail += t * (1.0 / 12.0)", "tail += t * (-1.0 / 12.0)"),
    "x < 1 not mapped to NaN": ('res = tl.where(x < 1.0, float("nan"), res)', "res = res"),
    "pole check missing for non-integer x": ('res = tl.where(q_nonpos & q_int, float("inf"), res)', "res = res"),
    "negative q with non-integer x not NaN": (
        'res = tl.where(q_nonpos & (~q_int) & (~x_int), float("nan"), res)', "res = res"),
    "sign of negative bases ignored for odd x": ("return tl.where((a < 0.0) & x_odd, -r, r)", "return r"),
    "no extra terms for negative q": ("n_terms = N_DIRECT + tl.where(neg, tl.ceil(-q), 0.0)",
                                      "n_terms = N_DIRECT + tl.where(neg, 0.0, 0.0)"),
    "strided out= never written": ("        out.copy_(y)\n", "        pass\n"),
}
