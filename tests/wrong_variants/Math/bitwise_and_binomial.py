"""Plausible wrong versions of solutions/Math/bitwise_and_binomial.py: each must fail exe."""

VARIANTS = {
    "logits used as probabilities (no sigmoid)": ("USE_LOGITS=probs is None", "USE_LOGITS=False"),
    "sigmoid mirrored the wrong way for logits": ("flip = raw > 0.0", "flip = raw < 0.0"),
    "p > 1/2 sampled with 1 - p but not mirrored back": ("k = tl.where(flip, n - k, k)", "k = k"),
    "random stream repeats in every program": ("r0, r1, _, _ = tl.philox(seed, idx.to(tl.uint32),",
                                               "r0, r1, _, _ = tl.philox(seed, (idx % 1024).to(tl.uint32),"),
    "pmf recurrence off by one ((n - k - 1) / (k + 1))": ("pmf * ((n - k_inv) / k_next) * ratio",
                                                          "pmf * ((n - k_next) / k_next) * ratio"),
    "first total_count used for every element": ("n_scalar = total_count.numel() == 1", "n_scalar = True"),
    "integer samples returned": ("out = torch.empty(shape, dtype=param.dtype, device=param.device)",
                                 "out = torch.empty(shape, dtype=torch.int32, device=param.device)"),
}
