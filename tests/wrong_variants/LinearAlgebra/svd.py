"""Plausible wrong versions of solutions/LinearAlgebra/svd.py: each must fail exe."""

VARIANTS = {
    "singular values left in Jacobi's order (not sorted)": (
        "        pos += tl.sum(tl.where(before & (ii < n)[None, :], 1, 0), axis=1)\n",
        "        pos += 0 * tl.sum(tl.where(before & (ii < n)[None, :], 1, 0), axis=1)\n    pos += j\n"),
    "Vh returned as V (transpose forgotten)": (
        "_copy_t[(nb, triton.cdiv(nn, 32), triton.cdiv(nn, 32))](V2, Vh, nn, nn, V2.stride(0), V2.stride(2),\n                                                               V2.stride(1), *Vh.stride(), BM=32, BN=32)",
        "_copy_t[(nb, triton.cdiv(nn, 32), triton.cdiv(nn, 32))](V2, Vh, nn, nn, *V2.stride(), *Vh.stride(), BM=32, BN=32)"),
    "a single Jacobi sweep (not iterated to convergence)": ("for sweep in range(40):", "for sweep in range(1):"),
    "signs of U's columns not matched to the singular values": (
        "    _signs[(nb, triton.cdiv(nn, 32))](Ww, UR, nn, BM=32)\n", ""),
    "singular values stored as squared column norms (sqrt forgotten)": (
        "tl.store(S + b * n + pos, tl.sqrt(nj).to(S.dtype.element_ty), mask=jm)",
        "tl.store(S + b * n + pos, nj.to(S.dtype.element_ty), mask=jm)"),
}
