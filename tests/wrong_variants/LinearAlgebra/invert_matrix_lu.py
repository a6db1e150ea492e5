"""Plausible wrong versions of solutions/LinearAlgebra/invert_matrix_lu.py: each must fail exe."""

VARIANTS = {
    "permutation applied as P instead of P^T": (
        "        tt = k - 1 - t\n        pv = tl.load(PIV + b * k + tt)\n        src = tl.where(src == tt, pv, tl.where(src == pv, tt, src))\n    pm = pos < n",
        "        tt = t\n        pv = tl.load(PIV + b * k + tt)\n        src = tl.where(src == tt, pv, tl.where(src == pv, tt, src))\n    pm = pos < n"),
    "pivot=True ignored (no interchanges)": ("PIVOT=pivot, BM=BM_P, NB=NB, GP", "PIVOT=False, BM=BM_P, NB=NB, GP"),
    "back substitution ignores U's diagonal": (
        "_tri_solve(W, X, lower=False, unit=False)", "_tri_solve(W, X, lower=False, unit=True)"),
    "float32 tl.dot in the substitution of a float64 inverse": (
        "x = x - tl.dot(t, xk, input_precision=\"ieee\")",
        "x = x - tl.dot(t.to(tl.float32), xk.to(tl.float32)).to(x.dtype)"),
    "identity built transposed against the interchanges (P^T applied on the right)": (
        "v = tl.where(src[:, None] == c[None, :], 1.0, 0.0)", "v = tl.where(pos[:, None] == c[None, :], 1.0, 0.0)"),
}
