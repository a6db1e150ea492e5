"""Plausible wrong versions of solutions/Pooling/adaptive_avg_pool2d.py: each must fail exe."""

VARIANTS = {
    "window end rounded down (floor instead of ceil)": ("he = ((oh + 1) * H + OH - 1) // OH", "he = ((oh + 1) * H) // OH"),
    "fixed window size H // OH (no overlap)": ("he = ((oh + 1) * H + OH - 1) // OH", "he = hs + H // OH"),
    "divides by the largest window instead of its own": (
        "count = ((he - hs) * (we - ws)).to(tl.float32)", "count = (KH_MAX * KW_MAX + 0 * hs).to(tl.float32)"),
    "window loop never goes past the first tile": ("for j0 in range(0, window, BLOCK_K):", "for j0 in range(0, 1):"),
    "None in output_size treated as 1": ("OH = H if oh is None else int(oh)", "OH = 1 if oh is None else int(oh)"),
    "count uses the window height only": ("count = ((he - hs) * (we - ws))", "count = ((he - hs) * 1)"),
}
