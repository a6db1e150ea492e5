"""Plausible wrong versions of solutions/LinearAlgebra/solve.py: each must fail exe."""

VARIANTS = {
    "no partial pivoting": ("PIVOT=pivot, BM=BM_P, NB=NB, GP", "PIVOT=False, BM=BM_P, NB=NB, GP"),
    "row interchanges applied to B in the wrong order (P instead of P^T)": (
        "        tt = k - 1 - t\n        pv = tl.load(PIV + b * k + tt)\n        src = tl.where(src == tt, pv, tl.where(src == pv, tt, src))\n    pm = pos < n",
        "        tt = t\n        pv = tl.load(PIV + b * k + tt)\n        src = tl.where(src == tt, pv, tl.where(src == pv, tt, src))\n    pm = pos < n"),
    "back substitution ignores U's diagonal": (
        "_tri_solve(W, X, lower=False, unit=False)", "_tri_solve(W, X, lower=False, unit=True)"),
    "forward substitution divides by the diagonal (L not unit)": (
        "_tri_solve(W, X, lower=True, unit=True)", "_tri_solve(W, X, lower=True, unit=False)"),
    "float32 tl.dot in the substitution of a float64 system": (
        "x = x - tl.dot(t, xk, input_precision=\"ieee\")",
        "x = x - tl.dot(t.to(tl.float32), xk.to(tl.float32)).to(x.dtype)"),
}
