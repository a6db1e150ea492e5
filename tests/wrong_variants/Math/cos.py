"""Plausible wrong versions of solutions/Math/cos.py: each must fail exe."""

VARIANTS = {
    "sine instead of cosine": ("y = tl.cos(x)", "y = tl.sin(x)"),
    "cos(x) as sin(x + pi/2) in float32 (shift loses large arguments)": (
        "y = tl.cos(x)", "y = tl.sin(x + 1.5707963267948966)"),
    "naive float32 reduction modulo 2*pi": (
        "y = tl.cos(x)", "y = tl.cos(x - 6.283185307179586 * tl.floor(x * 0.15915494309189535))"),
    "mask drops the last element": ("mask = offsets < n_elements", "mask = offsets < n_elements - 1"),
}
