"""Plausible wrong versions of solutions/Quantization/linear_w4a16.py: each must fail exe."""

VARIANTS = {
    "truncation instead of round-half-even (the int cast truncates)": (
        "    t = (t + _RNE_MAGIC) - _RNE_MAGIC\n", ""),
    "nibbles not sign-extended (unsigned 0..15)": [
        ("lo = ((byte & 0xF) ^ 8) - 8", "lo = byte & 0xF"),
        ("hi = (((byte >> 4) & 0xF) ^ 8) - 8", "hi = (byte >> 4) & 0xF"),
    ],
    "nibble order swapped when unpacking": [
        ("acc = tl.dot(x0, lo.to(tl.float16), acc)", "acc = tl.dot(x0, hi.to(tl.float16), acc)"),
        ("acc = tl.dot(x1, hi.to(tl.float16), acc)", "acc = tl.dot(x1, lo.to(tl.float16), acc)"),
    ],
    "range [-8, 7] with scale amax / 8": [
        ("tl.full([BLOCK_N], 7.0, tl.float32)", "tl.full([BLOCK_N], 8.0, tl.float32)"),
        ("t = tl.minimum(tl.maximum(t, -7.0), 7.0)", "t = tl.minimum(tl.maximum(t, -8.0), 7.0)"),
    ],
    "float16 accumulation": [
        ("acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)", "acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float16)"),
        ("acc = tl.dot(x0, lo.to(tl.float16), acc)", "acc = tl.dot(x0, lo.to(tl.float16), acc, out_dtype=tl.float16)"),
        ("acc = tl.dot(x1, hi.to(tl.float16), acc)", "acc = tl.dot(x1, hi.to(tl.float16), acc, out_dtype=tl.float16)"),
        ("out = acc * s[None, :]", "out = acc.to(tl.float32) * s[None, :]"),
    ],
    "scale rounded to float16": (
        "s = tl.load(scale_ptr + rn, mask=n_mask, other=0.0)",
        "s = tl.load(scale_ptr + rn, mask=n_mask, other=0.0).to(tl.float16).to(tl.float32)"),
}
