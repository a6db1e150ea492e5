"""Plausible wrong versions of solutions/LinearAlgebra/lu.py: each must fail exe."""

VARIANTS = {
    "pivot=True ignored (no row interchanges)": ("PIVOT=pivot, BM=64", "PIVOT=False, BM=64"),
    "pivot chosen by largest signed value, not magnitude": (
        "v = tl.abs(tl.load(base + r.to(tl.int64) * s_r + col, mask=r < m, other=0.0)).to(tl.float64)",
        "v = tl.load(base + r.to(tl.int64) * s_r + col, mask=r < m, other=0.0).to(tl.float64)"),
    "row interchange skips the already-factored columns (L not permuted)": (
        "for c0 in range(0, n, BC):", "for c0 in range(j0, n, BC):"),
    "P transposed (P[i, perm[i]] instead of P[perm[i], i])": (
        "tl.store(P + b * m * m + src.to(tl.int64) * m + pos,", "tl.store(P + b * m * m + pos.to(tl.int64) * m + src,"),
    "trailing update uses the pre-solve A12 (U12 solve skipped)": (
        "_lu_trsm_u12[(nb, triton.cdiv(rest_c, 64))](W, n, j0, jb, m * n, n, NB=NB, BN=64)", "pass"),
}
