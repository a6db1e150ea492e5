"""Plausible wrong versions of solutions/Fusion/fused_sum_std.py: each must fail exe."""

VARIANTS = {
    "one-pass variance E[s^2] - E[s]^2 (cancels for sums with a large common value)": [
        ("d = tl.where(pmask, _row_sums(part_ptr, p, pmask, P, SPLIT, BLOCK, ACC) - mean, 0.0)",
         "d = _row_sums(part_ptr, p, pmask, P, SPLIT, BLOCK, ACC)"),
        ("std = tl.sqrt(tl.sum(m2, axis=0) / dof)", "std = tl.sqrt((tl.sum(m2, axis=0) - n * mean * mean) / dof)")],
    "correction ignored (population std)": ("dof = tl.maximum(n - correction, 0.0)", "dof = n"),
    "keepdim ignored (always 0-d)": ("shape = (1,) * nd if keepdim else ()", "shape = ()"),
    "only the first partial sum of each row used": ("for sp in range(0, SPLIT):", "for sp in range(0, 1):"),
    "K mask drops the last term of each row": ("m = rmask[:, None] & (k < K)[None, :]",
                                                "m = rmask[:, None] & (k < K - 1)[None, :]"),
    "out= ignored (a new tensor is returned)": ("    if out is None:\n        out = torch.empty(",
                                                "    if True:\n        out = torch.empty("),
}
