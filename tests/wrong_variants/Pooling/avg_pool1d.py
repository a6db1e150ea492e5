"""Plausible wrong versions of solutions/Pooling/avg_pool1d.py: each must fail exe."""

VARIANTS = {
    "divides by the in-bounds count (count_include_pad=False)": [
        ("    acc = tl.zeros([BLOCK_R, BLOCK_L], dtype=tl.float32)\n",
         "    acc = tl.zeros([BLOCK_R, BLOCK_L], dtype=tl.float32)\n"
         "    cnt = tl.zeros([BLOCK_L], dtype=tl.float32)\n"),
        ("        acc += v.to(tl.float32)\n", "        acc += v.to(tl.float32)\n        cnt += ok.to(tl.float32)\n"),
        ("y = acc / K", "y = acc / tl.maximum(cnt, 1.0)[None, :]"),
    ],
    "padding shifts windows the wrong way": ("start = cols * stride - pad", "start = cols * stride + pad"),
    "window misses its last tap": ("for m in range(0, K):", "for m in range(0, K - 1):"),
    "mask drops the last input element": ("(idx < L)", "(idx < L - 1)"),
    "stride argument ignored": ("s = k if stride is None", "s = k if True"),
}
