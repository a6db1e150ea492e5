"""Plausible wrong versions of solutions/Math/floor.py: each must fail exe."""

VARIANTS = {
    "truncation toward zero via an int32 round trip": ("y = tl.floor(x)", "y = x.to(tl.int32).to(tl.float32)"),
    "round half up instead of floor": ("y = tl.floor(x)", "y = tl.floor(x + 0.5)"),
    "ceil - 1 (wrong on integers)": ("y = tl.floor(x)", "y = tl.ceil(x) - 1.0"),
    "out= not written when it is non-contiguous": ("        out.copy_(y)\n", "        pass\n"),
    "mask drops the last element": ("mask = offsets < n_elements", "mask = offsets < n_elements - 1"),
}
