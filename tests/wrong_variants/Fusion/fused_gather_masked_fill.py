"""Plausible wrong versions of solutions/Fusion/fused_gather_masked_fill.py: each must fail exe."""

VARIANTS = {
    "mask inverted (value written where the mask is False)": ("y = tl.where(fill, v, x)", "y = tl.where(fill, x, v)"),
    "gather coordinate added on top of the index (dim not replaced)": (
        "    if G != 3:\n        xr += c3 * xs3\n", "    xr += c3 * xs3\n"),
    "index scaled by the last dim's stride instead of the gather dim's": ("idx * xs_g, mask=take)", "idx * xs4, mask=take)"),
    "broadcast gathered dims read the input at the result's coordinate": (
        "xs.append(input.stride(k) if real else 0)", "xs.append(input.stride(k))"),
    "out= not written (a new tensor is returned)": [("direct = out is not None and", "direct = False and"),
                                                    ("    if out is None:\n        return y\n", "    return y\n")],
}
