"""Plausible wrong versions of solutions/Math/trunc.py: each must fail exe."""

VARIANTS = {
    "floor for every sign (rounds negatives down)": ("tl.where(x < 0.0, tl.ceil(x), tl.floor(x))", "tl.floor(x)"),
    "truncation through an int32 cast": ("tl.where(x < 0.0, tl.ceil(x), tl.floor(x))",
                                         "x.to(tl.int32).to(tl.float32)"),
    "truncation through an int64 cast": ("tl.where(x < 0.0, tl.ceil(x), tl.floor(x))",
                                         "x.to(tl.int64).to(tl.float32)"),
    "ceil/floor swapped": ("tl.where(x < 0.0, tl.ceil(x), tl.floor(x))", "tl.where(x < 0.0, tl.floor(x), tl.ceil(x))"),
    "strided out= never written": ("        out.copy_(y.view(input.shape))\n", "        pass\n"),
    "mask drops the last element": ("mask = offsets < n_elements", "mask = offsets < n_elements - 1"),
    # trunc(-0.5) gives +0.0 through an integer: values right, the sign of zero lost
    "through an integer cast loses -0.0": ("y = tl.where(x < 0.0, tl.ceil(x), tl.floor(x))",
                                           "y = tl.where(tl.abs(x) < 8388608.0, x.to(tl.int32).to(tl.float32), x)"),
}
