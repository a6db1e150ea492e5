"""Plausible wrong versions of solutions/Random/logspace.py: each must fail exe."""

VARIANTS = {
    "float64 result computed in float32": ("acc = tl.float64 if dtype == torch.float64 else tl.float32", "acc = tl.float32"),
    "step divides by steps instead of steps - 1": ("step = (end - start) / (steps - 1) if steps > 1 else 0.0",
                                                  "step = (end - start) / steps"),
    "steps == 1 not special-cased (division by zero)": ("step = (end - start) / (steps - 1) if steps > 1 else 0.0",
                                                        "step = (end - start) / (steps - 1)"),
    "sign of a negative base dropped": ("y = tl.where(is_int, tl.where(odd, -mag, mag), nan)", "y = mag"),
    "zero base treated as 0 everywhere": ("y = tl.where(x > 0, 0.0 * one, tl.where(x == 0, one, inf))", "y = 0.0 * one"),
    "default dtype taken as float64": ("else torch.get_default_dtype()", "else torch.float64"),
}
