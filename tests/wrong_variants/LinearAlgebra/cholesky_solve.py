"""Plausible wrong versions of solutions/LinearAlgebra/cholesky_solve.py: each must fail exe."""

VARIANTS = {
    "second substitution with L instead of L^T": (
        "_tri_solve(L3, X, lower=False, unit=False, transpose=True)", "_tri_solve(L3, X, lower=True, unit=False)"),
    "upper ignored (U treated as L)": ("        if upper:\n", "        if False:\n"),
    "substitutions in the wrong order for upper (U first, then U^T)": (
        "            _tri_solve(L3, X, lower=True, unit=False, transpose=True)\n            _tri_solve(L3, X, lower=False, unit=False)\n",
        "            _tri_solve(L3, X, lower=False, unit=False)\n            _tri_solve(L3, X, lower=True, unit=False, transpose=True)\n"),
    "float32 tl.dot in a float64 substitution": (
        "x = x - tl.dot(t, xk, input_precision=\"ieee\")",
        "x = x - tl.dot(t.to(tl.float32), xk.to(tl.float32)).to(x.dtype)"),
    "diagonal block solved with unit diagonal": (
        "_tri_solve(L3, X, lower=True, unit=False)\n            _tri_solve(L3, X, lower=False, unit=False, transpose=True)",
        "_tri_solve(L3, X, lower=True, unit=True)\n            _tri_solve(L3, X, lower=False, unit=False, transpose=True)"),
}
