"""Plausible wrong versions of solutions/Activation/combined_activation.py: each must fail exe."""

VARIANTS = {
    "sigmoid branches swapped (sigmoid(-z))": ("s = tl.where(acc >= 0.0, r, e * r)", "s = tl.where(acc >= 0.0, e * r, r)"),
    "bias row stride ignored (only per-column bias)": (
        "bias = tl.load(b_ptr + (bi * sbb + ri * sbr)[:, None]", "bias = tl.load(b_ptr + (bi * sbb)[:, None]"),
    "weight2 batch stride ignored": ("w2_ptr + (bi * s2b + ri * s2r)", "w2_ptr + (ri * s2r)"),
    "out= not written when out is not contiguous": ("out.copy_(y)\n", "pass\n"),
    "K mask drops the last input feature": ("k_mask = kk < K", "k_mask = kk < K - 1"),
}
