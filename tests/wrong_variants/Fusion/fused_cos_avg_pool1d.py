"""Plausible wrong versions of solutions/Fusion/fused_cos_avg_pool1d.py: each must fail exe."""

VARIANTS = {
    "padding contributes cos(0) = 1 (cosine applied after padding)": (
        "acc += tl.where(mask, tl.cos(v.to(tl.float32)), 0.0)",
        "acc += tl.where(row_mask[:, None] & col_mask[None, :], tl.cos(v.to(tl.float32)), 0.0)"),
    "ceil-mode partial window divided by the full kernel size": (
        "div = tl.minimum(start + K, L + pad) - start", "div = K + 0 * start"),
    "ceil_mode ignored": ("L_out = _out_len(L, k, s, p, ceil_mode)", "L_out = _out_len(L, k, s, p, False)"),
    "ceil mode keeps a window starting in the right padding": ("        n -= 1\n", "        n -= 0\n"),
    "count_include_pad ignored": ("COUNT_PAD=bool(count_include_pad)", "COUNT_PAD=True"),
    "window misses its last tap": ("for m in range(0, K):", "for m in range(0, K - 1):"),
}
