"""Plausible wrong versions of solutions/Activation/relu.py: each must fail exe."""

VARIANTS = {
    "max(x, 0) drops NaN": ("y = tl.where(x < 0.0, 0.0, x)", "y = tl.maximum(x, 0.0)"),
    "inplace result never copied back into a strided input": ("            input.copy_(y)\n", "            pass\n"),
    "inplace ignored: a new tensor is returned": [
        ("y = x if (inplace and x is input) else torch.empty_like(x)", "y = torch.empty_like(x)"),
        ("    if inplace:\n", "    if False:\n")],
    "mask drops the last element": ("mask = offsets < n_elements", "mask = offsets < n_elements - 1"),
}
