"""Plausible wrong versions of solutions/Fusion/fused_elu_linear.py: each must fail exe."""

VARIANTS = {
    # the accumulator rounded to float16 after every K tile: a float16 accumulation
    "float16 accumulator": (
        "        acc = tl.dot(a, b, acc, out_dtype=tl.float32)  # float16 x float16 -> float32 accumulator\n",
        "        acc = tl.dot(a, b, acc, out_dtype=tl.float32).to(tl.float16).to(tl.float32)\n"),
    "alpha ignored (ELU with alpha = 1)": ("neg = alpha * (tl.exp(", "neg = 1.0 * (tl.exp("),
    "alpha * exp(z) - 1 instead of alpha * (exp(z) - 1)": (
        "alpha * (tl.exp(tl.minimum(acc, 0.0)) - 1.0)", "alpha * tl.exp(tl.minimum(acc, 0.0)) - 1.0"),
    "bias dropped": ("        acc += bias[None, :]\n", "        acc += 0.0 * bias[None, :]\n"),
    "input assumed contiguous (row stride = K)": ("x.stride(0), x.stride(1), weight", "K, 1, weight"),
}
