"""Plausible wrong versions of solutions/Fusion/fused_add_mean.py: each must fail exe."""

VARIANTS = {
    "masked lanes not zeroed: a scalar `other` is added for the padding too": (
        "term = tl.where(mask, x + alpha * y, 0.0).to(ACC)", "term = (x + alpha * y).to(ACC)"),
    "alpha ignored": ("tl.where(mask, x + alpha * y, 0.0)", "tl.where(mask, x + y, 0.0)"),
    "alpha scales input instead of other": ("tl.where(mask, x + alpha * y, 0.0)", "tl.where(mask, alpha * x + y, 0.0)"),
    "partial sums divided by N, then divided again": (
        "part_div = divisor if split == 1 else 1", "part_div = divisor"),
    "dtype= ignored (float32 result)": ("        out_dtype = dtype\n", "        out_dtype = input.dtype\n"),
    "keepdim ignored": ("out_shape = keep_shape if keepdim else squeezed", "out_shape = squeezed"),
    "out= ignored: a new tensor is returned": [
        ("direct = (out is not None and", "direct = (False and"),
        ("    if out is not None:\n        out.copy_(result)\n        return out\n", "")],
}
