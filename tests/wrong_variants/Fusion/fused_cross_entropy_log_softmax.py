"""Plausible wrong versions of solutions/Fusion/fused_cross_entropy_log_softmax.py: each must fail exe."""

VARIANTS = {
    "smoothing mass spread without the 1 / C factor": ("(smoothing / C) * smooth", "smoothing * smooth"),
    "smoothing term ignores the class weights": (
        "wsum += tl.sum(tl.where(mask, wc[None, :], 0.0), axis=1)\n        acc += tl.sum(tl.where(mask, wc[None, :] * (v - x0[:, None]), 0.0), axis=1)",
        "wsum += tl.sum(tl.where(mask, 1.0, 0.0), axis=1)\n        acc += tl.sum(tl.where(mask, v - x0[:, None], 0.0), axis=1)"),
    "mean divides by the number of positions, not the summed weights": (
        "tl.store(part_w_ptr + pid, tl.sum(w, axis=0))", "tl.store(part_w_ptr + pid, tl.sum(tl.where(rmask, 1.0, 0.0), axis=0))"),
    "ignored positions still pay the smoothing term": (
        "loss = tl.where(ok, (1.0 - smoothing) * nll + (smoothing / C) * smooth, 0.0)",
        "loss = tl.where(ok, (1.0 - smoothing) * nll, 0.0) + tl.where(rmask, (smoothing / C) * smooth, 0.0)"),
}
