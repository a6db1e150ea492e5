"""Plausible wrong versions of solutions/Fusion/fused_fractional_max_pool2d_with_relu.py: each must fail exe."""

VARIANTS = {
    "ReLU missing (max of the raw input)": ("            v = tl.maximum(v, 0.0)\n", ""),
    "last window not pinned to the end of the axis": (
        "return tl.where(pos == n_out - 1, n_in - k, s)", "return s"),
    "one sample shared by every plane": ("    p32 = p.to(tl.int32)\n", "    p32 = (p * 0).to(tl.int32)\n"),
    "indices relative to the window, not the plane": (
        "arg = tl.where(take, h.to(tl.int64) * W + w, arg)", "arg = tl.where(take, (dh * KW + dw).to(tl.int64), arg)"),
    "output ratio rounded instead of truncated": ("OH, OW = int(H * rh), int(W * rw)",
                                                  "OH, OW = int(H * rh + 0.5), int(W * rw + 0.5)"),
}
