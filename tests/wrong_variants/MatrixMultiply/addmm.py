"""Plausible wrong versions of solutions/MatrixMultiply/addmm.py: each must fail exe."""

VARIANTS = {
    # Triton's interpreter ignores input_precision (numpy multiplies in float32), so the edit also
    # drops the 13 low mantissa bits of the operands, which is what the tensor cores read of a
    # float32 register in TF32 mode.
    "TF32 dot (default input_precision)": (
        '            acc = tl.dot(a, b, acc, input_precision="ieee")',
        '            a = (a.to(tl.int32, bitcast=True) & -8192).to(tl.float32, bitcast=True)\n'
        '            b = (b.to(tl.int32, bitcast=True) & -8192).to(tl.float32, bitcast=True)\n'
        '            acc = tl.dot(a, b, acc, input_precision="tf32")'),
    "alpha and beta swapped": [("acc = acc * alpha", "acc = acc * beta"), ("acc += beta * c", "acc += alpha * c")],
    "input read even when beta == 0 (0 * NaN = NaN)": ("USE_INPUT=beta != 0", "USE_INPUT=True"),
    "input assumed to be a contiguous (n, p) matrix (no broadcasting)": (
        "c.stride(0), c.stride(1), y.stride(0)", "N, 1, y.stride(0)"),
    "out= ignored (a new tensor is returned)": (
        "y = out if out is not None else torch.empty(", "y = torch.empty("),
}
