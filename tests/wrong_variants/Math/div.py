"""Plausible wrong versions of solutions/Math/div.py: each must fail exe."""

VARIANTS = {
    "floor of the rounded quotient (no exact-remainder correction)": (
        "k = tl.where((rem != 0.0) & ((rem < 0.0) != (b < 0.0)), k - 1.0, k)", "k = k"),
    "trunc implemented as floor": ("res = tl.where(q < 0.0, tl.ceil(q), tl.floor(q))", "res = tl.floor(q)"),
    "floor correction with the sign test inverted": ("((rem < 0.0) != (b < 0.0))", "((rem < 0.0) == (b < 0.0))"),
    "rounding_mode ignored": ("MODE=_MODES[rounding_mode]", "MODE=0"),
    "inf // finite gives inf instead of NaN": ("k = tl.where(a_inf & (b != 0.0), float(\"nan\"), k)", "k = k"),
    "divisor read with the input's strides": ("y_off = i0 * ys0 + i1 * ys1 + i2 * ys2 + i3 * ys3",
                                              "y_off = i0 * xs0 + i1 * xs1 + i2 * xs2 + i3 * xs3"),
    "non-dense out never written": ("        out.copy_(res)\n", "        pass\n"),
}
