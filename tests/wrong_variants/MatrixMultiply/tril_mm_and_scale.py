"""Plausible wrong versions of solutions/MatrixMultiply/tril_mm_and_scale.py: each must fail exe."""

VARIANTS = {
    "diagonal excluded (strict lower triangle)": (
        "lower = (k[None, :] <= row_ids[:, None])", "lower = (k[None, :] < row_ids[:, None])"),
    "upper triangle zeroed by multiplying with the mask (0 * NaN = NaN leaks)": (
        "a = tl.load(a_rows + k[None, :].to(tl.int64) * sak, mask=lower, other=0.0)",
        "a = tl.load(a_rows + k[None, :].to(tl.int64) * sak, mask=m_mask[:, None] & k_mask[None, :],"
        " other=0.0) * lower.to(tl.float32)"),
    "K loop stops before the diagonal block": (
        "k_end = tl.minimum((tile_m + 1) * BLOCK_M, M)", "k_end = tl.minimum(tile_m * BLOCK_M, M)"),
    "beta left out": ("c = (acc * alpha) * beta", "c = acc * alpha"),
    # Triton's interpreter ignores input_precision (numpy multiplies in float32), so the edit also
    # drops the 13 low mantissa bits of the operands, which is what the tensor cores read of a
    # float32 register in TF32 mode.
    "TF32 dot (default input_precision)": (
        '        acc = tl.dot(a, b, acc, input_precision="ieee")',
        '        a = (a.to(tl.int32, bitcast=True) & -8192).to(tl.float32, bitcast=True)\n'
        '        b = (b.to(tl.int32, bitcast=True) & -8192).to(tl.float32, bitcast=True)\n'
        '        acc = tl.dot(a, b, acc, input_precision="tf32")'),
}
