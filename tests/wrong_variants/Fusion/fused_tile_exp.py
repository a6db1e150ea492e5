"""Plausible wrong versions of solutions/Fusion/fused_tile_exp.py: each must fail exe."""

VARIANTS = {
    "columns repeat each element (repeat_interleave) instead of the whole row": (
        "xcol = cols % s3", "xcol = cols // (o3 // s3)"),
    "rows repeat each element instead of the whole block": ("(i2 % s2).to(tl.int64) * t2", "(i2 // (o2 // s2)).to(tl.int64) * t2"),
    "short dims aligned with the leading input dims (ones appended, not prepended)": (
        "reps = [1] * (n - len(dims)) + dims", "reps = dims + [1] * (n - len(dims))"),
    "extra dims in `dims` give the input trailing size-1 dims": (
        "sizes = [1] * (n - input.dim()) + list(input.shape)", "sizes = list(input.shape) + [1] * (n - input.dim())"),
    "out= not written (a new tensor is returned)": ("    if out is None:\n        return y\n", "    return y\n"),
    "peeled leading dims index the input without wrapping": ("x.select(0, j % s0)", "x.select(0, min(j, s0 - 1))"),
}
