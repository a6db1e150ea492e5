"""Plausible wrong versions of solutions/Math/i0.py: each must fail exe."""

VARIANTS = {
    "asymptotic branch on x instead of |x| (NaN for negatives)": ("large = h * (h * q / tl.sqrt(ax))",
                                                                 "large = h * (h * q / tl.sqrt(x))"),
    "polynomial in x / 3.75 instead of its square": ("    t = t * t\n", ""),
    "asymptotic form without the 1/sqrt(x) factor": ("large = h * (h * q / tl.sqrt(ax))", "large = h * h * q"),
    "branches switched at |x| = 1 instead of 3.75": ("y = tl.where(ax <= 3.75, small, large)",
                                                     "y = tl.where(ax <= 1.0, small, large)"),
    "exponential halves both e^(x/2) of the signed x": ("h = tl.exp(0.5 * ax)", "h = tl.exp(0.5 * x)"),
    "out= not written when it is non-contiguous": ("        out.copy_(y)\n", "        pass\n"),
}
