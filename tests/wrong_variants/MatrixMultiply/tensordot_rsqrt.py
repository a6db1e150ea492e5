"""Plausible wrong versions of solutions/MatrixMultiply/tensordot_rsqrt.py: each must fail exe."""

VARIANTS = {
    # Triton's interpreter ignores input_precision (numpy multiplies in float32), so the edit also
    # drops the 13 low mantissa bits of the operands, which is what the tensor cores read of a
    # float32 register in TF32 mode.
    "TF32 dot (default input_precision)": (
        '        acc = tl.dot(a, b, acc, input_precision="ieee")',
        '        a = (a.to(tl.int32, bitcast=True) & -8192).to(tl.float32, bitcast=True)\n'
        '        b = (b.to(tl.int32, bitcast=True) & -8192).to(tl.float32, bitcast=True)\n'
        '        acc = tl.dot(a, b, acc, input_precision="tf32")'),
    "b's contracted dims taken in sorted order, not in their pairing": (
        "b2 = b.permute(*dims_b, *free_b)", "b2 = b.permute(*sorted(dims_b), *free_b)"),
    "int dims contract the first d dims of a (not the last)": (
        "return list(range(a.dim() - dims, a.dim())), list(range(dims))",
        "return list(range(dims)), list(range(dims))"),
    "sqrt instead of rsqrt": ("tl.store(c_ptrs, tl.rsqrt(acc)", "tl.store(c_ptrs, tl.sqrt(acc)"),
    "rsqrt of the inputs instead of the contraction": [
        ("        acc = tl.dot(a, b, acc, input_precision=\"ieee\")",
         "        acc = tl.dot(tl.where(a == 0, 0.0, tl.rsqrt(a)), tl.where(b == 0, 0.0, tl.rsqrt(b)), acc,"
         " input_precision=\"ieee\")"),
        ("tl.store(c_ptrs, tl.rsqrt(acc)", "tl.store(c_ptrs, acc"),
    ],
}
