"""Plausible wrong versions of solutions/Fusion/fused_conv2d_add.py: each must fail exe."""

VARIANTS = {
    "alpha ignored for a tensor other": ("        acc += alpha * other\n", "        acc += other\n"),
    "alpha ignored for a scalar other": ("float(alpha * other)", "float(other)"),
    "other assumed full-size contiguous (no broadcast)": (
        "o = other.expand(N, OC, OH, OW) if has_other else y", "o = other.contiguous() if has_other else y"),
    "out= ignored (result in a fresh tensor)": ("        y = out\n",
        "        y = torch.empty((N, OC, OH, OW), dtype=input.dtype, device=input.device)\n"),
    "padding subtracted before striding": ("ih0 = oh * stride_h - pad_h", "ih0 = (oh - pad_h) * stride_h"),
}
