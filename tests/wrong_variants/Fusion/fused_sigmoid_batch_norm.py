"""Plausible wrong versions of solutions/Fusion/fused_sigmoid_batch_norm.py: each must fail exe."""

VARIANTS = {
    "sigmoid of the wrong sign": ("y = 1.0 / (1.0 + tl.exp(-y))", "y = 1.0 / (1.0 + tl.exp(y))"),
    "running_var updated with the biased variance": ("momentum * (m2 / (n - 1.0))", "momentum * (m2 / n)"),
    "eps added outside the square root": (
        "scale = 1.0 / tl.sqrt(var + eps)", "scale = 1.0 / (tl.sqrt(var) + eps)"),
    "many-channel reduction drops the between-tiles term of the merge": (
        "m2 = m2 + m2_t + delta * delta * (cnt * frac)", "m2 = m2 + m2_t"),
    "bias ignored": ("HAS_B=bias is not None", "HAS_B=False"),
    "one-pass variance, E[x^2] - E[x]^2, per tile": (
        "m2_t = tl.sum(tl.sum(d * d, axis=1), axis=0)",
        "m2_t = tl.sum(tl.sum(x * x, axis=1), axis=0) - n_t * mean_t * mean_t"),
}
