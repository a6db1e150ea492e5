"""Plausible wrong versions of solutions/Reduce/std.py: each must fail exe."""

VARIANTS = {
    "correction ignored (always Bessel's N - 1)": ("denom = float(max(N - correction, 0))", "denom = float(max(N - 1, 0))"),
    "lane merge drops the between-lane term of M2": ("m2_tot = tl.sum(m2 + n * d * d, axis=axis)", "m2_tot = tl.sum(m2, axis=axis)"),
    "partial means averaged without weighting by their counts": (
        "mean_tot = tl.sum(n * mean, axis=axis) / safe",
        "mean_tot = tl.sum(mean, axis=axis) / tl.sum(tl.where(n > 0, 1.0, 0.0), axis=axis)"),
    "keepdim ignored": ("out_shape = keep_shape if keepdim else squeezed", "out_shape = squeezed"),
    "out= ignored: a new tensor is returned": [
        ("direct = (out is not None and", "direct = (False and"),
        ("    if out is not None:\n        out.copy_(result)\n        return out\n", "")],
}
