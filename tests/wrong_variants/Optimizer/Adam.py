"""Plausible wrong versions of solutions/Optimizer/Adam.py: each must fail exe."""

VARIANTS = {
    # AdamW's decoupled decay instead of Adam's L2 penalty: wd * param never enters the moments.
    "weight decay decoupled (AdamW) instead of L2": [
        ("        g = g + weight_decay * p  # L2 penalty: Adam adds it to the gradient\n",
         "        p = p * (1.0 - lr * weight_decay)\n")],
    "step count not written back (stale state)": ("        _advance_count_kernel[(1,)](step)\n", ""),
    "bias correction with the count before this step": ("    t = tl.load(step_ptr) + 1.0\n",
                                                         "    t = tl.maximum(tl.load(step_ptr), 1.0)\n"),
    "no bias correction": [("    step_size = lr / _one_minus_pow(t, log_beta1)\n", "    step_size = lr\n"),
                           ("    inv_sqrt_bc2 = 1.0 / tl.sqrt(_one_minus_pow(t, log_beta2))\n",
                            "    inv_sqrt_bc2 = 1.0\n")],
    "eps inside the square root": ("denom = tl.sqrt(v) * inv_sqrt_bc2 + eps",
                                   "denom = tl.sqrt(v * (inv_sqrt_bc2 * inv_sqrt_bc2) + eps)"),
    # The count is advanced before the update launch, which then adds one again (t = k + 2).
    "count advanced before the update kernel": [
        ("        if n:\n            # In-place",
         "        _advance_count_kernel[(1,)](step)\n        if n:\n            # In-place"),
        ("                    dst.copy_(src)\n        _advance_count_kernel[(1,)](step)\n",
         "                    dst.copy_(src)\n")],
    "bias correction as 1 - exp(t * log(beta)) in float32": (
        "    return tl.where(x > -0.5, -(x * q), 1.0 - tl.exp(x))", "    return 1.0 - tl.exp(x)"),
    "parameter without a gradient stepped with a zero gradient": (
        "            continue  # no gradient: torch.optim skips the parameter, count included",
        "            grad = torch.zeros_like(param)"),
    "second moment not written back (stale state)": ("    tl.store(v_ptr + offs, v, mask=mask)\n", ""),
    "empty parameter's count not advanced": ("        _advance_count_kernel[(1,)](step)\n",
                                             "        if n:\n            _advance_count_kernel[(1,)](step)\n"),
}
