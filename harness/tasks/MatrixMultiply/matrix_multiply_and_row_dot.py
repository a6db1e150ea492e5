"""Dot product of the first two rows of alpha * (A @ B) + beta * C, for float32 matrices."""

import math

import torch

from harness.checks import ACCUMULATION_C, bind_arguments, check_bounded, unit_roundoff
from harness.taskdef import Case, Cost, Inputs

ENTRY = "matrix_multiply_and_row_dot"
SIGNATURE = "matrix_multiply_and_row_dot(A, B, alpha, beta, C)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["C", "alpha", "beta"]
DIFFICULTY = 2
DESCRIPTION = """
Form D = alpha * (A @ B) + beta * C and return the dot product of its first two rows,
sum over j of D[0, j] * D[1, j], as a 0-d float32 tensor (like
torch.dot(D[0], D[1]) after D = alpha * torch.mm(A, B) + beta * C). `A` is a float32 (n, m) matrix,
`B` a float32 (m, p) matrix and `C` a float32 (n, p) matrix, with n >= 2; any of them may be
non-contiguous, and m or p may be 0 (m = 0 makes A @ B zero; p = 0 gives 0). `alpha` and `beta` are
Python numbers. Only rows 0 and 1 of D enter the result, so rows 2 and beyond of A and C never
matter (not even if they hold NaN). Everything else follows IEEE arithmetic literally: beta * C is
computed even when beta is 0 (0 * inf = NaN propagates), and NaN or inf in B or in rows 0-1 of A
or C propagate. C is NOT modified: the function returns the scalar only and leaves all inputs
unchanged. Float32 accuracy is required: accumulate in float32 (or wider), do not round float32
inputs to TF32 (with tl.dot, input_precision="ieee" or "tf32x3").
"""

F32 = torch.float32
U32 = unit_roundoff(F32)


def reference(A, B, alpha, beta, C):
    C = alpha * torch.mm(A, B) + beta * C
    return torch.dot(C[0], C[1])


# -- checking ----------------------------------------------------------------------------------------
# The result is compared with the same formula evaluated in float64. Error bound, in two steps:
#   each element of rows 0-1 of D, d_ij = alpha * (A_i . B_j) + beta * C_ij, may err by
#   e_ij = 8 sqrt(m) u32 |alpha| (|A_i| . |B_j|) + 2 u32 |beta C_ij| + u32 |d_ij| : the product's
#   bound from harness/checks.py (any summation order), the rounding of beta * C and of the sum;
#   the dot of the two rows then errs by at most sum_j (e_0j |d_1j| + |d_0j| e_1j + e_0j e_1j) (the
#   rows' errors, taken worst-case) plus 8 sqrt(p) u32 sum_j |d_0j d_1j| (its own summation in any
#   order) plus u32 |exact|.
# A correct float32 kernel stays far inside; using C's rows for D, dropping beta * C, swapping alpha
# and beta or dotting other rows changes the result by O(1) relative, and TF32 inputs (2^-11 relative
# per product) exceed the bound on the small-m cases.
CHECK_NOTE = (
    "Compared with the float64 value of the same formula, allowed the float32 rounding of rows 0-1 of "
    "alpha*A@B + beta*C (8*sqrt(m)*u32*|alpha|*(|A|@|B|) + 2*u32*|beta*C| + u32*|D| per element, "
    "harness/checks.py's product bound) propagated through the dot, plus 8*sqrt(p)*u32*sum|D0*D1| for "
    "the dot's own summation order."
)


def _rows_exact_and_error(args):
    a, b, c = args["A"], args["B"], args["C"]
    alpha, beta = args["alpha"], args["beta"]
    m = a.shape[1]
    a2, c2 = a[:2].double(), c[:2].double()
    d = alpha * (a2 @ b.double()) + beta * c2
    magnitude = abs(alpha) * (a2.abs() @ b.double().abs())
    err = ACCUMULATION_C * math.sqrt(max(m, 1)) * U32 * magnitude + 2 * U32 * (beta * c2).abs() + U32 * d.abs()
    return d, err


def check(case, output, expected):
    args = bind_arguments(reference, case)
    d, e = _rows_exact_and_error(args)
    p = d.shape[1]
    exact = torch.dot(d[0], d[1])
    bound = ((e[0] * d[1].abs() + d[0].abs() * e[1] + e[0] * e[1]).sum()
             + ACCUMULATION_C * math.sqrt(max(p, 1)) * U32 * (d[0] * d[1]).abs().sum()
             + U32 * exact.abs() + torch.finfo(F32).tiny)
    return check_bounded(output, exact, bound, dtype=F32)


def cost(case: Case, output) -> Cost:
    args = bind_arguments(reference, case)
    m, p = args["B"].shape
    # Only rows 0 and 1 of D are needed: two rows of A and of C, all of B, read once.
    moved = 2 * m * 4 + m * p * 4 + 2 * p * 4 + 4
    return Cost(flops=2.0 * 2 * m * p + 3.0 * 2 * p + 2.0 * p, bytes=float(moved))


def cases(g: Inputs):
    r = g.randn
    yield Case("square-64", r(64, 64), r(64, 64), 1.0, 1.0, r(64, 64))
    yield Case("keywords", r(37, 53), r(53, 29), alpha=1.5, beta=0.5, C=r(37, 29))
    yield Case("two-rows", r(2, 40), r(40, 33), -0.75, 2.0, r(2, 33))
    yield Case("tall-n-100", r(100, 24), r(24, 70), 0.5, -1.0, r(100, 70))
    # Small m: TF32 inputs would dominate the error.
    yield Case("m8", r(5, 8), r(8, 90), alpha=2.0, beta=0.25, C=r(5, 90))
    yield Case("m1", r(3, 1), r(1, 64), 1.0, 0.5, r(3, 64))
    # Long rows (the dot spans many tiles) and deep m (the product spans many tiles).
    yield Case("long-rows-p-5000", r(4, 40), r(40, 5000), 0.1, 1.0, r(4, 5000))
    yield Case("deep-m-1000", r(3, 1000), r(1000, 60), alpha=0.03, beta=1.0, C=r(3, 60))
    yield Case("alpha-zero", r(6, 20), r(20, 30), alpha=0.0, beta=1.5, C=r(6, 30))
    yield Case("beta-zero", r(6, 20), r(20, 30), alpha=1.25, beta=0.0, C=r(6, 30))
    yield Case("int-scalars", r(8, 16), r(16, 48), 2, 3, r(8, 48))
    yield Case("positive-uniform", g.uniform(10, 50), g.uniform(50, 40), 1.0, 1.0, g.uniform(10, 40))
    yield Case("outliers", g.heavy_tailed(12, 64, scale=2.0), r(64, 80), 0.5, 2.0, r(12, 80))
    # Layouts.
    yield Case("transposed-all", g.transposed(r(30, 45)), g.transposed(r(45, 50)), 1.0, 0.5,
               g.transposed(r(30, 50)))
    yield Case("strided", g.strided(r(9, 33)), g.strided(r(33, 41)), alpha=-1.0, beta=1.0, C=g.strided(r(9, 41)))
    # Special values: NaN outside rows 0-1 never matters; beta = 0 times inf is NaN; NaN in B spreads.
    a, c = r(10, 20), r(10, 30)
    a[5, 3] = float("nan")
    c[7] = float("nan")
    yield Case("nan-outside-rows-0-1", a, r(20, 30), 1.0, 1.0, c)
    c = r(4, 30)
    c[0, 11] = float("inf")
    yield Case("beta-zero-times-inf", r(4, 20), r(20, 30), alpha=1.0, beta=0.0, C=c)
    b = r(20, 30)
    b[4, 9] = float("nan")
    yield Case("nan-in-B", r(4, 20), b, 1.0, 1.0, r(4, 30))
    yield Case("large-magnitude", r(5, 30, std=1e6), r(30, 40, std=1e6), 1.0, 1e12, r(5, 40))
    # Empty sizes: m = 0 leaves beta * C; p = 0 gives 0.
    yield Case("empty-m", r(3, 0), r(0, 10), 2.0, 0.5, r(3, 10))
    yield Case("empty-p", r(3, 12), r(12, 0), 1.0, 1.0, r(3, 0))


def perf_cases(g: Inputs):
    r = g.randn
    yield Case("upstream-1024", r(1024, 1024), r(1024, 1024), 1.0, 1.0, r(1024, 1024))
    yield Case("upstream-4096", r(4096, 4096), r(4096, 4096), 1.0, 1.0, r(4096, 4096))
    # B of 256 MB: wide rows and a deep inner size.
    yield Case("wide-64x4096x16384", r(64, 4096), r(4096, 16384), 0.5, 2.0, r(64, 16384))
    yield Case("deep-16x65536x1024", r(16, 65536), r(65536, 1024), 1.0, 0.5, r(16, 1024))
