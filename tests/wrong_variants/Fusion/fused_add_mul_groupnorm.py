"""Plausible wrong versions of solutions/Fusion/fused_add_mul_groupnorm.py: each must fail exe."""

VARIANTS = {
    "m = input1 * input2 + input2 (the product taken before the sum)": [
        ("        m = (a + b) * b\n        n_t", "        m = a * b + b\n        n_t"),
        ("        m = (a + b) * b\n        tl.store", "        m = a * b + b\n        tl.store")],
    "unbiased variance (n - 1)": (
        "var = tl.sum(m2_i + n_i * dm * dm, axis=0) / n ", "var = tl.sum(m2_i + n_i * dm * dm, axis=0) / (n - 1.0) "),
    "eps added outside the square root": ("rstd = 1.0 / tl.sqrt(var + eps)", "rstd = 1.0 / (tl.sqrt(var) + eps)"),
    "affine indexed by group instead of channel": ("c = c0 + (offs // S).to(tl.int32)", "c = (c0 // CG) + (offs * 0).to(tl.int32)"),
    "out= buffer not written": ("    direct = out is not None and out.is_contiguous()\n",
                                "    direct = False\n    out = None\n"),
    # input2 of input1's shape used as given: a strided one read flat
    "same-shape input2 read as dense": ("b = input2.expand(shape).contiguous()",
                                        "b = input2 if input2.shape == shape else input2.expand(shape).contiguous()"),
}
