"""Plausible wrong versions of solutions/Fusion/fused_relu_conv2d.py: each must fail exe."""

VARIANTS = {
    "ReLU applied before the bias is added": [
        ("    acc = tl.maximum(acc, 0.0)\n", ""),
        ("        acc += bias[None, :]\n", "        acc = tl.maximum(acc, 0.0) + bias[None, :]\n    else:\n        acc = tl.maximum(acc, 0.0)\n"),
    ],
    "dilation ignored when gathering": [
        ("ih = ih0[:, None] + (r * dil_h)[None, :]", "ih = ih0[:, None] + r[None, :]"),
        ("iw = iw0[:, None] + (s * dil_w)[None, :]", "iw = iw0[:, None] + s[None, :]"),
    ],
    "input channels of the group not offset": (
        "x_base = n * sxn + (grp * CG).to(tl.int64) * sxc", "x_base = n * sxn"),
    "input assumed contiguous": ("*x.stride(),", "C * H * W, H * W, W, 1,"),
    "K loop skips the partial last chunk": ("for k0 in range(0, K, BLOCK_K):", "for k0 in range(0, K - BLOCK_K + 1, BLOCK_K):"),
}
