"""Plausible wrong versions of solutions/Fusion/fused_cholesky_solve.py: each must fail exe."""

VARIANTS = {
    "back substitution with L instead of L^T (solves L L x = b)": (
        "_tri_solve(W, X, lower=False, transpose=True)", "_tri_solve(W, X, lower=True, transpose=False)"),
    "forward substitution skipped (solves L^T x = b)": (
        "        _tri_solve(W, X, lower=True, transpose=False)    # L y = b\n", ""),
    "square root of the pivot forgotten (L D-scaled, not L)": (
        "        d = tl.sqrt(tl.sum(tl.sum(", "        d = (tl.sum(tl.sum("),
    "diagonal of the substitution taken as 1 (unit triangular)": (
        "        xk = tl.where(i0 + k < n, xk / tl.where(i0 + k < n, dk, 1.0), 0.0)",
        "        xk = tl.where(i0 + k < n, xk, 0.0)"),
    "trailing update in float16 products": (
        "acc = tl.load(base + aoff, mask=am, other=0.0) - tl.dot(lr, tl.trans(lc), input_precision=\"ieee\")",
        "acc = tl.load(base + aoff, mask=am, other=0.0) - tl.dot(lr.to(tl.float16), tl.trans(lc).to(tl.float16))"),
    "trailing update only on the diagonal tiles": ("    if pn <= pm:\n", "    if pn == pm:\n"),
}
