"""Plausible wrong versions of solutions/Quantization/attention_w8a8.py: each must fail exe."""

VARIANTS = {
    "P scale fixed at 1/127 (the softmax sum l forgotten)": (
        "    sp = tl.div_rn(tl.div_rn(one, tl.where(m_mask, l_i, 1.0)), tl.full([BLOCK_M], 127.0, tl.float32))\n",
        "    sp = one / 127.0\n"),
    "missing 1/sqrt(D)": ("LQ, LK, D, DV, 1.0 / math.sqrt(D),", "LQ, LK, D, DV, 1.0,"),
    "P truncated instead of rounded": (
        "p = (e * 127.0 + _RNE_MAGIC) - _RNE_MAGIC", "p = e * 127.0"),
    "Q/K/V quantization truncates": ("        t = (t + _RNE_MAGIC) - _RNE_MAGIC\n", ""),
    "row maximum taken over the first key block only": (
        "    for n0 in range(0, LK, BLOCK_N):\n", "    for n0 in range(0, BLOCK_N, BLOCK_N):\n"),
    "float16 accumulation of P @ V": [
        ("acc = tl.zeros([BLOCK_M, BLOCK_DV], dtype=tl.int32)", "acc = tl.zeros([BLOCK_M, BLOCK_DV], dtype=tl.float16)"),
        ("acc = tl.dot(p.to(tl.int8), vt, acc, out_dtype=tl.int32)", "acc = tl.dot(p.to(tl.float16), vt.to(tl.float16), acc, out_dtype=tl.float16)"),
    ],
}
