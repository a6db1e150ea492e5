"""Plausible wrong versions of solutions/Activation/selu.py: each must fail exe."""

VARIANTS = {
    "NaN dropped by tl.minimum": ("    neg = tl.where(x != x, x, neg)  # tl.minimum may drop NaN; keep it explicitly\n", ""),
    "scale used in place of alpha": ("neg = ALPHA * (", "neg = SCALE * ("),
    "scale not applied to the positive branch": (
        "y = SCALE * tl.where(x > 0.0, x, neg)", "y = tl.where(x > 0.0, x, SCALE * neg)"),
    "inplace result never copied back into a strided input": ("            input.copy_(y)\n", "            pass\n"),
}
