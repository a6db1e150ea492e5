"""Plausible wrong versions of solutions/Math/mul.py: each must fail exe."""

VARIANTS = {
    "Python number truncated to int": ("float(other), y, n", "int(other), y, n"),
    "broadcast path adds instead of multiplying": ("tl.store(y_ptr + y_off, (a * b)", "tl.store(y_ptr + y_off, (a + b)"),
    "flat fast path used for non-contiguous operands": ("and input.is_contiguous() and other.is_contiguous()", ""),
    "out= not written when it is non-contiguous": ("    out.copy_(y)\n", "    pass\n"),
}
