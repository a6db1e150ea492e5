"""Plausible wrong versions of solutions/SpatialOps/interpolate.py: each must fail exe."""

VARIANTS = {
    "scale always I/O, even when scale_factor is given": (
        "return 1.0 / s if s is not None and s > 0 else i / o", "return i / o"),
    "align_corners ignored": ("align = bool(align_corners) if interpolating else False", "align = False"),
    "bicubic with a = -0.5": ("a: tl.constexpr = -0.75", "a: tl.constexpr = -0.5"),
    "linear source coordinate not clamped at 0": [
        ("xh = _linear_src(oh, scale_h, ALIGN, True)", "xh = _linear_src(oh, scale_h, ALIGN, False)"),
        ("xw = _linear_src(ow, scale_w, ALIGN, True)", "xw = _linear_src(ow, scale_w, ALIGN, False)"),
    ],
    "nearest rounds instead of flooring": (
        "tl.floor(ow.to(tl.float32) * scale_w)", "tl.floor(ow.to(tl.float32) * scale_w + 0.5)"),
    "nearest-exact treated as nearest": ('"nearest-exact": _NEAREST_EXACT', '"nearest-exact": _NEAREST'),
    "bicubic taps shifted by one": ("h = hi - 1 + dh", "h = hi + dh"),
    "area window end floored": ("he = ((oh + 1) * H + OH - 1) // OH", "he = ((oh + 1) * H) // OH"),
}
