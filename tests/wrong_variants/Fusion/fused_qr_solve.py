"""Plausible wrong versions of solutions/Fusion/fused_qr_solve.py: each must fail exe."""

VARIANTS = {
    "Q^T never applied to b (x = R^-1 b[:n])": (
        "_apply[(triton.cdiv(nc - j - 1, BN),)](W, tau, m, nc, j,", "_apply[(triton.cdiv(n - j - 1, BN),)](W, tau, m, n, j,"),
    "R^T in place of R in the back substitution": [
        ("_trsm_diag[(triton.cdiv(nrhs, BN),)](W, X, n, nrhs, i0, 1, m,", "_trsm_diag[(triton.cdiv(nrhs, BN),)](W, X, n, nrhs, i0, m, 1,"),
        ("(W, X, n, nrhs, i0, 1, m, TB=TB, BM=BM, BN=BN)", "(W, X, n, nrhs, i0, m, 1, TB=TB, BM=BM, BN=BN)"),
    ],
    # in float64 the cancelling sign costs ~1e-16 / (||x||/alpha)^2 only in the reflector's own (tiny)
    # direction, which stays harmless; in float32 alpha - beta rounds to 0 on the nearly triangular case
    "reflector with the cancelling sign, in float32 (beta = sign(alpha) ||x||)": [
        ("    ss = tl.zeros([BLOCK], dtype=tl.float64)\n    al = tl.zeros([BLOCK], dtype=tl.float64)\n",
         "    ss = tl.zeros([BLOCK], dtype=tl.float32)\n    al = tl.zeros([BLOCK], dtype=tl.float32)\n"),
        ("        x = tl.load(col + r, mask=r < m, other=0.0).to(tl.float64)\n        al +=",
         "        x = tl.load(col + r, mask=r < m, other=0.0)\n        al +="),
        ("    beta = tl.where(alpha >= 0, -nrm, nrm)", "    beta = tl.where(alpha >= 0, nrm, -nrm)"),
    ],
    "tau left out (H = I - v v^T)": (
        "    w = tau * (xj + tl.sum(acc, axis=1))", "    w = xj + tl.sum(acc, axis=1)"),
    "implicit v_j = 1 left out of v^T x": (
        "    w = tau * (xj + tl.sum(acc, axis=1))", "    w = tau * tl.sum(acc, axis=1)"),
    "column norm accumulated in float32 (squares overflow or underflow)": [
        ("    ss = tl.zeros([BLOCK], dtype=tl.float64)\n    al = tl.zeros([BLOCK], dtype=tl.float64)\n",
         "    ss = tl.zeros([BLOCK], dtype=tl.float32)\n    al = tl.zeros([BLOCK], dtype=tl.float32)\n"),
        ("        x = tl.load(col + r, mask=r < m, other=0.0).to(tl.float64)\n        al +=",
         "        x = tl.load(col + r, mask=r < m, other=0.0)\n        al +="),
    ],
    "v^T x accumulated in float16": (
        "        acc += t * v[None, :]", "        acc += (t.to(tl.float16) * v[None, :].to(tl.float16)).to(tl.float32)"),
    "back substitution without dividing by R's diagonal": (
        "        xk = tl.where(i0 + k < n, xk / tl.where(i0 + k < n, dk, 1.0), 0.0)", "        xk = tl.where(i0 + k < n, xk, 0.0)"),
}
