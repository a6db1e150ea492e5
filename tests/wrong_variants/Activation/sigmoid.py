"""Plausible wrong versions of solutions/Activation/sigmoid.py: each must fail exe."""

VARIANTS = {
    "branches swapped (sigmoid(-x))": ("y = tl.where(x >= 0.0, r, e * r)", "y = tl.where(x >= 0.0, e * r, r)"),
    "exp(-x) without abs: wrong (and NaN) for negative x": ("e = tl.exp(-tl.abs(x))", "e = tl.exp(-x)"),
    "out= not written when out is strided": ("        out.copy_(y)\n", "        pass\n"),
    "out= ignored: a new tensor is returned": [
        ("direct = out is not None and", "direct = False and"),
        ("    if out is None:\n", "    if True:\n")],
}
