"""Plausible wrong versions of solutions/Math/log1p.py: each must fail exe."""

VARIANTS = {
    "naive log(1 + x) everywhere": ("y = tl.where(tl.abs(x) < 0.5, small, big)", "y = big"),
    "series branch chosen by x < 0.5 (also near -1)": ("tl.where(tl.abs(x) < 0.5,", "tl.where(x < 0.5,"),
    "series cut after the cubic term": ("small = 2.0 * (s + s * s2 * p)", "small = 2.0 * (s + s * s2 / 3.0)"),
    "s = x / (1 + x) instead of x / (2 + x)": ("s = x / (2.0 + x)", "s = x / (1.0 + x)"),
    "out= not written when it is non-contiguous": ("        out.copy_(y)\n", "        pass\n"),
}
