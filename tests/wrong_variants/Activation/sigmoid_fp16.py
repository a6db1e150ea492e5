"""Plausible wrong versions of solutions/Activation/sigmoid_fp16.py: each must fail exe."""

VARIANTS = {
    "branches swapped (sigmoid(-x))": ("y = tl.where(x >= 0.0, r, e * r)", "y = tl.where(x >= 0.0, e * r, r)"),
    "exp(-x) without abs: wrong (and NaN) for negative x": ("e = tl.exp(-tl.abs(x))", "e = tl.exp(-x)"),
    "output allocated as float32": ("y = torch.empty_like(x)", "y = torch.empty_like(x, dtype=torch.float32)"),
    "mask drops the last element": ("mask = offsets < n_elements", "mask = offsets < n_elements - 1"),
}
