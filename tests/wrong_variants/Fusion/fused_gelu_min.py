"""Plausible wrong versions of solutions/Fusion/fused_gelu_min.py: each must fail exe."""

VARIANTS = {
    "textbook GELU x * Phi(x) instead of the task's x * erf(x / sqrt(2)) / 2": (
        "y = x * tl.math.erf(x * 0.7071067811865476) * 0.5",
        "y = x * (1.0 + tl.math.erf(x * 0.7071067811865476)) * 0.5"),
    "approximate ignored (always the erf form)": ("mode = modes[approximate]", "mode = 1"),
    "NaN ignored (only the smallest number counts)": (
        "return tl.where(has_nan, nan_v, best_v), tl.where(has_nan, nan_i, best_i)", "return best_v, best_i"),
    "last index on ties when lanes are merged": (
        "best_i = tl.min(tl.where(hit, acc_i, BIG), axis=AXIS)",
        "best_i = tl.max(tl.where(hit, acc_i, -1), axis=AXIS)"),
    "keepdim ignored with dim": ("shape = keep_shape if keepdim else squeezed", "shape = squeezed"),
    "out pair never filled": ("    if out is not None:\n        # The pair", "    if False:\n        # The pair"),
}
