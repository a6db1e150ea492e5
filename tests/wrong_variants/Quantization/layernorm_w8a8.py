"""Plausible wrong versions of solutions/Quantization/layernorm_w8a8.py: each must fail exe."""

VARIANTS = {
    "truncation instead of round-half-even (the int cast truncates)": (
        "    t = (t + _RNE_MAGIC) - _RNE_MAGIC\n", ""),
    "asymmetric range: scale amax / 128, clamp [-128, 127]": [
        ("s = tl.div_rn(amax, 127.0)", "s = tl.div_rn(amax, 128.0)"),
        ("t = tl.minimum(tl.maximum(t, -127.0), 127.0)", "t = tl.minimum(tl.maximum(t, -128.0), 127.0)"),
    ],
    "weight not rounded to float8": (
        "y = y * _round_e4m3(tl.load(w_ptr + c * s_w, mask=cm, other=0.0))",
        "y = y * tl.load(w_ptr + c * s_w, mask=cm, other=0.0)"),
    "float8 rounding toward zero (truncated mantissa)": (
        "r = ((a * inv_ulp + _RNE_MAGIC) - _RNE_MAGIC) * ulp", "r = tl.floor(a * inv_ulp) * ulp"),
    "bias rounded to float8 too": (
        "y = y + tl.load(b_ptr + c * s_b, mask=cm, other=0.0)",
        "y = y + _round_e4m3(tl.load(b_ptr + c * s_b, mask=cm, other=0.0))"),
    "eps added to the variance of the integers (not rescaled by s^2)": (
        "inv = 1.0 / tl.sqrt(var_n2 * (s * s) + nf * nf * eps)", "inv = 1.0 / (s * tl.sqrt(var_n2 + nf * nf * eps))"),
}
