"""Plausible wrong versions of solutions/Math/add.py: each must fail exe."""

VARIANTS = {
    "alpha ignored": ("out = x + alpha * y", "out = x + y"),
    "alpha scales input instead of other": ("out = x + alpha * y", "out = alpha * x + y"),
    "output shape taken from input (no two-sided broadcast)": (
        "shape = tuple(input.shape) if y_is_scalar else _broadcast_shape(input.shape, other.shape)",
        "shape = tuple(input.shape)"),
    "other indexed with input's strides": ("y_off = i0 * ys0 + i1 * ys1 + i2 * ys2 + i3 * ys3",
                                           "y_off = i0 * xs0 + i1 * xs1 + i2 * xs2 + i3 * xs3"),
    "non-dense out never written": ("        out.copy_(res)\n", "        pass\n"),
}
