"""Plausible wrong versions of solutions/Fusion/fused_cos_signbit.py: each must fail exe."""

VARIANTS = {
    "sign bit of the input instead of the cosine": (
        "s = c.to(tl.int32, bitcast=True) < 0", "s = x.to(tl.int32, bitcast=True) < 0"),
    "comparison c <= 0 instead of the bit": ("s = c.to(tl.int32, bitcast=True) < 0", "s = c <= 0.0"),
    "naive float32 reduction modulo 2*pi": (
        "c = tl.cos(x)", "c = tl.cos(x - 6.283185307179586 * tl.floor(x * 0.15915494309189535))"),
    "mask drops the last element": ("mask = offsets < n_elements", "mask = offsets < n_elements - 1"),
}
