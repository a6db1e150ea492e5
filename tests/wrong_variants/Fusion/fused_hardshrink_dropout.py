"""Plausible wrong versions of solutions/Fusion/fused_hardshrink_dropout.py: each must fail exe."""

VARIANTS = {
    "p read as the keep probability": ("d = tl.where(r >= p, x * scale, 0.0)", "d = tl.where(r < p, x * scale, 0.0)"),
    "kept elements not rescaled by 1/(1-p)": ("d = tl.where(r >= p, x * scale, 0.0)", "d = tl.where(r >= p, x, 0.0)"),
    "rescaled by 1/p instead of 1/(1-p)": ("scale = 0.0 if p >= 1.0 else 1.0 / (1.0 - p)",
                                           "scale = 0.0 if p <= 0.0 else 1.0 / p"),
    "constant seed (the same mask on every call)": (
        'seed = int.from_bytes(os.urandom(4), "little") & 0x7FFFFFFF', "seed = 1234"),
    "block-local Philox counter (the mask repeats every block)": (
        "r = tl.rand(seed, offs)", "r = tl.rand(seed, tl.arange(0, BLOCK))"),
    "shrinkage threshold inclusive (|d| >= lambd kept)": (
        "y = tl.where((d >= -lambd) & (d <= lambd), 0.0, d)", "y = tl.where((d > -lambd) & (d < lambd), 0.0, d)"),
    "inplace ignored (input never receives the dropout result)": (
        "write_d = bool(inplace and training)", "write_d = False"),
}
