"""Plausible wrong versions of solutions/SpatialOps/grid_sample.py: each must fail exe."""

VARIANTS = {
    "align_corners conventions swapped": ("    if ALIGN:\n        return (coord + 1.0)", "    if not ALIGN:\n        return (coord + 1.0)"),
    "grid x and y swapped": [
        ("gx = tl.load(g_ptr + gbase, mask", "gx = tl.load(g_ptr + gbase + sgk, mask"),
        ("gy = tl.load(g_ptr + gbase + sgk, mask", "gy = tl.load(g_ptr + gbase, mask"),
    ],
    "reflection at the image edges also with align_corners": (
        "x = _reflect(x, 0.0, size_f - 1.0)", "x = _reflect(x, -0.5, size_f)"),
    "reflection result not clamped into the image": (
        "            x = _reflect(x, -0.5, size_f)\n        x = tl.minimum(tl.maximum(x, 0.0), size_f - 1.0)",
        "            x = _reflect(x, -0.5, size_f)"),
    "bilinear NE/SW weights swapped": [
        ("w_ne = tx * (1.0 - ty)", "w_ne = (1.0 - tx) * ty"),
        ("w_sw = (1.0 - tx) * ty", "w_sw = tx * (1.0 - ty)"),
    ],
    "bicubic pads the sample point instead of each tap": (
        "        fx = tl.floor(ix)\n        fy = tl.floor(iy)\n        wx0",
        "        ix = _pad_coord(ix, W, PADDING, ALIGN)\n        iy = _pad_coord(iy, H, PADDING, ALIGN)\n"
        "        fx = tl.floor(ix)\n        fy = tl.floor(iy)\n        wx0"),
    "bicubic with a = -0.5": ("a: tl.constexpr = -0.75", "a: tl.constexpr = -0.5"),
    "nearest truncates instead of rounding": (
        "rx = tl.where((dx > 0.5) | ((dx == 0.5) & odd_x), fx + 1.0, fx)", "rx = fx"),
}
