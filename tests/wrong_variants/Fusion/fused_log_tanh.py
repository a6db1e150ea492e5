"""Plausible wrong versions of solutions/Fusion/fused_log_tanh.py: each must fail exe."""

VARIANTS = {
    "x^2 overflow not handled (huge inputs give NaN)": (
        "y = tl.where(x > 4294967296.0, 1.0, y)", "y = y"),
    "sign of the rational form flipped": (
        "y = (x - 1.0) * (x + 1.0) / (x * x + 1.0)", "y = (1.0 - x) * (x + 1.0) / (x * x + 1.0)"),
    "tanh(x) instead of tanh(log x)": (
        "y = (x - 1.0) * (x + 1.0) / (x * x + 1.0)", "y = 2.0 * tl.sigmoid(2.0 * x) - 1.0"),
    "out= ignored for a dense out": (
        "    y = out if direct else torch.empty_like(x)", "    y = torch.empty_like(x)\n    direct = True"),
    "mask drops the last element": ("mask = offsets < n_elements", "mask = offsets < n_elements - 1"),
}
