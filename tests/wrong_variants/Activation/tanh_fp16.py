"""Plausible wrong versions of solutions/Activation/tanh_fp16.py: each must fail exe."""

VARIANTS = {
    "sign not restored for negative inputs": ("big = tl.where(x < 0.0, -big, big)", "big = big"),
    "(e^2x - 1) / (e^2x + 1): inf/inf = NaN for large |x|": (
        "big = 1.0 - 2.0 / (tl.exp(2.0 * ax) + 1.0)",
        "big = (tl.exp(2.0 * ax) - 1.0) / (tl.exp(2.0 * ax) + 1.0)"),
    "wrong sign of the last polynomial coefficient": ("p = p * z - 3.33332819422e-1", "p = p * z + 3.33332819422e-1"),
    "output allocated as float32": ("y = torch.empty_like(x)", "y = torch.empty_like(x, dtype=torch.float32)"),
}
