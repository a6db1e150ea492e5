"""Plausible wrong versions of solutions/Fusion/fused_tanh_linear.py: each must fail exe."""

VARIANTS = {
    # the accumulator rounded to float16 after every K tile: a float16 accumulation
    "float16 accumulator": (
        "        acc = tl.dot(a, b, acc, out_dtype=tl.float32)  # float16 x float16 -> float32 accumulator\n",
        "        acc = tl.dot(a, b, acc, out_dtype=tl.float32).to(tl.float16).to(tl.float32)\n"),
    "tanh as (exp(2z) - 1) / (exp(2z) + 1) (inf / inf for large z)": (
        "    y = tl.where(acc < 0.0, -t, t)\n",
        "    y = (tl.exp(2.0 * acc) - 1.0) / (tl.exp(2.0 * acc) + 1.0)\n"),
    "bias dropped": ("        acc += bias[None, :]\n", "        acc += 0.0 * bias[None, :]\n"),
    "sign of negative z lost": ("    y = tl.where(acc < 0.0, -t, t)\n", "    y = t\n"),
    "weight assumed contiguous (row stride = K)": ("weight.stride(0), weight.stride(1)", "K, 1"),
}
