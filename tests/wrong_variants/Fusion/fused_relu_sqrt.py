"""Plausible wrong versions of solutions/Fusion/fused_relu_sqrt.py: each must fail exe."""

VARIANTS = {
    "inplace ignored: a new tensor is returned and the input left as it is": (
        "in_place = inplace and floating", "in_place = False"),
    "strided input not written back in place": ("        if x is not input:\n            input.copy_(x)\n", ""),
    "int64 input gives a float64 result": ("else torch.float32", "else torch.float64"),
    "int64 input rectified in place as well": (
        "    if in_place:\n        if x is not input:",
        "    if inplace and not floating:\n        input.clamp_(min=0)\n    if in_place:\n        if x is not input:"),
    "relu as max(x, 0) drops NaN": ("r = tl.where(x < 0, 0.0, x)", "r = tl.maximum(x, 0.0)"),
    "non-dense out never written": ("        out.copy_(y)\n", "        pass\n"),
}
