"""Plausible wrong versions of solutions/Math/erf.py: each must fail exe."""

VARIANTS = {
    "normal-CDF scaling (erf(x / sqrt(2)))": ("y = tl.math.erf(x)", "y = tl.math.erf(x * 0.7071067811865476)"),
    "even instead of odd (erf(|x|))": ("y = tl.math.erf(x)", "y = tl.math.erf(tl.abs(x))"),
    # Abramowitz & Stegun 7.1.26: 1.5e-7 absolute error, but 1 - (...) cancels near 0.
    "Abramowitz-Stegun 7.1.26 absolute-error approximation": (
        "y = tl.math.erf(x)",
        "a = tl.abs(x)\n"
        "    t = 1.0 / (1.0 + 0.3275911 * a)\n"
        "    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))\n"
        "    r = 1.0 - poly * tl.exp(-a * a)\n"
        "    y = tl.where(x < 0.0, -r, r)"),
    "mask drops the last element": ("mask = offsets < n_elements", "mask = offsets < n_elements - 1"),
}
