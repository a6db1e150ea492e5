"""Plausible wrong versions of solutions/Fusion/fused_exp_mean.py: each must fail exe."""

VARIANTS = {
    "masked lanes load 0, so padding adds exp(0) = 1": (
        'x = tl.load(ptrs, mask=mask, other=float("-inf")).to(tl.float32)',
        "x = tl.load(ptrs, mask=mask, other=0).to(tl.float32)"),
    "exp applied again to the partial sums in the second pass": (
        "acc_t, acc_tl, exp=False)", "acc_t, acc_tl, exp=True)"),
    "partial sums divided by N, then divided again": (
        "part_div = divisor if split == 1 else 1", "part_div = divisor"),
    "dtype= ignored (float32 result)": ("        out_dtype = dtype\n", "        out_dtype = input.dtype\n"),
    "keepdim ignored": ("out_shape = keep_shape if keepdim else squeezed", "out_shape = squeezed"),
    "out= ignored: a new tensor is returned": [
        ("direct = (out is not None and", "direct = (False and"),
        ("    if out is not None:\n        out.copy_(result)\n        return out\n", "")],
}
