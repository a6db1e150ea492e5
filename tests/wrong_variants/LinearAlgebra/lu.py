"""Plausible wrong versions of solutions/LinearAlgebra/lu.py: each must fail exe."""

VARIANTS = {
    "pivot=True ignored (no row interchanges)": ("PIVOT=pivot, BM=BM_P, NB=NB, GP", "PIVOT=False, BM=BM_P, NB=NB, GP"),
    "pivot chosen by largest signed value, not magnitude": (
        "a = tl.where(valid, tl.abs(a), -1.0)", "a = tl.where(valid, a, -1.0)"),
    "row interchanges skip the columns left of the panel (L not permuted)": [
        ("cm = (c < n) & ((c < j0) | (c >= j0 + jb))", "cm = (c < n) & (c >= j0 + jb)"),
        ("cm = (c < n) & ((c < j0) | (c >= j0 + jb))", "cm = (c < n) & (c >= j0 + jb)")],
    "P transposed (P[i, perm[i]] instead of P[perm[i], i])": (
        "tl.store(P + b * m * m + i.to(tl.int64)[:, None] * m + pos[None, :], v,",
        "tl.store(P + b * m * m + pos.to(tl.int64)[None, :] * m + i[:, None], v,"),
    "trailing update uses the pre-solve A12 (U12 solve skipped)": (
        "_lu_trsm_u12[(nb, triton.cdiv(rest_c, 64))](W, n, j0, jb, m * n, n, NB=NB, BN=64)", "pass"),
}
