"""Plausible wrong versions of solutions/Fusion/fused_embedding_add_tanh.py: each must fail exe."""

VARIANTS = {
    "max_norm ignored": ("if max_norm is not None and N:", "if False and N:"),
    "every row renormalized, referenced or not": ("if tl.load(flag_ptr + v) != 0:", "if v >= 0:"),
    "norm_type ignored (always the 2-norm)": ("kind = 1 if p == 1.0 else 2 if p == 2.0 else 0", "kind = 2"),
    "rows rescaled to unit norm instead of max_norm": ("scale = max_norm / (norm + 1e-7)", "scale = 1.0 / (norm + 1e-7)"),
    "other's position strides swapped": ("o_row = r0 * os0 + r1 * os1", "o_row = r1 * os0 + r0 * os1"),
    "out= not written (a new tensor is returned)": [("direct = out is not None and", "direct = False and"),
                                                    ("    if out is None:\n        return y\n", "    return y\n")],
}
