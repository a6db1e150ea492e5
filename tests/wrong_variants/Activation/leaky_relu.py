"""Plausible wrong versions of solutions/Activation/leaky_relu.py: each must fail exe."""

VARIANTS = {
    "negative_slope ignored (default 0.01 hard-coded)": ("x * negative_slope", "x * 0.01"),
    "inplace result never copied back into a strided input": ("            input.copy_(y)\n", "            pass\n"),
    "inplace ignored: a new tensor is returned": [
        ("y = x if (inplace and x is input) else torch.empty_like(x)", "y = torch.empty_like(x)"),
        ("    if inplace:\n", "    if False:\n")],
    "NaN dropped by max/min form": (
        "y = tl.where(x > 0.0, x, x * negative_slope)",
        "y = tl.maximum(x, 0.0) + negative_slope * tl.minimum(x, 0.0)"),
}
