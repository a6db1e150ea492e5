"""Plausible wrong versions of solutions/Fusion/fused_sigmoid_adaptive_avg_pool2d.py: each must fail exe."""

VARIANTS = {
    "window end rounded down (floor instead of ceil)": ("he = ((oh + 1) * H + OH - 1) // OH", "he = ((oh + 1) * H) // OH"),
    "sigmoid applied to the window sum": ("    y = tl.sum(acc, axis=1) / count\n    y = 1.0 / (1.0 + tl.exp(-y))",
                                         "    y = tl.sum(acc, axis=1)\n    y = 1.0 / (1.0 + tl.exp(-y))"),
    "sigmoid of the wrong sign": ("y = 1.0 / (1.0 + tl.exp(-y))", "y = 1.0 / (1.0 + tl.exp(y))"),
    "width window start from the height formula": ("ws = (ow * W) // OW", "ws = (ow * H) // OW"),
}
