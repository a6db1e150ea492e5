"""Plausible wrong versions of solutions/LinearAlgebra/ldl_factor.py: each must fail exe."""

VARIANTS = {
    "no pivoting (always a 1x1 pivot on the diagonal)": (
        "one_k = zero | (absakk >= ALPHA * colmax)", "one_k = zero | (absakk >= 0.0 * colmax)"),
    "conjugate missing in the Hermitian trailing update": (
        "                    if HERM:\n                        l1i = -l1i\n                        l2i = -l2i\n", ""),
    "2x2 pivots recorded as positive (1x1) pivots": (
        "            tl.store(pbase + k, (-(kp + 1)).to(tl.int32))\n", "            tl.store(pbase + k, (kp + 1).to(tl.int32))\n"),
    "interchange skips the entries between rows kk and kp": (
        "            for j0 in range(kk + 1, kp, BLOCK):", "            for j0 in range(kp, kp, BLOCK):"),
    "Hermitian multipliers stored conjugated": (
        "                _st(base, j.to(tl.int64) * n + k, l1r, l1i, jm, C)",
        "                _st(base, j.to(tl.int64) * n + k, l1r, -l1i if HERM else l1i, jm, C)"),
}
