"""Plausible wrong versions of solutions/Fusion/fused_bmm_dropout_gelu.py: each must fail exe."""

VARIANTS = {
    "GELU before dropout (gelu(z) / (1-p) instead of gelu(z / (1-p)))": [
        ("        x = tl.where(r >= p, x * scale, 0.0)\n", "        keep = r >= p\n"),
        ("    tl.store(y_ptr", "    if TRAINING:\n        y = tl.where(keep, y * scale, 0.0)\n    tl.store(y_ptr")],
    "float16 accumulator (rounded after every K block)": (
        "            acc = tl.dot(a, b, acc, out_dtype=tl.float32)",
        "            acc = (acc + tl.dot(a, b, out_dtype=tl.float32)).to(tl.float16).to(tl.float32)"),
    "approximate='tanh' ignored (always the erf form)": ('USE_TANH=approximate == "tanh"', "USE_TANH=False"),
    "p read as the keep probability": ("x = tl.where(r >= p, x * scale, 0.0)", "x = tl.where(r < p, x * scale, 0.0)"),
    "out= ignored (a new tensor is returned)": (
        "y = out if out is not None else torch.empty(", "y = torch.empty("),
    # The interpreter ignores input_precision: drop the 13 low mantissa bits TF32 would drop.
    "TF32 dot for float32 inputs": (
        '            acc = tl.dot(a, b, acc, input_precision="ieee", out_dtype=tl.float32)',
        '            a = (a.to(tl.int32, bitcast=True) & -8192).to(tl.float32, bitcast=True)\n'
        '            b = (b.to(tl.int32, bitcast=True) & -8192).to(tl.float32, bitcast=True)\n'
        '            acc = tl.dot(a, b, acc, input_precision="tf32", out_dtype=tl.float32)'),
}
