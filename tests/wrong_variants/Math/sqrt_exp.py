"""Plausible wrong versions of solutions/Math/sqrt_exp.py: each must fail exe."""

VARIANTS = {
    "order reversed: sqrt(exp(x))": [("s = tl.sqrt(x)", "s = tl.exp(x)"), ("y = tl.exp(s)", "y = tl.sqrt(s)")],
    "exp2 without the log2(e) factor": ("y = tl.exp(s)", "y = tl.exp2(s)"),
    "negative inputs clamped to 0 (1 instead of NaN)": ("s = tl.sqrt(x)", "s = tl.sqrt(tl.maximum(x, 0.0))"),
    "square root of |x|": ("s = tl.sqrt(x)", "s = tl.sqrt(tl.abs(x))"),
    "direct out= never written": ("y = out if direct else torch.empty_like(x)", "y = torch.empty_like(x)"),
    "mask drops the last element": ("mask = offsets < n_elements", "mask = offsets < n_elements - 1"),
}
