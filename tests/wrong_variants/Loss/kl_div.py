"""Plausible wrong versions of solutions/Loss/kl_div.py: each must fail exe."""

VARIANTS = {
    "log_target ignored": ("log_target = bool(log_target)", "log_target = False"),
    "'batchmean' divides by numel like 'mean'": ("denom = float(input.shape[0])", "denom = float(n)"),
    "0 * log 0 not special-cased (NaN)": ("tl.where(t == 0.0, 0.0, t * tl.log(t))", "t * tl.log(t)"),
    "log-target term with the wrong sign": ("return tl.exp(t) * (t - x)", "return tl.exp(t) * (x - t)"),
}
