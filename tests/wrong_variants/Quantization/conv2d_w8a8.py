"""Plausible wrong versions of solutions/Quantization/conv2d_w8a8.py: each must fail exe."""

_RNE = "    t = (t + _RNE_MAGIC) - _RNE_MAGIC\n"

VARIANTS = {
    "truncation instead of round-half-even (the int8 cast truncates)": [(_RNE, ""), ("    " + _RNE, "")],
    "round half away from zero (floor(|t| + 0.5))": [
        (_RNE, "    t = tl.where(t >= 0.0, tl.floor(t + 0.5), -tl.floor(0.5 - t))\n"),
        ("    " + _RNE, "        t = tl.where(t >= 0.0, tl.floor(t + 0.5), -tl.floor(0.5 - t))\n"),
    ],
    "asymmetric range: scale amax / 128, clamp [-128, 127]": [
        ("tl.div_rn(tl.max(amax, axis=0), 127.0)", "tl.div_rn(tl.max(amax, axis=0), 128.0)"),
        ("tl.full([BLOCK_O], 127.0, tl.float32)", "tl.full([BLOCK_O], 128.0, tl.float32)"),
        ("t = tl.minimum(tl.maximum(t, -127.0), 127.0)", "t = tl.minimum(tl.maximum(t, -128.0), 127.0)"),
    ],
    "bias added to the integer accumulator before dequantization": [
        ("    out = (acc.to(tl.float32) * sx) * sw[None, :]\n", "    out = acc.to(tl.float32)\n"),
        ("        out += tl.load(b_ptr + o * s_b, mask=o_mask, other=0.0)[None, :]\n",
         "        out += tl.load(b_ptr + o * s_b, mask=o_mask, other=0.0)[None, :]\n    out = (out * sx) * sw[None, :]\n"),
    ],
    "float16 accumulation of the int8 products": [
        ("acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.int32)", "acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float16)"),
        ("acc = tl.dot(a, b, acc, out_dtype=tl.int32)", "acc = tl.dot(a.to(tl.float16), b.to(tl.float16), acc, out_dtype=tl.float16)"),
    ],
}
