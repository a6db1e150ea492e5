"""Plausible wrong versions of solutions/Fusion/fused_add_gelu.py: each must fail exe."""

VARIANTS = {
    "alpha ignored": ("z = x + alpha * y", "z = x + y"),
    "alpha scales input instead of other": ("z = x + alpha * y", "z = alpha * x + y"),
    "tanh form without the cubic term": ("(z + 0.044715 * z * z * z)", "z"),
    "approximate ignored (always erf)": ('USE_TANH=approximate == "tanh"', "USE_TANH=False"),
    "erf argument scaled by 0.7 instead of 1/sqrt(2)": ("z * 0.7071067811865476", "z * 0.7"),
    "non-dense out never written": ("        out.copy_(res)\n", "        pass\n"),
}
