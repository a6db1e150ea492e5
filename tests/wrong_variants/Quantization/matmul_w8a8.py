"""Plausible wrong versions of solutions/Quantization/matmul_w8a8.py: each must fail exe."""

VARIANTS = {
    "truncation instead of round-half-even (the int8 cast truncates)": (
        "        t = (t + _RNE_MAGIC) - _RNE_MAGIC\n", ""),
    "round half away from zero (floor(|t| + 0.5))": (
        "        t = (t + _RNE_MAGIC) - _RNE_MAGIC\n",
        "        t = tl.where(t >= 0.0, tl.floor(t + 0.5), -tl.floor(0.5 - t))\n"),
    "one scale per block of groups (max without axis)": (
        "amax = tl.maximum(amax, tl.max(tl.abs(v), axis=1))", "amax = tl.maximum(amax, tl.max(tl.abs(v)))"),
    "asymmetric range: scale amax / 128, clamp [-128, 127]": [
        ("tl.full([BLOCK_G], 127.0, tl.float32)", "tl.full([BLOCK_G], 128.0, tl.float32)"),
        ("tl.maximum(t, -127.0)", "tl.maximum(t, -128.0)"),
    ],
    "float16 accumulation of the int8 products": [
        ("acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.int32)", "acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float16)"),
        ("acc = tl.dot(a, b, acc, out_dtype=tl.int32)", "acc = tl.dot(a.to(tl.float16), b.to(tl.float16), acc, out_dtype=tl.float16)"),
    ],
}
