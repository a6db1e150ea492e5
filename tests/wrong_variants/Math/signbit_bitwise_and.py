"""Plausible wrong versions of solutions/Math/signbit_bitwise_and.py: each must fail exe."""

VARIANTS = {
    "sign bit as x < 0 (misses -0.0)": ("sign = x.to(tl.int32, bitcast=True) < 0", "sign = x < 0.0"),
    "float -> bool through an integer cast (0.5 -> False)": ("xc = x != 0.0", "xc = x.to(tl.int32) != 0"),
    "float -> int rounds down instead of toward zero": ("xc = x.to(o_ptr.dtype.element_ty)",
                                                        "xc = tl.floor(x).to(o_ptr.dtype.element_ty)"),
    "bitwise OR instead of AND": ("res = xc & o\n", "res = xc | o\n"),
    "outputs returned in the wrong order": ("return sign.view(input.shape), res.view(input.shape)",
                                            "return res.view(input.shape), sign.view(input.shape)"),
}
