"""Plausible wrong versions of solutions/MatrixMultiply/matrix_multiply_and_row_dot.py: each must fail exe."""

VARIANTS = {
    "beta * C left out": [("d0 = alpha * r0 + beta * c0", "d0 = alpha * r0"),
                          ("d1 = alpha * r1 + beta * c1", "d1 = alpha * r1")],
    "alpha and beta swapped": ("float(alpha), float(beta)", "float(beta), float(alpha)"),
    "C assumed contiguous (row 1 at offset p)": [
        ("c1 = tl.load(c_ptr + scn + cols.to(tl.int64) * scp", "c1 = tl.load(c_ptr + P + cols.to(tl.int64)"),
        ("c0 = tl.load(c_ptr + cols.to(tl.int64) * scp", "c0 = tl.load(c_ptr + cols.to(tl.int64)"),
    ],
    "only the first split of the inner dimension summed": ("for s in range(0, S):", "for s in range(0, 1):"),
    "beta = 0 treated as 'ignore C' (addmm's rule; 0 * inf must give NaN here)": [
        ("d0 = alpha * r0 + beta * c0", "d0 = alpha * r0 + tl.where(beta != 0, beta * c0, 0.0)"),
        ("d1 = alpha * r1 + beta * c1", "d1 = alpha * r1 + tl.where(beta != 0, beta * c1, 0.0)"),
    ],
}
