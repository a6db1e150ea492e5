"""Plausible wrong versions of solutions/Math/abs.py: each must fail exe."""

VARIANTS = {
    "relu instead of abs (negatives clamped to 0)": ("tl.abs(x)", "tl.maximum(x, 0.0)"),
    "mask drops the last element": ("mask = offsets < n_elements", "mask = offsets < n_elements - 1"),
    "non-contiguous out never written": ("        out.copy_(y)\n", "        pass\n"),
    "returns a new tensor instead of out": ("    if out is None:\n        return y.view(input_tensor.shape)",
                                            "    if True:\n        return y.view(input_tensor.shape)"),
    # the value is right, the sign of zero is not: abs(-0.0) gives -0.0 (the task says +0.0)
    "negation where negative keeps -0.0": ("tl.abs(x)", "tl.where(x < 0, -x, x)"),
}
