"""Plausible wrong versions of solutions/Activation/gelu_fp16.py: each must fail exe."""

VARIANTS = {
    "tanh as (e^2z - 1) / (e^2z + 1): inf/inf = NaN once x^3 overflows": (
        "t = 2.0 * tl.sigmoid(2.0 * inner) - 1.0",
        "t = (tl.exp(2.0 * inner) - 1.0) / (tl.exp(2.0 * inner) + 1.0)"),
    "erf argument scaled by 0.7 instead of 1/sqrt(2)": ("x * 0.7071067811865476", "x * 0.7"),
    "strided input read as if contiguous": ("x = input.contiguous()", "x = input"),
    "output allocated as float32": ("y = torch.empty_like(x)", "y = torch.empty_like(x, dtype=torch.float32)"),
}
