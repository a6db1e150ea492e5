"""Plausible wrong versions of solutions/Math/logit.py: each must fail exe."""

VARIANTS = {
    "eps=0.0 treated like None (truthiness test)": ("clamp = eps is not None", "clamp = bool(eps)"),
    "eps ignored": ("CLAMP=clamp, BLOCK", "CLAMP=False, BLOCK"),
    "upper clamp bound eps instead of 1 - eps": ("hi = 1.0 - float(eps) if clamp", "hi = float(eps) if clamp"),
    "ratio z / (1 + z)": ("y = tl.log(z / (1.0 - z))", "y = tl.log(z / (1.0 + z))"),
    "log of the odds' reciprocal (sign flipped)": ("y = tl.log(z / (1.0 - z))", "y = tl.log((1.0 - z) / z)"),
    "out= not written when it is non-contiguous": ("        out.copy_(y)\n", "        pass\n"),
}
