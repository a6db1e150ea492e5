"""Plausible wrong versions of solutions/Fusion/fused_pairwise_distance_adaptive_avg_pool2d.py: each must fail exe."""

VARIANTS = {
    "window end rounded down (floor instead of ceil)": ("he = ((i + 1) * H + OH - 1) // OH", "he = ((i + 1) * H) // OH"),
    "eps added after the root": ("diff = (sa - sb) / count + eps", "diff = (sa - sb) / count"),
    "window sums, not means": ("diff = (sa - sb) / count + eps", "diff = (sa - sb) + eps"),
    "keepdim ignored": ("lead + ((1,) if keepdim else ())", "lead"),
    "p = 2 assumed for every p": ("mode = 3 if math.isinf(p) else 1 if p == 1.0 else 2 if p == 2.0 else 0", "mode = 2"),
}
