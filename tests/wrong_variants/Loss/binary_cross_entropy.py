"""Plausible wrong versions of solutions/Loss/binary_cross_entropy.py: each must fail exe."""

VARIANTS = {
    "weight ignored": ("has_weight = weight is not None", "has_weight = False"),
    "logs not clamped at -100 (0 * log 0 = NaN)": ("log_x = tl.maximum(tl.log(x), -100.0)", "log_x = tl.log(x)"),
    "log(1 - x) evaluated naively (no log1p)": (
        "log_1mx = tl.where(u == 1.0, -x, tl.log(u) * (-x) / (u - 1.0))", "log_1mx = tl.log(1.0 - x)"),
    "reduction='sum' divided by n like 'mean'": ('denom = float(n) if reduction == "mean" else 1.0', "denom = float(n)"),
}
