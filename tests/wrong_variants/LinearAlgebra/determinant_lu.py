"""Plausible wrong versions of solutions/LinearAlgebra/determinant_lu.py: each must fail exe."""

VARIANTS = {
    "permutation sign ignored": ("det = tl.where(nswap % 2 == 1, -det, det)", "det = det"),
    "interchanges counted where the pivot row is the diagonal row": (
        "swaps += tl.where(im & (p != i), 1, 0)", "swaps += tl.where(im & (p == i), 1, 0)"),
    "pivot=True ignored (no interchanges)": ("PIVOT=pivot, BM=BM_P, NB=NB, GP", "PIVOT=False, BM=BM_P, NB=NB, GP"),
    "float32 trailing update in a float64 task": (
        "a = a - tl.dot(l21, u12, input_precision=\"ieee\")",
        "a = a - tl.dot(l21.to(tl.float32), u12.to(tl.float32)).to(a.dtype)"),
    "out= ignored (result not written into out)": ("        out.copy_(d)\n        return out", "        return d"),
}
