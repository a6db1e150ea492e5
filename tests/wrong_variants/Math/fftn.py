"""Plausible wrong versions of solutions/Math/fftn.py: each must fail exe."""

VARIANTS = {
    "exponent sign flipped (inverse transform)": ("theta = jk.to(tl.float32) * (6.283185307179586 / n)",
                                                  "theta = -jk.to(tl.float32) * (6.283185307179586 / n)"),
    "twiddle angle uses the input length, not the signal length s": (
        "theta = jk.to(tl.float32) * (6.283185307179586 / n)", "theta = jk.to(tl.float32) * (6.283185307179586 / L_in)"),
    "trimmed entries still summed": ("    J = min(L_in, n)\n", "    J = L_in\n"),
    "s without dim transforms the first len(s) dims": ("list(range(nd - len(s), nd))", "list(range(len(s)))"),
    "'ortho' scaled by 1/N": ("scale = 1.0 / math.sqrt(total)", "scale = 1.0 / total"),
    "normalisation applied in every pass": ("scale if last else 1.0)", "scale)"),
    "imaginary input part multiplies the twiddle with the wrong sign": (
        "acc_re += tl.dot(xi, s, input_precision=\"ieee\")", "acc_re -= tl.dot(xi, s, input_precision=\"ieee\")"),
    "out= not written when it is non-contiguous": ("    out.copy_(y)\n    return out\n", "    return out\n"),
}
