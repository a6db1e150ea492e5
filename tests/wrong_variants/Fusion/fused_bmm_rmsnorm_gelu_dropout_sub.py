"""Plausible wrong versions of solutions/Fusion/fused_bmm_rmsnorm_gelu_dropout_sub.py: each must fail exe."""

VARIANTS = {
    "other subtracted before the dropout (dropped elements become 0, kept ones (g - other)/(1-p))": [
        ("            g = tl.where(r >= p, g * scale, 0.0)\n        o = tl.load(o_ptr + bid * sob + rn[:, None] * son + rp[None, :] * sop, mask=m2, other=0.0)\n        tl.store(ptrs, g - o, mask=m2)",
         "            o = tl.load(o_ptr + bid * sob + rn[:, None] * son + rp[None, :] * sop, mask=m2, other=0.0)\n"
         "            g = tl.where(r >= p, (g - o) * scale, 0.0)\n        else:\n"
         "            g = g - tl.load(o_ptr + bid * sob + rn[:, None] * son + rp[None, :] * sop, mask=m2, other=0.0)\n"
         "        tl.store(ptrs, g, mask=m2)")],
    "other assumed to be a full contiguous (B, N, P) tensor (no broadcasting)": (
        "*o.stride(), *y.stride()", "N * P, P, 1, *y.stride()"),
    "eps added outside the square root": (
        "inv_rms = 1.0 / tl.sqrt(sumsq / P + eps)", "inv_rms = 1.0 / (tl.sqrt(sumsq / P) + eps)"),
    "RMS of the last column tile only": ("sumsq += tl.sum(acc * acc, axis=1)", "sumsq = tl.sum(acc * acc, axis=1)"),
    "dropout_p read as the keep probability": ("g = tl.where(r >= p, g * scale, 0.0)", "g = tl.where(r < p, g * scale, 0.0)"),
    "out= ignored (a new tensor is returned)": (
        "y = out if out is not None else torch.empty(", "y = torch.empty("),
}
