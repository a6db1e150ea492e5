"""Plausible wrong versions of solutions/Optimizer/RMSProp.py: each must fail exe."""

VARIANTS = {
    "eps inside the square root": ("p = p - lr * g / (tl.sqrt(v) + eps)", "p = p - lr * g / tl.sqrt(v + eps)"),
    "update divides by the average before this step": [
        ("    v = alpha * v + one_minus_alpha * (g * g)\n    p = p - lr * g / (tl.sqrt(v) + eps)\n",
         "    p = p - lr * g / (tl.sqrt(v) + eps)\n    v = alpha * v + one_minus_alpha * (g * g)\n")],
    "weight decay left out of the average": [
        ("        g = g + weight_decay * p  # L2 penalty: enters both the average and the update\n"
         "    v = alpha * v + one_minus_alpha * (g * g)\n",
         "        v = alpha * v + one_minus_alpha * (g * g)\n"
         "        g = g + weight_decay * p\n"
         "    else:\n"
         "        v = alpha * v + one_minus_alpha * (g * g)\n")],
    "average not written back (stale state)": ("    tl.store(v_ptr + offs, v, mask=mask)\n", ""),
    "alpha weights the new gradient": ("v = alpha * v + one_minus_alpha * (g * g)",
                                       "v = one_minus_alpha * v + alpha * (g * g)"),
}
