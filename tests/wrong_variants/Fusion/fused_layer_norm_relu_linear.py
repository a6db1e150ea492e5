"""Plausible wrong versions of solutions/Fusion/fused_layer_norm_relu_linear.py: each must fail exe."""

VARIANTS = {
    # Triton's interpreter ignores input_precision (numpy multiplies in float32), so the edit also
    # drops the 13 low mantissa bits of the operands, which is what the tensor cores read of a
    # float32 register in TF32 mode.
    "TF32 dot (default input_precision)": (
        '        acc = tl.dot(a, b, acc, input_precision="ieee", out_dtype=tl.float32)',
        '        a = (a.to(tl.int32, bitcast=True) & -8192).to(tl.float32, bitcast=True)\n'
        '        b = (b.to(tl.int32, bitcast=True) & -8192).to(tl.float32, bitcast=True)\n'
        '        acc = tl.dot(a, b, acc, input_precision="tf32", out_dtype=tl.float32)'),
    "unbiased variance (divides by n - 1)": (
        "    var = tl.sum(m2, axis=0) / count", "    var = tl.sum(m2, axis=0) / (count - 1.0)"),
    "eps ignored (fixed 1e-5)": ("    rstd = 1.0 / tl.sqrt(var + eps)", "    rstd = 1.0 / tl.sqrt(var + 1e-5)"),
    "tiles' deviations from the group mean dropped (sum of M2_t only)": (
        "        m2 += tl.load(sm2_ptr + grp * S + idx, mask=idx < S, other=0.0) + n_t * d * d",
        "        m2 += tl.load(sm2_ptr + grp * S + idx, mask=idx < S, other=0.0)"),
    "normalized_shape ignored (always the last dimension)": (
        "    rows_per_group = math.prod(normalized_shape[:-1])", "    rows_per_group = 1"),
    "ReLU skipped": ("    h = tl.maximum(acc, 0.0)\n", "    h = acc\n"),
}
