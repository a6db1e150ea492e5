"""Plausible wrong versions of solutions/Activation/gelu_bf16.py: each must fail exe."""

VARIANTS = {
    "tanh as (e^2z - 1) / (e^2z + 1): inf/inf = NaN once x^3 overflows": (
        "t = 2.0 * tl.sigmoid(2.0 * inner) - 1.0",
        "t = (tl.exp(2.0 * inner) - 1.0) / (tl.exp(2.0 * inner) + 1.0)"),
    "mask drops the last element": ("mask = offsets < n_elements", "mask = offsets < n_elements - 1"),
    "strided input read as if contiguous": ("x = input.contiguous()", "x = input"),
    "output allocated as float32": ("y = torch.empty_like(x)", "y = torch.empty_like(x, dtype=torch.float32)"),
}
