"""Plausible wrong versions of solutions/Math/sqrt_tanh.py: each must fail exe."""

VARIANTS = {
    "cancelling formula 1 - 2/(exp(2s)+1) for every s": ("return tl.where(s < 0.3, poly, big)", "return big"),
    "overflowing formula (e^2s - 1)/(e^2s + 1)": (
        "big = 1.0 - 2.0 / (tl.exp(2.0 * s) + 1.0)",
        "big = (tl.exp(2.0 * s) - 1.0) / (tl.exp(2.0 * s) + 1.0)"),
    "tanh of x, not of sqrt(x)": ("y = _tanh_nonneg(s)", "y = _tanh_nonneg(x)"),
    "series used far beyond its range": ("return tl.where(s < 0.3, poly, big)", "return tl.where(s < 3.0, poly, big)"),
    "negative inputs clamped to 0": ("s = tl.sqrt(x)", "s = tl.sqrt(tl.maximum(x, 0.0))"),
    "strided out= never written": ("        out.copy_(y.view(input.shape))\n", "        pass\n"),
}
