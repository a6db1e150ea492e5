"""Plausible wrong versions of solutions/MatrixMultiply/symmetric_mm_and_abs_sum.py: each must fail exe."""

VARIANTS = {
    # (C^T in place of C would go unnoticed: sum |P + C^T| = sum |P + C| for a symmetric P.)
    "alpha and beta swapped": ("float(alpha), float(beta)", "float(beta), float(alpha)"),
    "abs of each term (|alpha P| + |beta C|) instead of |alpha P + beta C|": [
        ("tl.abs(alpha * acc + beta * c_ij)", "tl.abs(alpha * acc) + tl.abs(beta * c_ij)"),
        ("d_ji = alpha * tl.trans(acc) + beta * c_ji", "d_ji = tl.abs(alpha * tl.trans(acc)) + tl.abs(beta * c_ji)"),
    ],
    "D assumed symmetric (mirrored tile counted as a copy of tile (i, j))": (
        "total += tl.sum(tl.sum(tl.where(ji_mask, tl.abs(d_ji), 0.0), axis=1), axis=0)", "total += total"),
    "beta * C left out": [("tl.abs(alpha * acc + beta * c_ij)", "tl.abs(alpha * acc)"),
                          ("d_ji = alpha * tl.trans(acc) + beta * c_ji", "d_ji = alpha * tl.trans(acc)")],
    "plain sum of D (abs forgotten)": [("tl.abs(alpha * acc + beta * c_ij)", "alpha * acc + beta * c_ij"),
                                       ("tl.abs(d_ji)", "d_ji")],
}
