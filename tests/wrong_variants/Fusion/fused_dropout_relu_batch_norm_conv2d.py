"""Plausible wrong versions of solutions/Fusion/fused_dropout_relu_batch_norm_conv2d.py: each must fail exe."""

VARIANTS = {
    "unbiased variance (divides by count - 1)": ("var = m2_a / n_a", "var = m2_a / (n_a - 1.0)"),
    "between-tile spread left out of the variance": (
        "m2_b = tl.sum(m2_t + n_t[:, None] * d_t * d_t, axis=0)", "m2_b = tl.sum(m2_t, axis=0)"),
    "eps added outside the square root": ("1.0 / tl.sqrt(var + eps)", "1.0 / (tl.sqrt(var) + eps)"),
    "ReLU applied before the normalisation": (
        "v = tl.maximum((acc - mean[None, :]) * rstd[None, :], 0.0)",
        "v = (tl.maximum(acc, 0.0) - mean[None, :]) * rstd[None, :]"),
    "p read as the keep probability": ("v = tl.where(r >= p, v * scale, 0.0)", "v = tl.where(r < p, v * scale, 0.0)"),
    "stride ignored in the height direction": ("ih0 = oh * stride_h - pad_h", "ih0 = oh - pad_h"),
}
