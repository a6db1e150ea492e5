"""Plausible wrong versions of solutions/Math/asin.py: each must fail exe."""

VARIANTS = {
    "reduction branch uses pi instead of pi/2": ("1.5707963267948966 - 2.0 * r", "3.141592653589793 - 2.0 * r"),
    "reduction without the factor 1/2": ("z_big = 0.5 * (1.0 - a)", "z_big = 1.0 - a"),
    "odd symmetry lost (negative inputs give positive results)": ("y = tl.where(x < 0.0, -r, r)", "y = r"),
    "polynomial only (no range reduction near 1)": ("big = a > 0.5", "big = a > 2.0"),
    "out-of-domain clamped to ±pi/2 instead of NaN": ("s = tl.where(big, tl.sqrt(z_big), a)",
                                                      "s = tl.where(big, tl.sqrt(tl.maximum(z_big, 0.0)), a)"),
}
