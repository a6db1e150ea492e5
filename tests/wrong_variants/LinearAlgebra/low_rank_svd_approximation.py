"""Plausible wrong versions of solutions/LinearAlgebra/low_rank_svd_approximation.py: each must fail exe."""

VARIANTS = {
    "keeps k + 1 singular triplets (off by one)": (
        "kk = max(0, min(int(k), kmin))", "kk = max(0, min(int(k) + 1, kmin))"),
    "singular values left in Jacobi's order (truncation keeps the wrong triplets)": (
        "        pos += tl.sum(tl.where(before & (ii < n)[None, :], 1, 0), axis=1)\n",
        "        pos += 0 * tl.sum(tl.where(before & (ii < n)[None, :], 1, 0), axis=1)\n    pos += j\n"),
    "singular values applied twice (U S^2 Vh)": ("u * s[None, :], mask=msk)", "u * s[None, :] * s[None, :], mask=msk)"),
    "V's columns used where Vh's rows belong": (
        "_mm(X, Vh[:, :kk, :], res)", "_mm(X, Vh[:, :, :kk].mT if m == n else Vh[:, :kk, :], res)"),
}
