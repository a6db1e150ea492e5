"""Plausible wrong versions of solutions/Loss/nll_loss.py: each must fail exe."""

VARIANTS = {
    "ignore_index ignored (-100 hard-coded)": ("active = rmask & (tgt != ignore_index)", "active = rmask & (tgt != -100)"),
    "ignored targets counted in the mean's denominator": ("w = tl.where(ok, 1.0, 0.0)", "w = tl.where(rmask, 1.0, 0.0)"),
    "'mean' divides by the number of targets, not the total weight": (
        "tl.store(part_w_ptr + pid, tl.sum(w, axis=0))", "tl.store(part_w_ptr + pid, tl.sum(ok.to(tl.float32), axis=0))"),
    "sign dropped (loss = w * x)": ("loss = -w * x", "loss = w * x"),
}
