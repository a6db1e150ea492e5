"""Plausible wrong versions of solutions/Reduce/min.py: each must fail exe."""

VARIANTS = {
    "last index on ties when lanes are merged": (
        "best_i = tl.min(tl.where(hit, acc_i, BIG), axis=AXIS)",
        "best_i = tl.max(tl.where(hit, acc_i, -1), axis=AXIS)"),
    "NaN ignored (only the smallest number counts)": (
        "return tl.where(has_nan, nan_v, best_v), tl.where(has_nan, nan_i, best_i)", "return best_v, best_i"),
    "keepdim ignored": ("out_shape = keep_shape if keepdim else squeezed", "out_shape = squeezed"),
    "mask drops the last element of each chunk": ("mask = row_mask[:, None] & (cols < n_end)[None, :]",
                                                  "mask = row_mask[:, None] & (cols < n_end - 1)[None, :]"),
}
