"""Plausible wrong versions of solutions/Fusion/fused_softplus_linear.py: each must fail exe."""

VARIANTS = {
    # Triton's interpreter ignores input_precision (numpy multiplies in float32), so the edit also
    # drops the 13 low mantissa bits of the operands, which is what the tensor cores read of a
    # float32 register in TF32 mode.
    "TF32 dot (default input_precision)": (
        '        acc = tl.dot(a, b, acc, input_precision="ieee", out_dtype=tl.float32)',
        '        a = (a.to(tl.int32, bitcast=True) & -8192).to(tl.float32, bitcast=True)\n'
        '        b = (b.to(tl.int32, bitcast=True) & -8192).to(tl.float32, bitcast=True)\n'
        '        acc = tl.dot(a, b, acc, input_precision="tf32", out_dtype=tl.float32)'),
    "log(1 + exp(t)) without log1p (tiny results rounded to 0)": (
        "    log1p_e = tl.where(w == 1.0, e, tl.log(w) * (e / (w - 1.0)))", "    log1p_e = tl.log(w)"),
    "beta ignored in the log branch (softplus with beta = 1)": (
        "    soft = (tl.maximum(t, 0.0) + log1p_e) / beta", "    soft = tl.maximum(t, 0.0) / beta + log1p_e"),
    "threshold compared with z instead of beta * z": ("y = tl.where(t > threshold, acc, soft)", "y = tl.where(acc > threshold, acc, soft)"),
    "bias dropped": ("        acc += bias[None, :]\n", "        acc += 0.0 * bias[None, :]\n"),
}
