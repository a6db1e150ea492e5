"""Plausible wrong versions of solutions/Fusion/fused_index_select_eq.py: each must fail exe."""

VARIANTS = {
    "always compared in float32 (int64 values beyond 2**24 collide)": (
        "eq = x.to(CMP) == other.to(CMP)", "eq = x.to(tl.float32) == other.to(tl.float32)"),
    "compared in the input's dtype (no type promotion)": (
        "cmp_dtype = torch.result_type(input, other)", "cmp_dtype = input.dtype"),
    "index ignored (first n_idx slices taken)": (
        "src = tl.load(idx_ptr + j * idx_s, mask=rmask, other=0).to(tl.int64)", "src = j"),
    "other read at the selected slice, not the result's position": (
        "other = tl.load(o_ptr + (o * os_o + j * os_j)", "other = tl.load(o_ptr + (o * os_o + (src % n_idx) * os_j)"),
    "out= not written (a new tensor is returned)": [("direct = out is not None and", "direct = False and"),
                                                    ("    if out is None:\n        return y\n", "    return y\n")],
}
