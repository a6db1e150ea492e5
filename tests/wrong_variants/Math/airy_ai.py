"""Plausible wrong versions of solutions/Math/airy_ai.py: each must fail exe."""

VARIANTS = {
    "Bi-like sign in the series (c1 f + c2 g)": ("mid = 0.3550280538878172 * f - 0.2588194037928068 * (x * g)",
                                                 "mid = 0.3550280538878172 * f + 0.2588194037928068 * (x * g)"),
    "oscillation phase zeta + pi/4 instead of zeta - pi/4": ("b = z_lo - 0.7853981633974483",
                                                             "b = z_lo + 0.7853981633974483"),
    "leading-order asymptotics only (F = 1, P = 1, Q = 0)": [
        ("pos = tl.exp(-zp) * F /", "pos = tl.exp(-zp) /"),
        ("neg = (P * cos_phi + Q * sin_phi)", "neg = (cos_phi)")],
    "decay amplitude without the x^(1/4) factor": ("F / (2.0 * SQRT_PI * tl.sqrt(tp))", "F / (2.0 * SQRT_PI)"),
    "series truncated after 4 terms": [
        ("    f = 3.9236655187e-17\n    f = f * w + 2.1658633663e-14\n    f = f * w + 9.0966261385e-12\n"
         "    f = f * w + 2.7835675984e-09\n    f = f * w + 5.8454919566e-07\n    f = f * w + 7.7160493827e-05\n",
         "    f = 7.7160493827e-05\n")],
    "±inf not mapped to NaN": ("y = tl.where(tl.abs(x) == float(\"inf\"), float(\"nan\"), y)", "y = y"),
    "non-contiguous out never written": ("        out.copy_(y)\n", "        pass\n"),
}
