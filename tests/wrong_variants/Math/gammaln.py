"""Plausible wrong versions of solutions/Math/gammaln.py: each must fail exe."""

VARIANTS = {
    "reflection of negative x forgotten (ln Gamma(|x|))": ("y = tl.where(neg, refl, lg)", "y = lg"),
    "sine of the rounded product pi * x": ("tl.sin(3.141592653589793 * r)", "tl.sin(3.141592653589793 * x)"),
    "Stirling series missing its 1/(12 z) correction": ("series = r * (1.0 / 12.0 -", "series = r * (0.0 -"),
    "x = 0 not treated as a pole": ("pole = (x == 0.0) | ", "pole = "),
    "-inf not handled (NaN from the reflection)": ('(tl.abs(x) == float("inf"))', '(x == float("inf"))'),
    "Taylor coefficient 1 - gamma replaced by -gamma (series about 1, used at 2)": (
        "p = p * e + 0.42278433509846713", "p = p * e - 0.5772156649015329"),
    "step-down product skips the last factor": ("        t = tl.where(c, t - 1.0, t)\n        p = tl.where(c, p * t, p)",
                                                "        p = tl.where(c, p * t, p)\n        t = tl.where(c, t - 1.0, t)"),
}
