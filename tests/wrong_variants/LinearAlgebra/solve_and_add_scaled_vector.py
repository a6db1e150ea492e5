"""Plausible wrong versions of solutions/LinearAlgebra/solve_and_add_scaled_vector.py: each must fail exe."""

VARIANTS = {
    "forward substitution (A taken as lower triangular)": (
        "_tri_solve(A3, X, lower=False, unit=False)", "_tri_solve(A3, X, lower=True, unit=False)"),
    "solves A^T x = b (transposed A)": (
        "_tri_solve(A3, X, lower=False, unit=False)", "_tri_solve(A3, X, lower=True, unit=False, transpose=True)"),
    "alpha * y subtracted": ("tl.load(xo, mask=msk) + alpha * y", "tl.load(xo, mask=msk) - alpha * y"),
    "y added unscaled": ("tl.load(xo, mask=msk) + alpha * y", "tl.load(xo, mask=msk) + y"),
    "diagonal block reads A's strictly lower triangle": (
        "            tk = tl.where(rr < k, tk, 0.0)\n", "            tk = tl.where(rr != k, tk, 0.0)\n"),
}
