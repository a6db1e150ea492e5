"""Plausible wrong versions of solutions/Loss/mse_loss.py: each must fail exe."""

VARIANTS = {
    "reduction='sum' divided by n like 'mean'": ('denom = float(n) if reduction == "mean" else 1.0', "denom = float(n)"),
    "absolute instead of squared error (elementwise)": ("(d * d).to(out_ptr.dtype.element_ty)", "tl.abs(d).to(out_ptr.dtype.element_ty)"),
    "float16 accumulation": [
        ("acc = tl.zeros([BLOCK], dtype=tl.float32)", "acc = tl.zeros([BLOCK], dtype=tl.float16)"),
        ("acc += d * d", "acc += (d * d).to(tl.float16)")],
    "NaN terms skipped in the reduction": ("acc += d * d", "acc += tl.where(d == d, d * d, 0.0)"),
    "reduction mask drops the last element": ("        mask = offs < n\n        x = tl.load(x_ptr + offs, mask=mask, other=0.0)",
                                              "        mask = offs < n - 1\n        x = tl.load(x_ptr + offs, mask=mask, other=0.0)"),
    # the target read flat whatever its layout (only the input made contiguous)
    "transposed target read as dense": ("y = target.expand(shape).contiguous()",
                                        "y = target.expand(shape) if target.shape == shape else target.expand(shape).contiguous()"),
}
