"""Plausible wrong versions of solutions/Convolution/conv2d.py: each must fail exe."""

VARIANTS = {
    "kernel flipped (true convolution, not cross-correlation)": [
        ("ih = ih0[:, None] + (r * dil_h)[None, :]", "ih = ih0[:, None] + ((KH - 1 - r) * dil_h)[None, :]"),
        ("iw = iw0[:, None] + (s * dil_w)[None, :]", "iw = iw0[:, None] + ((KW - 1 - s) * dil_w)[None, :]"),
    ],
    "padding subtracted before striding": ("ih0 = oh * stride_h - pad_h", "ih0 = (oh - pad_h) * stride_h"),
    "dilation ignored when gathering": [
        ("ih = ih0[:, None] + (r * dil_h)[None, :]", "ih = ih0[:, None] + r[None, :]"),
        ("iw = iw0[:, None] + (s * dil_w)[None, :]", "iw = iw0[:, None] + s[None, :]"),
    ],
    "input channels of the group not offset": (
        "x_base = n * sxn + (grp * CG).to(tl.int64) * sxc", "x_base = n * sxn"),
    "'same' puts the odd extra zero before": (
        "ph0, pw0 = th // 2, tw // 2", "ph0, pw0 = th - th // 2, tw - tw // 2"),
    "bias dropped": ("HAS_BIAS=bias is not None", "HAS_BIAS=False"),
    "K loop skips the partial last chunk": ("for k0 in range(0, K, BLOCK_K):", "for k0 in range(0, K - BLOCK_K + 1, BLOCK_K):"),
    # the bias read with unit stride whatever its layout (the common epilogue of LLM conv kernels)
    "strided bias read as dense": ("b = bias.contiguous() if bias is not None else w",
                                   "b = bias if bias is not None else w"),
}
