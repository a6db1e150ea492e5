"""Plausible wrong versions of solutions/Optimizer/Lion.py: each must fail exe."""

VARIANTS = {
    "sign(0) taken as +1": ("direction = tl.where(u > 0, 1.0, tl.where(u < 0, -1.0, u))",
                            "direction = tl.where(u >= 0, 1.0, -1.0)"),
    "decay applied after the sign step": ("p = p * decay - lr * direction", "p = (p - lr * direction) * decay"),
    "direction from the updated momentum": [
        ("    u = beta1 * m + one_minus_beta1 * g\n", "    m = beta2 * m + one_minus_beta2 * g\n    u = m\n"),
        ("    m = beta2 * m + one_minus_beta2 * g\n    tl.store", "    tl.store")],
    "betas swapped": ("float(beta1), 1.0 - beta1, float(beta2), 1.0 - beta2,",
                      "float(beta2), 1.0 - beta2, float(beta1), 1.0 - beta1,"),
    "momentum not written back (stale state)": ("    tl.store(m_ptr + offs, m, mask=mask)\n", ""),
    "decay without the lr factor": ("1.0 - lr * weight_decay", "1.0 - weight_decay"),
}
