"""Plausible wrong versions of solutions/Fusion/fused_masked_select_add_gelu.py: each must fail exe."""

VARIANTS = {
    "alpha ignored": ("s = x + alpha * o", "s = x + o"),
    "block offsets ignored (every block writes from position 0)": (
        "pos = tl.load(offsets_ptr + pid) + rank.to(tl.int64)", "pos = rank.to(tl.int64)"),
    "other indexed by input position, not result position": (
        "o = tl.load(o_ptr + pos * o_stride, mask=m, other=0.0)", "o = tl.load(o_ptr + (offs % n) * o_stride, mask=m, other=0.0)"),
    "tanh and erf forms swapped": ('USE_TANH=approximate == "tanh"', 'USE_TANH=approximate == "none"'),
    "inclusive rank (each element written one slot later)": (
        "rank = tl.cumsum(mi, axis=0) - mi", "rank = tl.cumsum(mi, axis=0)"),
    "out= not written (a new tensor is returned)": [("y = out if out.is_contiguous() else", "y = out if False else"),
                                                    ("    if out is None:\n        return y\n", "    return y\n")],
}
