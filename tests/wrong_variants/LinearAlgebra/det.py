"""Plausible wrong versions of solutions/LinearAlgebra/det.py: each must fail exe."""

VARIANTS = {
    "permutation sign ignored": ("det = tl.where(nswap % 2 == 1, -det, det)", "det = det"),
    "sign from the matrix size instead of the interchanges": (
        "det = tl.where(nswap % 2 == 1, -det, det)", "det = tl.where(n % 2 == 1, -det, det)"),
    "no partial pivoting": ("PIVOT=pivot, BM=BM_P, NB=NB, GP", "PIVOT=False, BM=BM_P, NB=NB, GP"),
    "diagonal read with row stride n (first row instead of U's diagonal)": (
        "d = tl.load(W + b * n * n + i.to(tl.int64) * (n + 1), mask=im, other=1.0).to(tl.float64)",
        "d = tl.load(W + b * n * n + i.to(tl.int64), mask=im, other=1.0).to(tl.float64)"),
    "determinant of a 0 x 0 matrix taken as 0": (
        "return torch.ones(batch, dtype=A.dtype, device=A.device)", "return torch.zeros(batch, dtype=A.dtype, device=A.device)"),
}
