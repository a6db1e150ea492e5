"""Plausible wrong versions of solutions/Normalization/normalized_cosine_similarity.py: each must fail exe."""

VARIANTS = {
    "eps_similarity clamps the product of the norms (old cosine_similarity formula)": [
        ("c1 = tl.maximum(tl.sqrt(tl.sum(sq1, axis=1)) / d1, eps_s)", "c1 = tl.sqrt(tl.sum(sq1, axis=1)) / d1"),
        ("c2 = tl.maximum(tl.sqrt(tl.sum(sq2, axis=1)) / d2, eps_s)", "c2 = tl.sqrt(tl.sum(sq2, axis=1)) / d2"),
        ("res = (d / (d1 * c1)) / (d2 * c2)", "res = d / (d1 * d2) / tl.maximum(c1 * c2, eps_s)")],
    "eps_norm clamp of the first normalization dropped": [
        ("d1 = tl.maximum(n1, eps_n)", "d1 = n1"), ("d2 = tl.maximum(n2, eps_n)", "d2 = n2")],
    "cosine step skipped: plain dot product of the p-normalized vectors": (
        "res = (d / (d1 * c1)) / (d2 * c2)", "res = d / (d1 * d2)"),
    "p_norm ignored (always the 2-norm)": ("    mode = _mode(p_norm)\n", "    mode = _P_TWO\n"),
    "float16 accumulation of the dot product": [
        ("dot = tl.zeros([BLOCK_V, BLOCK_L], dtype=tl.float32)", "dot = tl.zeros([BLOCK_V, BLOCK_L], dtype=tl.float16)"),
        ("dot += a * b", "dot += (a * b).to(tl.float16)"),
        ("d = tl.sum(dot, axis=1)", "d = tl.sum(dot, axis=1).to(tl.float32)")],
}
