"""Plausible wrong versions of solutions/Fusion/fused_pairwise_distance_normalize.py: each must fail exe."""

VARIANTS = {
    "eps_distance added after the root": (
        "diff = tl.where(mask, a * inv_a[:, None] - b * inv_b[:, None] + eps_dist, 0.0)",
        "diff = tl.where(mask, a * inv_a[:, None] - b * inv_b[:, None], 0.0)"),
    "eps_norm added to the norm instead of used as a floor": (
        "inv_a = 1.0 / tl.maximum(_root(sa, p, MODE), eps_norm)", "inv_a = 1.0 / (_root(sa, p, MODE) + eps_norm)"),
    "normalization always with the 2-norm": ("sa += _reduce(_pow_abs(a, p, MODE), MODE)\n            sb += _reduce(_pow_abs(b, p, MODE), MODE)",
                                            "sa += tl.sum(a * a, axis=1)\n            sb += tl.sum(b * b, axis=1)"),
    "keepdim ignored": ("(R, 1) if keepdim else (R,)", "(R,)"),
}
