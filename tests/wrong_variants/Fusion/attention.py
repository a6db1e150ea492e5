"""Plausible wrong versions of solutions/Fusion/attention.py: each must fail exe."""

VARIANTS = {
    "causal mask shifted by one (the diagonal masked too)": (
        "valid = valid & (cols[None, :] <= offs_m[:, None])", "valid = valid & (cols[None, :] < offs_m[:, None] + 0)"),
    "causal mask shifted the other way (one future key visible)": (
        "valid = valid & (cols[None, :] <= offs_m[:, None])", "valid = valid & (cols[None, :] <= offs_m[:, None] + 1)"),
    "accumulator not rescaled when the running maximum grows": ("        acc = acc * alpha[:, None]\n", ""),
    "default scale 1 / head_dim instead of 1 / sqrt(head_dim)": (
        "scale = 1.0 / math.sqrt(D) if softmax_scale", "scale = 1.0 / D if softmax_scale"),
    "softmax_scale ignored": (
        "scale = 1.0 / math.sqrt(D) if softmax_scale is None else float(softmax_scale)", "scale = 1.0 / math.sqrt(D)"),
    # the accumulator rounded to float16 after every key block: a float16 accumulation
    "float16 accumulator": (
        "            acc = tl.dot(p.to(v.dtype), v, acc, out_dtype=tl.float32)",
        "            acc = tl.dot(p.to(v.dtype), v, acc, out_dtype=tl.float32).to(tl.float16).to(tl.float32)"),
    # Triton's interpreter ignores input_precision (numpy multiplies in float32), so the edit also
    # drops the 13 low mantissa bits of the operands, which is what the tensor cores read of a
    # float32 register in TF32 mode.
    "TF32 scores for float32 inputs": (
        '            s = tl.dot(q, k, input_precision="ieee")',
        '            s = tl.dot((q.to(tl.int32, bitcast=True) & -8192).to(tl.float32, bitcast=True),\n'
        '                       (k.to(tl.int32, bitcast=True) & -8192).to(tl.float32, bitcast=True), input_precision="tf32")'),
    "out= ignored (a new tensor is returned)": (
        "    o = out if out is not None else torch.empty(", "    o = torch.empty("),
}
