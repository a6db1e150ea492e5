"""Plausible wrong versions of solutions/Fusion/fused_sub_gelu.py: each must fail exe."""

VARIANTS = {
    "alpha ignored": ("z = x - alpha * y", "z = x - y"),
    "other added instead of subtracted": ("z = x - alpha * y", "z = x + alpha * y"),
    "alpha scales input instead of other": ("z = x - alpha * y", "z = alpha * x - y"),
    "tanh form without the cubic term": ("(z + 0.044715 * z * z * z)", "z"),
    "approximate ignored (always erf)": ('USE_TANH=approximate == "tanh"', "USE_TANH=False"),
    "textbook GELU z * Phi(z) instead of the task's z * erf(z / sqrt(2)) / 2": (
        "res = z * tl.math.erf(z * 0.7071067811865476) * 0.5",
        "res = 0.5 * z * (1.0 + tl.math.erf(z * 0.7071067811865476))"),
    "erf argument scaled by 0.7 instead of 1/sqrt(2)": ("z * 0.7071067811865476", "z * 0.7"),
    "non-dense out never written": ("        out.copy_(res)\n", "        pass\n"),
}
