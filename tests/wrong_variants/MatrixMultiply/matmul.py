"""Plausible wrong versions of solutions/MatrixMultiply/matmul.py: each must fail exe."""

VARIANTS = {
    # Triton's interpreter ignores input_precision (numpy multiplies in float32), so the edit also
    # drops the 13 low mantissa bits of the operands, which is what the tensor cores read of a
    # float32 register in TF32 mode.
    "TF32 dot (default input_precision)": (
        '        acc = tl.dot(a, b, acc, input_precision="ieee")',
        '        a = (a.to(tl.int32, bitcast=True) & -8192).to(tl.float32, bitcast=True)\n'
        '        b = (b.to(tl.int32, bitcast=True) & -8192).to(tl.float32, bitcast=True)\n'
        '        acc = tl.dot(a, b, acc, input_precision="tf32")'),
    "K loop skips the partial last chunk": (
        "for k0 in range(0, K, BLOCK_K):", "for k0 in range(0, K - BLOCK_K + 1, BLOCK_K):"),
    "grouped ordering divides by GROUP_M where the last group is shorter": (
        "tile_n = (t % width) // group_m", "tile_n = (t % width) // GROUP_M"),
    "stride of a 1-D second operand ignored": (
        "vec = tl.load(v_ptr + k.to(tl.int64) * sv, mask=k_mask, other=0.0)",
        "vec = tl.load(v_ptr + k, mask=k_mask, other=0.0)"),
    "batch index decomposed with the sizes swapped": (
        "    z2 = z % B2\n    z1 = (z // B2) % B1\n", "    z2 = z % B1\n    z1 = (z // B1) % B2\n"),
}
