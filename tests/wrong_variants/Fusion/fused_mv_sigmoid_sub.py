"""Plausible wrong versions of solutions/Fusion/fused_mv_sigmoid_sub.py: each must fail exe."""

VARIANTS = {
    "alpha ignored": ("            y = s - alpha * o\n", "            y = s - o\n"),
    "A^T v (strides swapped; square matrices hide it)": (
        "        input.stride(0), input.stride(1), vec.stride(0),", "        input.stride(1), input.stride(0), vec.stride(0),"),
    "other assumed to be an (n,) vector (no broadcasting)": (
        "o.stride(0) if is_tensor else 0, o.stride(1) if is_tensor else 0", "0, 1"),
    "out= ignored (a new tensor is returned)": (
        "    y = out if out is not None else torch.empty(shape", "    y = torch.empty(shape"),
    "sigmoid(|z|): the branch for negative z dropped": (
        "    s = tl.where(z >= 0, 1.0 / (1.0 + e), e / (1.0 + e))", "    s = 1.0 / (1.0 + e)"),
}
