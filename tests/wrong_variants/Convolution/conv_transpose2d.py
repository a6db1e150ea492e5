"""Plausible wrong versions of solutions/Convolution/conv_transpose2d.py: each must fail exe."""

VARIANTS = {
    "weight indexed as conv2d's (C_out, C_in/groups, kH, kW)": (
        "w_off = ((grp * CG + c).to(tl.int64) * OCG)[:, None] * (KH * KW) \\\n"
        "                            + (o * (KH * KW) + r * KW + s)[None, :]",
        "w_off = (c.to(tl.int64) * (KH * KW))[:, None] \\\n"
        "                            + ((grp * OCG + o).to(tl.int64) * CG * (KH * KW) + r * KW + s)[None, :]"),
    "kernel flipped": [
        ("off_h = ph_h + pad_h - r * dil_h", "off_h = ph_h + pad_h - (KH - 1 - r) * dil_h"),
        ("off_w = ph_w + pad_w - s * dil_w", "off_w = ph_w + pad_w - (KW - 1 - s) * dil_w"),
    ],
    "padding added instead of cropped": [
        ("off_h = ph_h + pad_h - r * dil_h", "off_h = ph_h - pad_h - r * dil_h"),
        ("off_w = ph_w + pad_w - s * dil_w", "off_w = ph_w - pad_w - s * dil_w"),
    ],
    "output_padding ignored in the output size": ("+ oph + 1", "+ 1"),
    "input channels of the group not offset": (
        "x_base = n * sxn + (grp * CG).to(tl.int64) * sxc", "x_base = n * sxn"),
    "dilation ignored when gathering": [
        ("off_h = ph_h + pad_h - r * dil_h", "off_h = ph_h + pad_h - r"),
        ("off_w = ph_w + pad_w - s * dil_w", "off_w = ph_w + pad_w - s"),
    ],
    "channel loop stops after one block": ("for c0 in range(0, CG, BLOCK_K):", "for c0 in range(0, 1):"),
    "bias dropped": ("HAS_BIAS=bias is not None", "HAS_BIAS=False"),
}
