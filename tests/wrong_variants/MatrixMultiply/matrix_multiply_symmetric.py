"""Plausible wrong versions of solutions/MatrixMultiply/matrix_multiply_symmetric.py: each must fail exe."""

VARIANTS = {
    "D^T @ D instead of D @ D^T": [
        ("x = tl.load(d_ptr + rows_i[:, None] + k[None, :],",
         "x = tl.load(d_ptr + k[None, :].to(tl.int64) * N + offs_i[:, None],"),
        ("yt = tl.load(d_ptr + rows_j[None, :] + k[:, None],",
         "yt = tl.load(d_ptr + k[:, None].to(tl.int64) * N + offs_j[None, :],"),
    ],
    "mirrored tile stored without transposing the product": (
        "alpha * tl.trans(acc) + beta * d_ji", "alpha * acc + beta * d_ji"),
    "D assumed symmetric too (mirrored tile adds beta * D[I, J]^T)": (
        "alpha * tl.trans(acc) + beta * d_ji", "alpha * tl.trans(acc) + beta * tl.trans(d_ij)"),
    "alpha left out of the second step": [
        ("tl.store(e_ptr + ij, alpha * acc + beta * d_ij", "tl.store(e_ptr + ij, acc + beta * d_ij"),
        ("tl.store(e_ptr + ji, alpha * tl.trans(acc) + beta * d_ji",
         "tl.store(e_ptr + ji, tl.trans(acc) + beta * d_ji"),
    ],
    "C assumed contiguous": ("C.stride(0), C.stride(1),", "n, 1,"),
}
