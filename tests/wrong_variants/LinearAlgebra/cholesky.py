"""Plausible wrong versions of solutions/LinearAlgebra/cholesky.py: each must fail exe."""

VARIANTS = {
    "upper=True returns the plain transpose of L (no conjugate)": ("        if UPPER:\n            xi = -xi\n", ""),
    "trailing update uses L21 L21^T (conjugate forgotten)": (
        "acc = acc - tl.dot(ai_, bi_, input_precision=\"ieee\")", "acc = acc + tl.dot(ai_, bi_, input_precision=\"ieee\")"),
    "other triangle not zeroed (input entries left there)": (
        "x = tl.load(W + src, mask=msk & keep, other=0.0)", "x = tl.load(W + src, mask=msk, other=0.0)"),
    "float32 tl.dot in the trailing update of a float64 factor": (
        "acc = tl.load(base + aoff, mask=am, other=0.0) - tl.dot(ar_, br_, input_precision=\"ieee\")",
        "acc = tl.load(base + aoff, mask=am, other=0.0) - tl.dot(ar_.to(tl.float32), br_.to(tl.float32)).to(ar_.dtype)"),
    "diagonal block update with l_i l_j instead of l_i conj(l_j)": (
        "ai = tl.where(upd, ai - (coli[:, None] * colr[None, :] - colr[:, None] * coli[None, :]), ai)",
        "ai = tl.where(upd, ai - (coli[:, None] * colr[None, :] + colr[:, None] * coli[None, :]), ai)"),
}
