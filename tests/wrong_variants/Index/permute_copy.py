"""Plausible wrong versions of solutions/Index/permute_copy.py: each must fail exe."""

VARIANTS = {
    "input assumed contiguous (strides of a contiguous layout)": ("[x.stride(p) for p in perm]", "[x.contiguous().stride(p) for p in perm]"),
    "tile mask drops the last column": ("(b < size_b)[None, :]", "(b < size_b - 1)[None, :]"),
    "all-size-1 shapes (0-d input) not handled": ("    if not sz:\n        sz, ist, ost = [1], [1], [1]\n", ""),
}
