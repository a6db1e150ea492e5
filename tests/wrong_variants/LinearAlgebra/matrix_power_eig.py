"""Plausible wrong versions of solutions/LinearAlgebra/matrix_power_eig.py: each must fail exe."""

VARIANTS = {
    "argument from atan(im / re) instead of atan2 (wrong branch for Re < 0)": (
        "arg = _atan2(li, lr)", "arg = _atan2(li / lr, 1.0 + 0.0 * lr)"),
    "Q^T applied where Q^H belongs": ("bi = -tl.load(Bi + boff, mask=bm, other=0.0)", "bi = tl.load(Bi + boff, mask=bm, other=0.0)"),
    "imaginary part of the exponent ignored": (
        "        er = kr * lnr - ki * arg\n        ei = kr * arg + ki * lnr\n",
        "        er = kr * lnr\n        ei = kr * arg\n"),
    "eigenvector matrix of T treated as its own inverse (Y^-1 not applied)": (
        "                accr -= tl.sum(xr * cr[None, :] - xi * ci[None, :], axis=1)\n                acci -= tl.sum(xr * ci[None, :] + xi * cr[None, :], axis=1)\n",
        "                accr -= 0.0 * tl.sum(xr * cr[None, :] - xi * ci[None, :], axis=1)\n                acci -= 0.0 * tl.sum(xr * ci[None, :] + xi * cr[None, :], axis=1)\n"),
}
