"""Plausible wrong versions of solutions/Math/reciprocal.py: each must fail exe."""

VARIANTS = {
    "division by zero guarded to 0": ("y = 1.0 / x", "y = tl.where(x == 0.0, 0.0, 1.0 / x)"),
    "computed in float16": ("y = 1.0 / x", "y = (1.0 / x.to(tl.float16)).to(tl.float32)"),
    "sign dropped (1/|x|)": ("y = 1.0 / x", "y = 1.0 / tl.abs(x)"),
    "via rsqrt(x*x) (overflows/underflows)": ("y = 1.0 / x", "y = tl.where(x < 0, -1.0, 1.0) * tl.rsqrt(x * x)"),
    "direct out= never written": ("y = out if direct else torch.empty_like(x)", "y = torch.empty_like(x)"),
    "mask drops the last element": ("mask = offsets < n_elements", "mask = offsets < n_elements - 1"),
}
