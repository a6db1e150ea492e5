"""Plausible wrong versions of solutions/MatrixMultiply/matrix_vector_dot.py: each must fail exe."""

VARIANTS = {
    "dot taken with the old y": ("tl.where(r_mask, v * xr, 0.0)", "tl.where(r_mask, y * xr, 0.0)"),
    # (A^T in place of A would go unnoticed: x . (A^T x) = x . (A x).)
    "column loop skips the partial last chunk": (
        "for k0 in range(0, N, BLOCK_K):", "for k0 in range(0, N - BLOCK_K + 1, BLOCK_K):"),
    "y updated in place (the function must leave it unchanged)": (
        "    v = alpha * ax + beta * y\n",
        "    v = alpha * ax + beta * y\n    tl.store(y_ptr + rows.to(tl.int64) * sy, v, mask=r_mask)\n"),
    "alpha and beta swapped": ("float(alpha), float(beta)", "float(beta), float(alpha)"),
    "x assumed contiguous": ("x.stride(0), y.stride(0),", "1, y.stride(0),"),
}
