"""Plausible wrong versions of solutions/Fusion/fused_relu_max_pool2d_conv2d.py: each must fail exe."""

VARIANTS = {
    "pool stride defaults to 1 instead of the kernel size": (
        "pool_kernel_size if pool_stride is None else pool_stride", "1 if pool_stride is None else pool_stride"),
    "pool padding taps read as zeros (not -inf)": (
        "best = tl.where(tap_ok[:, None], tl.maximum(best, acc), best)",
        "best = tl.where(m_mask[:, None], tl.maximum(best, acc), best)"),
    "ceil mode keeps a window starting in the padding": (
        "if ceil_mode and (out - 1) * s >= size + p:", "if False:"),
    "pool dilation ignored": [
        ("cy = py * ps_h - pp_h + u * pd_h", "cy = py * ps_h - pp_h + u"),
        ("cx = px * ps_w - pp_w + v * pd_w", "cx = px * ps_w - pp_w + v"),
    ],
    "bias added before ReLU but dropped for the max": ("        best += bias[None, :]\n", ""),
}
