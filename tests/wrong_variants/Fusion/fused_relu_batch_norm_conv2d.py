"""Plausible wrong versions of solutions/Fusion/fused_relu_batch_norm_conv2d.py: each must fail exe."""

VARIANTS = {
    "running variance updated with the biased variance": (
        "unbiased = tl.sum(m2, axis=0) / (n - 1.0)", "unbiased = tl.sum(m2, axis=0) / n"),
    "variance as E[x^2] - E[x]^2 over tiles (tile deviations dropped)": (
        "m2 += tl.where(t_mask, tm2 + rows * d * d, 0.0)", "m2 += tl.where(t_mask, tm2, 0.0)"),
    "eps ignored in inference": ("scale = 1.0 / tl.sqrt(var + eps)\n        if HAS_GAMMA:",
                                 "scale = 1.0 / tl.sqrt(var)\n        if HAS_GAMMA:"),
    "momentum applied to the old running value": (
        "((1.0 - momentum) * rm + momentum * mean)", "(momentum * rm + (1.0 - momentum) * mean)"),
    "training flag ignored (always running statistics)": ("TRAINING=bool(training)", "TRAINING=False"),
    "partial last tile counted as full": (
        "rows = tl.minimum(M - ti.to(tl.int64) * TILE_ROWS, TILE_ROWS).to(tl.float32)",
        "rows = tl.full([BLOCK_T], TILE_ROWS, tl.float32)"),
}
