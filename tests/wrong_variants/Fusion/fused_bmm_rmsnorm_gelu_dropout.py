"""Plausible wrong versions of solutions/Fusion/fused_bmm_rmsnorm_gelu_dropout.py: each must fail exe."""

VARIANTS = {
    "eps added outside the square root": (
        "inv_rms = 1.0 / tl.sqrt(sumsq / P + eps)", "inv_rms = 1.0 / (tl.sqrt(sumsq / P) + eps)"),
    "root of the sum of squares instead of the mean": (
        "inv_rms = 1.0 / tl.sqrt(sumsq / P + eps)", "inv_rms = 1.0 / tl.sqrt(sumsq + eps)"),
    "RMS of the last column tile only": ("sumsq += tl.sum(acc * acc, axis=1)", "sumsq = tl.sum(acc * acc, axis=1)"),
    "approximate='tanh' ignored (always the erf form)": ('USE_TANH=approximate == "tanh"', "USE_TANH=False"),
    "dropout_p read as the keep probability": ("g = tl.where(r >= p, g * scale, 0.0)", "g = tl.where(r < p, g * scale, 0.0)"),
    "dropout applied in eval mode too": ("TRAINING=bool(training)", "TRAINING=True"),
}
