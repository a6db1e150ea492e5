"""Plausible wrong versions of solutions/LinearAlgebra/eig.py: each must fail exe."""

VARIANTS = {
    "unshifted QR iterations (no Wilkinson shift)": (
        "            mur = tl.where(near1, l1r, l2r)\n            mui = tl.where(near1, l1i, l2i)\n",
        "            mur = 0.0 * tl.where(near1, l1r, l2r)\n            mui = 0.0 * tl.where(near1, l1i, l2i)\n"),
    "eigenvectors not normalized": ("inv = 1.0 / (big * tl.sqrt(ss))", "inv = 1.0 + 0.0 * big"),
    "QR rotations not accumulated into Q": ("                    rm = row < n\n                    hm = row <= k + 1\n",
                                            "                    rm = row < 0\n                    hm = row <= k + 1\n"),
    "complex division in the back substitution conjugated": (
        "vi = -(acci * dr - accr * di) / den", "vi = -(acci * dr + accr * di) / den"),
    "Householder reflections of the Hessenberg reduction not applied from the right": (
        "                tl.store(hb + off, tl.load(hb + off, mask=msk) - tau * wh[:, None] * v[None, :], mask=msk)\n", ""),
}
