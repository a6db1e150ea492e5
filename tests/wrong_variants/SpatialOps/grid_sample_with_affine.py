"""Plausible wrong versions of solutions/SpatialOps/grid_sample_with_affine.py: each must fail exe."""

VARIANTS = {
    "base grid always uses the align_corners=True formula": ("    if ALIGN:\n        bx", "    if True:\n        bx"),
    "base grid without the half-pixel offset": (
        "(2.0 * jf + 1.0) / WO.to(tl.float32) - 1.0", "2.0 * jf / WO.to(tl.float32) - 1.0"),
    "theta read transposed (row and column strides swapped)": [
        ("t01 = tl.load(tb + stc,", "t01 = tl.load(tb + str_,"),
        ("t10 = tl.load(tb + str_,", "t10 = tl.load(tb + stc,"),
    ],
    "translation column ignored": ("gx = t00 * bx + t01 * by + t02", "gx = t00 * bx + t01 * by"),
    "reflection at the image edges also with align_corners": (
        "x = _reflect(x, 0.0, (size - 1).to(tl.float32))", "x = _reflect(x, -0.5, size.to(tl.float32))"),
    "bicubic pads the sample point instead of each tap": (
        "        fx = tl.floor(ix)\n        fy = tl.floor(iy)\n        wx0",
        "        ix = _pad_coord(ix, W, PADDING, ALIGN)\n        iy = _pad_coord(iy, H, PADDING, ALIGN)\n"
        "        fx = tl.floor(ix)\n        fy = tl.floor(iy)\n        wx0"),
    "nearest truncates instead of rounding": (
        "rx = tl.where((dx > 0.5) | ((dx == 0.5) & odd_x), fx + 1.0, fx)", "rx = fx"),
}
