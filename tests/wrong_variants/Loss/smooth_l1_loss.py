"""Plausible wrong versions of solutions/Loss/smooth_l1_loss.py: each must fail exe."""

VARIANTS = {
    "beta ignored (1.0 hard-coded)": ("beta = float(beta)", "beta = 1.0"),
    "quadratic branch not divided by beta": ("0.5 * z * z / beta", "0.5 * z * z"),
    "linear branch subtracts 0.5 instead of 0.5 * beta": ("z - 0.5 * beta", "z - 0.5"),
    "reduction='sum' divided by n like 'mean'": ('denom = float(n) if reduction == "mean" else 1.0', "denom = float(n)"),
}
