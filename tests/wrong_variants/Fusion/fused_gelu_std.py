"""Plausible wrong versions of solutions/Fusion/fused_gelu_std.py: each must fail exe."""

VARIANTS = {
    "correction ignored (always Bessel's N - 1)": (
        "denom = float(max(N - correction, 0))", "denom = float(max(N - 1, 0))"),
    "approximate ignored (always erf)": ('approximate == "tanh")', "False)"),
    "lane merge drops the between-lane term of M2": (
        "m2_tot = tl.sum(m2 + n * d * d, axis=axis)", "m2_tot = tl.sum(m2, axis=axis)"),
    "erf argument scaled by 0.7 instead of 1/sqrt(2)": ("x * 0.7071067811865476", "x * 0.7"),
    "keepdim ignored": ("out_shape = keep_shape if keepdim else squeezed", "out_shape = squeezed"),
    "out= ignored: a new tensor is returned": [
        ("direct = (out is not None and", "direct = (False and"),
        ("    if out is not None:\n        out.copy_(result)\n        return out\n", "")],
}
