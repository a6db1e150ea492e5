"""Plausible wrong versions of solutions/Optimizer/AdamW.py: each must fail exe."""

VARIANTS = {
    # Adam's L2 penalty instead of AdamW's decoupled decay: wd * param enters the moments.
    "weight decay coupled into the gradient": [
        ("    p = p * decay\n", "    g = g + wd * p\n"),
        ("eps,\n                  BLOCK: tl.constexpr):", "eps, wd,\n                  BLOCK: tl.constexpr):"),
        ("inv_sqrt_bc2, float(eps), BLOCK=BLOCK)", "inv_sqrt_bc2, float(eps), weight_decay, BLOCK=BLOCK)")],
    "bias correction with step - 1": [("bc1 = 1.0 - beta1 ** step", "bc1 = 1.0 - beta1 ** max(step - 1, 1)"),
                                      ("bc2 = 1.0 - beta2 ** step", "bc2 = 1.0 - beta2 ** max(step - 1, 1)")],
    "no bias correction": [("step_size = lr / bc1", "step_size = lr"),
                           ("inv_sqrt_bc2 = 1.0 / math.sqrt(bc2)", "inv_sqrt_bc2 = 1.0")],
    "eps inside the square root": ("denom = tl.sqrt(v) * inv_sqrt_bc2 + eps",
                                   "denom = tl.sqrt(v * (inv_sqrt_bc2 * inv_sqrt_bc2) + eps)"),
    "second moment not written back (stale state)": ("    tl.store(v_ptr + offs, v, mask=mask)\n", ""),
    "decay applied after the Adam update": [("    p = p * decay\n", ""),
                                            ("    p = p - step_size * (m / denom)\n",
                                             "    p = (p - step_size * (m / denom)) * decay\n")],
    "strided param updated in a copy only": ("    for dst, src in ((param, p), (exp_avg, m), (exp_avg_sq, v)):",
                                             "    for dst, src in ((exp_avg, m), (exp_avg_sq, v)):"),
}
