"""Plausible wrong versions of solutions/LinearAlgebra/pseudoinverse_svd.py: each must fail exe."""

VARIANTS = {
    "cutoff ignored (every nonzero singular value inverted)": (
        "sinv = tl.where(s > cutoff, 1.0 / tl.where(s > cutoff, s, 1.0), 0.0)",
        "sinv = tl.where(s > 0, 1.0 / tl.where(s > 0, s, 1.0), 0.0)"),
    "absolute cutoff rcond instead of rcond * max(S)": (
        "cutoff = rcond * tl.max(smax, 0)", "cutoff = rcond + 0.0 * tl.max(smax, 0)"),
    "singular values not inverted": ("(v * sinv[None, :]).to(X.dtype.element_ty)", "(v * s[None, :]).to(X.dtype.element_ty)"),
    "U and V exchanged (U diag(S_inv) Vh)": (
        "        _mm(X, U.mT, res)\n", "        _mm(U, X.mT, res) if m == n else _mm(X, U.mT, res)\n"),
}
