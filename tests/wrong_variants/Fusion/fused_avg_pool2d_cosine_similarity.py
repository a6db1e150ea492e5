"""Plausible wrong versions of solutions/Fusion/fused_avg_pool2d_cosine_similarity.py: each must fail exe."""

VARIANTS = {
    "padding excluded from the divisor (count_include_pad=False)": [
        ("            acc += tl.where(valid, cos, 0.0)\n",
         "            acc += tl.where(valid, cos, 0.0)\n            cnt += tl.where(valid, 1.0, 0.0)\n"),
        ("    acc = tl.zeros([BLOCK_O], dtype=tl.float32)\n    for dh",
         "    acc = tl.zeros([BLOCK_O], dtype=tl.float32)\n    cnt = tl.zeros([BLOCK_O], dtype=tl.float32)\n    for dh"),
        ("tl.store(out_ptr + o, acc * inv_area, mask=omask)", "tl.store(out_ptr + o, acc / cnt, mask=omask)")],
    "eps clamps the product of the norms": (
        "cos = dot / (tl.maximum(tl.sqrt(na), eps) * tl.maximum(tl.sqrt(nb), eps))",
        "cos = dot / tl.maximum(tl.sqrt(na * nb), eps)"),
    "stride default taken as 1": ("kernel_size if stride is None or stride == [] else stride",
                                  "1 if stride is None or stride == [] else stride"),
    "padding ignored": ("    ph, pw = _pair(padding)\n", "    ph, pw = 0, 0\n"),
}
