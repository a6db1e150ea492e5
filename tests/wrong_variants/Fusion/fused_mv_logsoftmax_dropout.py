"""Plausible wrong versions of solutions/Fusion/fused_mv_logsoftmax_dropout.py: each must fail exe."""

VARIANTS = {
    "no max subtraction (exp overflows on large logits)": ("    m = tl.max(z, axis=0)\n", "    m = tl.max(z, axis=0) * 0.0\n"),
    "block partial sums combined without rescaling to the global max": (
        "ps * tl.exp(pm - gmax)", "ps"),
    "log-sum-exp of the program's own block only": (
        "    lse = gmax + tl.log(total)\n",
        "    lse = tl.load(pmax_ptr + pid) + tl.log(tl.load(psum_ptr + pid))\n"),
    "p read as the keep probability": ("s = tl.where(r >= p, s * scale, 0.0)", "s = tl.where(r < p, s * scale, 0.0)"),
    "out= ignored (a new tensor is returned)": (
        "y = out if out is not None else torch.empty(", "y = torch.empty("),
}
