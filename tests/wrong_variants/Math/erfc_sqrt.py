"""Plausible wrong versions of solutions/Math/erfc_sqrt.py: each must fail exe."""

VARIANTS = {
    "erfc as 1 - erf in float32 (tail cancels to 0)": ("erfc_pos = t * tl.exp(q - a * a)",
                                                       "erfc_pos = 1.0 - tl.math.erf(a)"),
    "negative arguments not reflected (erfc(|x|))": ("e = tl.where(x < 0.0, 2.0 - erfc_pos, erfc_pos)",
                                                     "e = erfc_pos"),
    "sqrt of |x| (no NaN for negatives)": ("s = tl.sqrt_rn(x)", "s = tl.sqrt_rn(tl.abs(x))"),
    "outputs returned in the wrong order": ("return erfc_out.view(input.shape), sqrt_out.view(input.shape)",
                                            "return sqrt_out.view(input.shape), erfc_out.view(input.shape)"),
    "polynomial truncated after 6 terms": ("    q = -8.7280935492e-05\n    q = q * u + 8.0019716422e-06\n"
                                           "    q = q * u + 5.7375918518e-04\n    q = q * u - 2.2791374133e-04\n"
                                           "    q = q * u - 2.2887587704e-03\n    q = q * u + 1.7940684083e-03\n"
                                           "    q = q * u + 8.8088228540e-03\n",
                                           "    q = 8.8088228540e-03\n"),
}
