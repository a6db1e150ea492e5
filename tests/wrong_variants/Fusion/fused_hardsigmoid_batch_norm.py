"""Plausible wrong versions of solutions/Fusion/fused_hardsigmoid_batch_norm.py: each must fail exe."""

VARIANTS = {
    "hardsigmoid with slope 1/3 (hardtanh-style scaling)": ("h = y * (1.0 / 6.0) + 0.5", "h = y * (1.0 / 3.0) + 0.5"),
    "upper clamp missing": ("tl.where(h > 1.0, 1.0, h)", "h"),
    "running_var updated with the biased variance": ("momentum * (m2 / (n - 1.0))", "momentum * (m2 / n)"),
    "batch normalized with the unbiased variance": (
        "tl.store(var_ptr + c, m2 / n)", "tl.store(var_ptr + c, m2 / (n - 1.0))"),
    "training flag ignored: running statistics always used": ("    if training:\n", "    if False:\n"),
}
