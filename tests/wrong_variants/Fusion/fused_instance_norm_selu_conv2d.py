"""Plausible wrong versions of solutions/Fusion/fused_instance_norm_selu_conv2d.py: each must fail exe."""

VARIANTS = {
    "SELU without its scale": ("acc = 1.0507009873554805 * tl.where(", "acc = 1.0 * tl.where("),
    "unbiased variance": ("var = tl.sum(m2, axis=0) / count", "var = tl.sum(m2, axis=0) / (count - 1.0)"),
    "eps ignored": ("tl.store(rstd_ptr + inst, 1.0 / tl.sqrt(var + eps))", "tl.store(rstd_ptr + inst, 1.0 / tl.sqrt(var))"),
    "tile deviations from the merged mean dropped": (
        "m2 += tl.where(t_mask, tm2 + rows * d * d, 0.0)", "m2 += tl.where(t_mask, tm2, 0.0)"),
    "SELU skipped": (
        "    acc = 1.0507009873554805 * tl.where(acc > 0, acc, 1.6732632423543772 * (tl.exp(tl.minimum(acc, 0.0)) - 1.0))\n", ""),
}
