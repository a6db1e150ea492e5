"""Plausible wrong versions of solutions/Math/exp_sqrt.py: each must fail exe."""

VARIANTS = {
    "'simplified' to exp(x / 2), finite where the reference overflows": ("e = tl.exp(x)\n    y = tl.sqrt(e)", "y = tl.exp(0.5 * x)"),
    "square root forgotten": ("y = tl.sqrt(e)", "y = e"),
    "exp2 instead of exp": ("e = tl.exp(x)", "e = tl.exp2(x)"),
    "reciprocal square root": ("y = tl.sqrt(e)", "y = tl.rsqrt(e)"),
    "out= not written when it is non-contiguous": ("        out.copy_(y)\n", "        pass\n"),
}
