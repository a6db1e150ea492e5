"""Plausible wrong versions of solutions/Fusion/fused_leaky_relu_conv2d.py: each must fail exe."""

VARIANTS = {
    "default slope instead of negative_slope": ("float(negative_slope),", "0.01,"),
    "activation before the bias is added": [
        ("    acc = tl.where(acc > 0, acc, acc * slope)\n", ""),
        ("        acc += bias[None, :]\n",
         "        acc = tl.where(acc > 0, acc, acc * slope) + bias[None, :]\n    else:\n"
         "        acc = tl.where(acc > 0, acc, acc * slope)\n"),
    ],
    "slope taken as max(x, slope * x) (wrong for slopes above 1)": (
        "acc = tl.where(acc > 0, acc, acc * slope)", "acc = tl.maximum(acc, acc * slope)"),
    "stride ignored along W": ("iw0 = ow * stride_w - pad_w", "iw0 = ow - pad_w"),
    "input channels of the group not offset": (
        "x_base = n * sxn + (grp * CG).to(tl.int64) * sxc", "x_base = n * sxn"),
}
