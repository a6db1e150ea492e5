"""Plausible wrong versions of solutions/Fusion/fused_hstack_div.py: each must fail exe."""

VARIANTS = {
    "trunc and floor swapped": ('_MODES = {None: 0, "trunc": 1, "floor": 2}', '_MODES = {None: 0, "trunc": 2, "floor": 1}'),
    "rounding_mode ignored (always true division)": ("MODE=_MODES[rounding_mode]", "MODE=0"),
    "divisor read at the member's own column, not the result's": ("((c0 + c) * ds_c + i * ds_i)", "(c * ds_c + i * ds_i)"),
    "member offset counted in columns, not elements (3-D members)": ("row, c0 * inner, c0, n_cb", "row, c0, c0, n_cb"),
    "trunc rounds negative quotients down": ("q = tl.where(q < 0, tl.ceil(q), tl.floor(q))", "q = tl.floor(q)"),
    "out= not written (a new tensor is returned)": [("direct = out is not None and", "direct = False and"),
                                                    ("    if out is None:\n        return y\n", "    return y\n")],
}
