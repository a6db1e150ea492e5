"""Plausible wrong versions of solutions/Fusion/fused_svd_reconstruct.py: each must fail exe."""

VARIANTS = {
    "V used untransposed (U diag(S) V instead of U diag(S) V^T)": (
        "_reconstruct[grid](Ut, Vt, S, out, m, n, nn, mm, 1, nn, 1,", "_reconstruct[grid](Ut, Vt, S, out, m, n, nn, mm, 1, 1, nn,"),
    "rotations never applied to V (V stays the identity)": ("    _rotate(Vt, lo, hi, nn, rot, c, s, tau, BR)\n", ""),
    "V rotated the opposite way": (
        "    _rotate(Vt, lo, hi, nn, rot, c, s, tau, BR)", "    _rotate(Vt, lo, hi, nn, rot, c, -s, -tau, BR)"),
    "last singular triplet dropped from the product": [
        ("_reconstruct[grid](Vt, Ut, S, out, m, n, nn, nn,", "_reconstruct[grid](Vt, Ut, S, out, m, n, nn - 1, nn,"),
        ("_reconstruct[grid](Ut, Vt, S, out, m, n, nn, mm,", "_reconstruct[grid](Ut, Vt, S, out, m, n, nn - 1, mm,"),
    ],
    "singular values stored as squared norms": (
        "    tl.store(S + j, sigma.to(S.dtype.element_ty), mask=jm)", "    tl.store(S + j, ss.to(S.dtype.element_ty), mask=jm)"),
    "product of the factors in float16": (
        "        acc = tl.dot(x * sv[None, :], y, acc, input_precision=\"ieee\")",
        "        acc = tl.dot((x * sv[None, :]).to(tl.float16), y.to(tl.float16), acc)"),
}
