"""Plausible wrong versions of solutions/Fusion/fused_gelu_conv2d.py: each must fail exe."""

VARIANTS = {
    "approximate ignored (always the erf form)": ('USE_TANH=approximate == "tanh"', "USE_TANH=False"),
    "always the tanh form": ('USE_TANH=approximate == "tanh"', "USE_TANH=True"),
    "out= ignored (result in a fresh tensor)": ("        y = out\n",
        "        y = torch.empty((N, OC, OH, OW), dtype=input.dtype, device=input.device)\n"),
    "out assumed contiguous": ("*y.stride(),", "OC * OH * OW, OH * OW, OW, 1,"),
    "bias dropped": ("HAS_BIAS=bias is not None", "HAS_BIAS=False"),
}
