"""Plausible wrong versions of solutions/Fusion/fused_pixel_shuffle_conv2d.py: each must fail exe."""

VARIANTS = {
    "sub-pixel row and column swapped": [
        ("    i = (oc % RR) // R\n    j = oc % R\n", "    j = (oc % RR) // R\n    i = oc % R\n"),
    ],
    "channel-major split (c = oc % C', cell = oc // C')": [
        ("    c_out = oc // RR\n    i = (oc % RR) // R\n    j = oc % R\n",
         "    c_out = oc % (OC // RR)\n    i = (oc // (OC // RR)) // R\n    j = (oc // (OC // RR)) % R\n"),
    ],
    "upscale factor fixed at 2": ("R = int(upscale_factor)", "R = 2"),
    "bias dropped": ("HAS_BIAS=bias is not None", "HAS_BIAS=False"),
}
