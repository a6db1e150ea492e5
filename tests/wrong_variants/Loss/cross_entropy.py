"""Plausible wrong versions of solutions/Loss/cross_entropy.py: each must fail exe."""

VARIANTS = {
    "no max subtraction in log-sum-exp (exp overflows)": [
        ("s = s * tl.exp(m - shift) + tl.sum(tl.exp(v - shift[:, None]), axis=1)",
         "s = s + tl.sum(tl.exp(v), axis=1)"),
        ("lse = m + tl.log(s)", "lse = tl.log(s)")],
    "running sum not rescaled when the max grows across chunks": (
        "s = s * tl.exp(m - shift) + tl.sum(", "s = s + tl.sum("),
    "ignore_index ignored (-100 hard-coded)": ("active = rmask & (tgt != ignore_index)", "active = rmask & (tgt != -100)"),
    "ignored targets counted in the mean's denominator": ("w = tl.where(ok, 1.0, 0.0)", "w = tl.where(rmask, 1.0, 0.0)"),
    "'mean' divides by the number of targets, not the total weight": (
        "tl.store(part_w_ptr + pid, tl.sum(w, axis=0))", "tl.store(part_w_ptr + pid, tl.sum(ok.to(tl.float32), axis=0))"),
}
