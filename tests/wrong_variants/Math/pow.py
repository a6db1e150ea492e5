"""Plausible wrong versions of solutions/Math/pow.py: each must fail exe."""

VARIANTS = {
    "sign of negative bases ignored (|x| ** y)": ("r = tl.where(x_neg_bit & y_odd, -r, r)", "r = r"),
    "negative base with fractional exponent not NaN": (
        'r = tl.where((x < 0.0) & (x > float("-inf")) & (~y_int), float("nan"), r)', "r = r"),
    "x**0 and 1**y special cases missing": ("return tl.where(one, 1.0, r)", "return r"),
    "natural exp of a base-2 log": ("r = tl.exp2(y * tl.log2(tl.abs(x)))", "r = tl.exp(y * tl.log2(tl.abs(x)))"),
    "odd test on the wrong quantity (x instead of y)": ("half = y * 0.5", "half = x * 0.5"),
    "scalar exponent truncated to int": ("float(exponent) if e_is_scalar else 0.0",
                                         "float(int(exponent)) if e_is_scalar else 0.0"),
    # Kept in bounds (no variant may rely on out-of-bounds reads).
    "broadcast strides padded on the wrong side": ("return [0] * (_MAX_DIMS - len(st)) + st",
                                                   "return st + [0] * (_MAX_DIMS - len(st))"),
    "strided out= never written": ("        out.copy_(y)\n", "        pass\n"),
}
