"""Plausible wrong versions of solutions/Normalization/batch_norm.py: each must fail exe."""

VARIANTS = {
    "running_var updated with the biased variance": (
        "momentum * (m2 / (n - 1.0))", "momentum * (m2 / n)"),
    "one-pass variance E[x^2] - E[x]^2 (catastrophic cancellation for large means)": (
        "        d = tl.where(m, x - mean_t, 0.0)\n        m2_t = tl.sum(tl.sum(d * d, axis=1), axis=0)\n",
        "        m2_t = tl.sum(tl.sum(x * x, axis=1), axis=0) - n_t * mean_t * mean_t\n"),
    "batch normalized with the unbiased variance": (
        "tl.store(var_ptr + c, m2 / n)", "tl.store(var_ptr + c, m2 / (n - 1.0))"),
    "eps added outside the square root": (
        "scale = 1.0 / tl.sqrt(var + eps)", "scale = 1.0 / (tl.sqrt(var) + eps)"),
    "momentum weights the old running value": [
        ("(1.0 - momentum) * rm + momentum * mean", "momentum * rm + (1.0 - momentum) * mean"),
        ("(1.0 - momentum) * rv + momentum * (m2 / (n - 1.0))", "momentum * rv + (1.0 - momentum) * (m2 / (n - 1.0))")],
    "training flag ignored: batch statistics always used": ("    if training:\n", "    if True:\n"),
    "partial statistics merged without the between-partials term": (
        "m2 = tl.sum(m2_i + n_i * dm * dm, axis=0)", "m2 = tl.sum(m2_i, axis=0)"),
}
