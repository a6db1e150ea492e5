"""Plausible wrong versions of solutions/LinearAlgebra/determinant_via_qr.py: each must fail exe."""

VARIANTS = {
    "det(Q) ignored (product of R's diagonal only)": (
        "det = tl.where(tl.sum(refl, 0) % 2 == 1, -det, det)", "det = det"),
    "every reflector counted as a reflection (det(Q) = (-1)^n)": (
        "refl += tl.where(t != 0, 1, 0)", "refl += tl.where(im, 1, 0)"),
    "product of |R_jj| (sign of R dropped too)": (
        "prod = prod * tl.load(W + b * n * n + i.to(tl.int64) * (n + 1), mask=im, other=1.0).to(tl.float64)",
        "prod = prod * tl.abs(tl.load(W + b * n * n + i.to(tl.int64) * (n + 1), mask=im, other=1.0).to(tl.float64))"),
    "trailing columns not updated by the panel's reflectors": (
        "            _qr_apply[(nb, triton.cdiv(rest, BN))](W, tau, W, m, n, k, n, j0, jb, j0 + jb, REVERSE=False, BM=64, BN=BN)\n",
        "            pass\n"),
}
