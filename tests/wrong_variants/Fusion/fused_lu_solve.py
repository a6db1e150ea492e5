"""Plausible wrong versions of solutions/Fusion/fused_lu_solve.py: each must fail exe."""

_SWAP_X = """            tl.store(lb + p * n + c, lj, mask=ml)
        for c0 in range(0, k, BLOCK):
            c = c0 + offs
            mx = c < k
            xj = tl.load(X + b * n * k + j * k + c, mask=mx)
            xp = tl.load(X + b * n * k + p * k + c, mask=mx)
            tl.store(X + b * n * k + j * k + c, xp, mask=mx)
            tl.store(X + b * n * k + p * k + c, xj, mask=mx)
"""

VARIANTS = {
    # the interchanges applied to b as well: the solution of A x = b, not of L U x = b
    "solves A x = b (row interchanges applied to b too)": [
        ("def _lu_pivot(S, L, n, j, BLOCK: tl.constexpr):", "def _lu_pivot(S, L, n, j, X, k, BLOCK: tl.constexpr):"),
        ("            tl.store(lb + p * n + c, lj, mask=ml)\n", _SWAP_X),
        ("def _lu(S, L):", "def _lu(S, L, X):"),
        ("_lu_pivot[(nb,)](S, L, n, j, BLOCK=block, num_stages=1)",
         "_lu_pivot[(nb,)](S, L, n, j, X, X.shape[2], BLOCK=block, num_stages=1)"),
        ("        _lu(S, L)\n        _copy_rhs[(nb, triton.cdiv(n, 32), triton.cdiv(k, 32))](B3, X, n, k, *B3.stride(), BM=32, BN=32)\n",
         "        _copy_rhs[(nb, triton.cdiv(n, 32), triton.cdiv(k, 32))](B3, X, n, k, *B3.stride(), BM=32, BN=32)\n        _lu(S, L, X)\n"),
    ],
    "no pivoting (rows never interchanged)": ("    if p != j:\n", "    if p != p:\n"),
    "pivot chosen by largest value, not largest magnitude": (
        "        v = tl.abs(tl.load(sb + r.to(tl.int64) * n + j, mask=r < n, other=0.0)).to(tl.float32)",
        "        v = tl.load(sb + r.to(tl.int64) * n + j, mask=r < n, other=0.0).to(tl.float32)"),
    "interchanges not applied to the multipliers of earlier columns": (
        "            tl.store(lb + j * n + c, lp, mask=ml)\n            tl.store(lb + p * n + c, lj, mask=ml)\n", ""),
    "pivot searched from row 0 (finished rows included)": (
        "    for i0 in range(j, n, BLOCK):", "    for i0 in range(0, n, BLOCK):"),
    "U's diagonal taken as 1 in the back substitution": (
        "_tri_solve(S, X, lower=False, unit=False)", "_tri_solve(S, X, lower=False, unit=True)"),
    "block row right of the panel not solved with L11 (U12 = A12)": (
        "            _lu_u12[(nb, triton.cdiv(rest, BN))](S, L, n, j0, jend - j0, PNB=PNB, BN=BN)\n", ""),
}
