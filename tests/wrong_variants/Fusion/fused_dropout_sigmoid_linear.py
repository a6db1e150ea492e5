"""Plausible wrong versions of solutions/Fusion/fused_dropout_sigmoid_linear.py: each must fail exe."""

VARIANTS = {
    # The interpreter ignores input_precision, so the edit also drops the 13 low mantissa bits of
    # the operands, which is what the tensor cores read of a float32 register in TF32 mode.
    "TF32 dot (default input_precision)": (
        '        acc = tl.dot(a, b, acc, input_precision="ieee", out_dtype=tl.float32)',
        '        a = (a.to(tl.int32, bitcast=True) & -8192).to(tl.float32, bitcast=True)\n'
        '        b = (b.to(tl.int32, bitcast=True) & -8192).to(tl.float32, bitcast=True)\n'
        '        acc = tl.dot(a, b, acc, input_precision="tf32", out_dtype=tl.float32)'),
    "bias added after the sigmoid": [
        ("        acc += tl.load(b_ptr + rn, mask=rn < N, other=0.0)[None, :]\n    y = tl.sigmoid(acc)",
         "        acc = tl.sigmoid(acc) + tl.load(b_ptr + rn, mask=rn < N, other=0.0)[None, :]\n"
         "        y = acc\n    else:\n        y = tl.sigmoid(acc)")],
    "p read as the keep probability": ("y = tl.where(r >= p, y * scale, 0.0)", "y = tl.where(r < p, y * scale, 0.0)"),
    "tile-local Philox counter (every tile gets the same mask)": (
        "r = tl.rand(seed, offs)", "r = tl.rand(seed, tl.arange(0, BLOCK_M)[:, None] * BLOCK_N + tl.arange(0, BLOCK_N)[None, :])"),
    "dropout applied in eval mode too": ("TRAINING=bool(training)", "TRAINING=True"),
}
