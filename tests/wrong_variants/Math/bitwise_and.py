"""Plausible wrong versions of solutions/Math/bitwise_and.py: each must fail exe."""

VARIANTS = {
    "bitwise OR instead of AND": ("tl.store(out_ptr + offs, x & y, mask=mask)", "tl.store(out_ptr + offs, x | y, mask=mask)"),
    "logical AND of nonzero values (int semantics lost)": (
        "tl.store(out_ptr + offs, x & y, mask=mask)",
        "tl.store(out_ptr + offs, ((x != 0) & (y != 0)).to(out_ty), mask=mask)"),
    "operands narrowed to 16 bits": ("x = tl.load(x_ptr + x_off, mask=mask).to(out_ty)",
                                     "x = tl.load(x_ptr + x_off, mask=mask).to(tl.int16).to(out_ty)"),
    "other indexed with input's strides": ("y_off = i0 * ys0 + i1 * ys1 + i2 * ys2 + i3 * ys3",
                                           "y_off = i0 * xs0 + i1 * xs1 + i2 * xs2 + i3 * xs3"),
    "non-dense out never written": ("        out.copy_(res)\n", "        pass\n"),
}
