"""Plausible wrong versions of solutions/Math/mul.py: each must fail exe."""

VARIANTS = {
    "Python number truncated to int": ("float(other), y, n", "int(other), y, n"),
    "broadcast path adds instead of multiplying": ("tl.store(y_ptr + offsets, (a * b).to(y_ptr.dtype.element_ty), mask=mask)\n\n\ndef _broadcast",
                                                   "tl.store(y_ptr + offsets, (a + b).to(y_ptr.dtype.element_ty), mask=mask)\n\n\ndef _broadcast"),
    "flat fast path used for non-contiguous operands": ("and input.is_contiguous() and other.is_contiguous()", ""),
    "out= not written when it is non-contiguous": ("    out.copy_(y)\n", "    pass\n"),
}
