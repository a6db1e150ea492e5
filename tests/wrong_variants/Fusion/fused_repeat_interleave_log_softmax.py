"""Plausible wrong versions of solutions/Fusion/fused_repeat_interleave_log_softmax.py: each must fail exe."""

VARIANTS = {
    "repeat counts left out of the normalizer (log_softmax of the unrepeated input)": (
        "e = tl.where(valid, r[:, None] * tl.exp(x - m_safe[None, :]), 0.0)",
        "e = tl.where(valid, tl.exp(x - m_safe[None, :]), 0.0)"),
    "tiled instead of interleaved (src = j % K)": ("src = (j // R).to(tl.int64)", "src = (j % (L // R)).to(tl.int64)"),
    "elements with zero repeats still take part": ("valid = ((k < K) & (r > 0))[:, None]", "valid = (k < K)[:, None]"),
    "no max subtraction (exp overflows for large logits)": (
        "e = tl.where(valid, r[:, None] * tl.exp(x - m_safe[None, :]), 0.0)",
        "e = tl.where(valid, r[:, None] * tl.exp(x), 0.0)\n    m = tl.zeros_like(m)"),
    "chunks merged without rescaling to the common maximum": (
        "ps * tl.exp(pm - m_safe[None, :])", "ps"),
    "dtype argument ignored": ("out_dtype = input.dtype if dtype is None else dtype",
                               "out_dtype = input.dtype if input.dtype.is_floating_point else dtype"),
    "inclusive scan (every copy written one source later)": ("tl.store(offsets_ptr + idx, carry + incl - c, mask=idx < K)",
                                                            "tl.store(offsets_ptr + idx, carry + incl - 1, mask=idx < K)"),
}
