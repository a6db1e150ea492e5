"""Plausible wrong versions of solutions/Activation/relu_bf16.py: each must fail exe."""

VARIANTS = {
    "select on x > 0 maps NaN to 0": ("y = tl.where(x < 0.0, 0.0, x)", "y = tl.where(x > 0.0, x, 0.0)"),
    "x * (x > 0): -inf * 0 = NaN": ("y = tl.where(x < 0.0, 0.0, x)", "y = x * (x > 0.0).to(tl.float32)"),
    "output allocated as float32": ("y = torch.empty_like(x)", "y = torch.empty_like(x, dtype=torch.float32)"),
    "mask drops the last element": ("mask = offsets < n_elements", "mask = offsets < n_elements - 1"),
}
