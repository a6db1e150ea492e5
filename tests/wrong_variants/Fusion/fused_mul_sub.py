"""Plausible wrong versions of solutions/Fusion/fused_mul_sub.py: each must fail exe."""

VARIANTS = {
    "alpha ignored": ("res = x * m - alpha * s", "res = x * m - s"),
    "alpha scales the product instead of other_sub": ("res = x * m - alpha * s", "res = alpha * x * m - s"),
    "other_sub indexed with other_mul's strides": (
        "s_off = i0 * ss0 + i1 * ss1 + i2 * ss2 + i3 * ss3", "s_off = i0 * ms0 + i1 * ms1 + i2 * ms2 + i3 * ms3"),
    "output shape taken from input (no broadcast to a larger shape)": (
        "shape = _broadcast_shape(*[t.shape for t in tensors])",
        "shape = tuple(input.shape)\n    _broadcast_shape(*[t.shape for t in tensors])"),
    "non-dense out never written": ("        out.copy_(res)\n", "        pass\n"),
}
