"""Plausible wrong versions of solutions/LinearAlgebra/solve_symmetric_ldl.py: each must fail exe."""

VARIANTS = {
    "no pivoting (always a 1x1 pivot on the diagonal)": (
        "one_k = zero | (absakk >= ALPHA * colmax)", "one_k = zero | (absakk >= 0.0 * colmax)"),
    "backward substitution with L^T where L^H is needed": (
        "            if HERM:\n                v0i = -v0i\n                v1i = -v1i\n", ""),
    "2x2 block of D solved as if diagonal": (
        "            y0r = dr * z0r - di * z0i - (fr * z1r - fi * z1i)",
        "            y0r = dr * z0r - di * z0i"),
    "interchanges not undone in the backward pass": (
        "        tl.debug_barrier()\n        if kp != kk:\n            ar, ai = _ld(xb, kk * nrhs + c, cm, C)\n            br, bi = _ld(xb, kp.to(tl.int64) * nrhs + c, cm, C)\n            _st(xb, kk * nrhs + c, br, bi, cm, C)\n            _st(xb, kp.to(tl.int64) * nrhs + c, ar, ai, cm, C)\n        k -= s",
        "        tl.debug_barrier()\n        if kp != kp:\n            ar, ai = _ld(xb, kk * nrhs + c, cm, C)\n            br, bi = _ld(xb, kp.to(tl.int64) * nrhs + c, cm, C)\n            _st(xb, kk * nrhs + c, br, bi, cm, C)\n            _st(xb, kp.to(tl.int64) * nrhs + c, ar, ai, cm, C)\n        k -= s"),
}
