"""Plausible wrong versions of solutions/Fusion/fused_cross_entropy_softmax_layernorm.py: each must fail exe."""

VARIANTS = {
    "unbiased variance in the layer norm": ("var = tl.maximum(d2 * inv_c - mdev * mdev, 0.0)",
                                            "var = tl.maximum((d2 - d1 * mdev) / (C - 1.0), 0.0)"),
    "eps ignored in the layer norm": ("rstd = 1.0 / tl.sqrt(var + eps)", "rstd = 1.0 / tl.sqrt(var + 1e-5)"),
    "label smoothing dropped": ("float(label_smoothing), float(eps)", "0.0, float(eps)"),
    "ignored rows still counted in the mean": (
        "tl.store(part_w_ptr + pid, tl.sum(w, axis=0))",
        "tl.store(part_w_ptr + pid, tl.sum(tl.where(rmask & in_range, tl.where(ok, w, 1.0), 0.0), axis=0))"),
    "out= buffer ignored": ("    y = out if out is not None else", "    y = None if False else"),
}
