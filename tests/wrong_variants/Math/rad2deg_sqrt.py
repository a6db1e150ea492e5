"""Plausible wrong versions of solutions/Math/rad2deg_sqrt.py: each must fail exe."""

VARIANTS = {
    "deg2rad factor (pi/180) instead of 180/pi": ("x * 57.29577951308232", "x * 0.017453292519943295"),
    "180/3.14 instead of 180/pi": ("x * 57.29577951308232", "x * (180.0 / 3.14)"),
    "outputs returned in the wrong order": ("return deg.view(input.shape), root.view(input.shape)",
                                            "return root.view(input.shape), deg.view(input.shape)"),
    "square root of |x|": ("root = tl.sqrt(x)", "root = tl.sqrt(tl.abs(x))"),
    "mask drops the last element": ("mask = offsets < n_elements", "mask = offsets < n_elements - 1"),
}
