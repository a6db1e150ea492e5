"""Plausible wrong versions of solutions/Fusion/fused_mul_add_logsoftmax_dropout_bmm.py: each must fail exe."""

VARIANTS = {
    "no max subtraction (exp overflows on large values)": (
        'm_safe = tl.where(m_new == float("-inf"), 0.0, m_new)', "m_safe = m_new * 0.0"),
    "running sum not rescaled when the max grows": ("total = total * tl.exp(m - m_safe) +", "total = total +"),
    "dim ignored (always the last dim)": ("    dim = dim % 3\n", "    dim = 2\n"),
    "kept elements not rescaled by 1/(1-p)": ("d = tl.where(r >= p, d * scale, 0.0)", "d = tl.where(r >= p, d, 0.0)"),
    "p read as the keep probability": ("d = tl.where(r >= p, d * scale, 0.0)", "d = tl.where(r < p, d * scale, 0.0)"),
    "other assumed to be a full contiguous (B, N, K) tensor (no broadcasting)": (
        "*b.stride(), *c.stride(), *lse.stride(), *mat2.stride()", "*b.stride(), N * K, K, 1, *lse.stride(), *mat2.stride()"),
    "out= ignored (a new tensor is returned)": (
        "y = out if out is not None else torch.empty(", "y = torch.empty("),
}
