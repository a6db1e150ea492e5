"""Plausible wrong versions of solutions/Math/rsqrt.py: each must fail exe."""

VARIANTS = {
    "sqrt instead of its reciprocal": ("y = 1.0 / tl.sqrt_rn(x)", "y = tl.sqrt_rn(x)"),
    "abs taken first (negatives give numbers, not NaN)": ("y = 1.0 / tl.sqrt_rn(x)", "y = 1.0 / tl.sqrt_rn(tl.abs(x))"),
    "non-positive inputs guarded to 0": ("y = 1.0 / tl.sqrt_rn(x)", "y = tl.where(x <= 0.0, 0.0, 1.0 / tl.sqrt_rn(x))"),
    "sqrt(1/x) (-0.0 gives NaN, not -inf)": ("y = 1.0 / tl.sqrt_rn(x)", "y = tl.sqrt_rn(1.0 / x)"),
    "strided out= never written": ("        out.copy_(y.view(input.shape))\n", "        pass\n"),
    "mask drops the last element": ("mask = offsets < n_elements", "mask = offsets < n_elements - 1"),
}
