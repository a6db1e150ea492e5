"""Plausible wrong versions of solutions/Math/floor.py: each must fail exe."""

VARIANTS = {
    "truncation toward zero via an int32 round trip": ("y = tl.floor(x)", "y = x.to(tl.int32).to(tl.float32)"),
    "round half up instead of floor": ("y = tl.floor(x)", "y = tl.floor(x + 0.5)"),
    "ceil - 1 (wrong on integers)": ("y = tl.floor(x)", "y = tl.ceil(x) - 1.0"),
    "out= not written when it is non-contiguous": ("        out.copy_(y)\n", "        pass\n"),
    "mask drops the last element": ("mask = offsets < n_elements", "mask = offsets < n_elements - 1"),
    # floor(-0.0) gives +0.0 through an integer: values right, the sign of zero lost
    "through an integer cast loses -0.0": ("y = tl.floor(x)",
                                           "y = tl.where(tl.abs(x) < 8388608.0, (x.to(tl.int32) - (x < x.to(tl.int32)"
                                           ".to(tl.float32)).to(tl.int32)).to(tl.float32), x)"),
}
