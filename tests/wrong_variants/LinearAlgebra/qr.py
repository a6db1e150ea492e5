"""Plausible wrong versions of solutions/LinearAlgebra/qr.py: each must fail exe."""

VARIANTS = {
    "reflector sign chosen with cancellation (beta = +sign(alpha) ||x||)": (
        "beta = tl.where(alpha >= 0, -nrm, nrm)", "beta = tl.where(alpha >= 0, nrm, -nrm)"),
    "column norm not scaled (underflows / overflows at extreme magnitudes)": (
        "scale = tl.where(big > 0, big, 1.0)", "scale = tl.where(big > 0, 1.0, 1.0)"),
    "Q formed with the reflectors in the wrong order": (
        "j0, jb, j0, REVERSE=True, BM=64, BN=BN)", "j0, jb, j0, REVERSE=False, BM=64, BN=BN)"),
    "tau with the wrong sign": ("tau = tl.where(trivial, 0.0, (beta - alpha) / beta)",
                                "tau = tl.where(trivial, 0.0, (alpha - beta) / beta)"),
    "reflectors left below R's diagonal": (
        "x = tl.load(W + b * m * n + r.to(tl.int64)[:, None] * n + c[None, :], mask=msk & keep, other=0.0)",
        "x = tl.load(W + b * m * n + r.to(tl.int64)[:, None] * n + c[None, :], mask=msk & (r < m)[:, None], other=0.0)"),
}
