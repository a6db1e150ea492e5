"""Plausible wrong versions of solutions/Fusion/fused_cos_signbit.py: each must fail exe."""

# Not a variant: s = c < 0 (or <= 0). A float32 cosine is never exactly +-0, and which sign a NaN
# carries is the platform's choice (the check takes the kernel's own), so a comparison agrees with
# the bit test on every value a kernel can return; it is wrong only in principle.
VARIANTS = {
    "sign bit of the input instead of the cosine": (
        "s = c.to(tl.int32, bitcast=True) < 0", "s = x.to(tl.int32, bitcast=True) < 0"),
    "naive float32 reduction modulo 2*pi": (
        "c = tl.cos(x)", "c = tl.cos(x - 6.283185307179586 * tl.floor(x * 0.15915494309189535))"),
    "mask drops the last element": ("mask = offsets < n_elements", "mask = offsets < n_elements - 1"),
}
