"""Plausible wrong versions of solutions/SpatialOps/grid_sample_with_affine.py: each must fail exe."""

VARIANTS = {
    "base grid always uses the align_corners=True formula": ("    if align_corners:\n        return 2.0 / (n - 1), -1.0", "    if True:\n        return 2.0 / (n - 1), -1.0"),
    "base grid without the half-pixel offset": (
        "return 2.0 / n, 1.0 / n - 1.0", "return 2.0 / n, -1.0"),
    "theta read transposed (row and column strides swapped)": [
        ("t01 = tl.load(tb + stc,", "t01 = tl.load(tb + str_,"),
        ("t10 = tl.load(tb + str_,", "t10 = tl.load(tb + stc,"),
    ],
    "translation column ignored": ("gx = t00 * bx + t01 * by + t02", "gx = t00 * bx + t01 * by"),
    "reflection at the image edges also with align_corners": (
        "x = _reflect(x, 0.0, size_f - 1.0)", "x = _reflect(x, -0.5, size_f)"),
    "bicubic pads the sample point instead of each tap": (
        "        fx = tl.floor(ix)\n        fy = tl.floor(iy)\n        wx0",
        "        ix = _pad_coord(ix, W, PADDING, ALIGN)\n        iy = _pad_coord(iy, H, PADDING, ALIGN)\n"
        "        fx = tl.floor(ix)\n        fy = tl.floor(iy)\n        wx0"),
    "nearest truncates instead of rounding": (
        "rx = tl.where((dx > 0.5) | ((dx == 0.5) & odd_x), fx + 1.0, fx)", "rx = fx"),
}
