"""Plausible wrong versions of solutions/Fusion/fused_silu_layer_norm_conv2d.py: each must fail exe."""

VARIANTS = {
    "unbiased variance": ("var = tl.sum(m2, axis=0) / count", "var = tl.sum(m2, axis=0) / (count - 1.0)"),
    "ln_eps ignored (default 1e-5 used)": ("float(ln_eps)", "1e-05"),
    "statistics of the first channel only (per-channel instead of per-sample)": (
        "rstd, T, HW, OC * T, float(OC * HW),", "rstd, T, HW, T, float(HW),"),
    "SiLU skipped": ("(v * tl.sigmoid(v)).to(", "(v).to("),
    "conv bias dropped": ("HAS_BIAS=bias is not None", "HAS_BIAS=False"),
}
