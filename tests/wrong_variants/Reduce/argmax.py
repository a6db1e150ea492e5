"""Plausible wrong versions of solutions/Reduce/argmax.py: each must fail exe."""

VARIANTS = {
    "last index on ties when lanes are merged": (
        "best_i = tl.min(tl.where(hit, acc_i, BIG), axis=AXIS)",
        "best_i = tl.max(tl.where(hit, acc_i, -1), axis=AXIS)"),
    "later element wins ties inside a lane (>= instead of >)": (
        "larger = (v_a > v_b) | ((v_a == v_b) & (i_a < i_b))", "larger = v_a >= v_b"),
    "NaN ignored (only the largest number counts)": (
        "return tl.where(has_nan, nan_v, best_v), tl.where(has_nan, nan_i, best_i)", "return best_v, best_i"),
    "keepdim ignored": ("indices = torch.empty(keep_shape if keepdim else squeezed,", "indices = torch.empty(squeezed,"),
}
