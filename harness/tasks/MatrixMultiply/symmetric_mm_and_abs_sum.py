"""Sum of |alpha * A @ A^T + beta * C| over all elements, for float32 A (n, m) and C (n, n)."""

import math

import torch

from harness.checks import ACCUMULATION_C, bind_arguments, check_bounded, unit_roundoff
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "symmetric_mm_and_abs_sum"
SIGNATURE = "symmetric_mm_and_abs_sum(A, C, alpha, beta)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["alpha", "beta"]
DIFFICULTY = 4
DESCRIPTION = """
Form D = alpha * (A @ A^T) + beta * C (A^T is A transposed) and return the sum of the absolute
values of all its elements as a 0-d float32 tensor (like
torch.sum(torch.abs(alpha * torch.mm(A, A.T) + beta * C))). `A` is a float32 (n, m) matrix and `C`
a float32 (n, n) matrix; either may be non-contiguous, and n or m may be 0 (n = 0 gives 0; m = 0
leaves beta * C). `alpha` and `beta` are Python numbers. A @ A^T is symmetric, which a kernel may
exploit (each pair of mirrored tiles computed once), but D is not, because of beta * C. IEEE
arithmetic applies literally: beta * C is formed even when beta is 0 (0 * inf = NaN), and NaN or
inf in A or C propagate to the result. C is NOT modified: return the scalar only and leave both
inputs unchanged. Float32 accuracy is required: accumulate in float32 (or wider) and do not round
float32 inputs to TF32 (with tl.dot use input_precision="ieee" or "tf32x3"; with TF32 the small-n
cases fail).
"""

F32 = torch.float32
U32 = unit_roundoff(F32)


def reference(A, C, alpha, beta):
    C = alpha * torch.mm(A, A.T) + beta * C
    return torch.sum(torch.abs(C))


# -- checking ----------------------------------------------------------------------------------------
# Compared with the same formula evaluated in float64. Each element of D may err by
#   e_ij = 8 sqrt(m) u32 |alpha| (|A| @ |A|^T)_ij + 2 u32 |beta C_ij| + u32 |D_ij|
# (harness/checks.py's product bound for any summation order, the rounding of beta * C and of the
# sum); since ||a| - |b|| <= |a - b|, the sum of |D| errs by at most sum e_ij plus its own summation
# error over n^2 terms, 8 sqrt(n^2) u32 sum |D_ij|, plus u32 |exact|. A correct float32 kernel stays
# far inside; A^T @ A, a missing abs, beta * C left out or a mirrored tile counted once is off by O(1)
# relative. TF32 inputs err by about 2^-11 per product: on the small cases that exceeds the bound.
CHECK_NOTE = (
    "Compared with the float64 value of the same formula, allowed the float32 rounding of every element "
    "of D = alpha*A@A^T + beta*C (8*sqrt(m)*u32*|alpha|*(|A|@|A|^T) + 2*u32*|beta*C| + u32*|D|, "
    "harness/checks.py's product bound) plus 8*n*u32*sum|D| for the summation of n^2 terms in any order."
)


def check(case, output, expected):
    args = bind_arguments(reference, case)
    a, c = args["A"].double(), args["C"].double()
    alpha, beta = args["alpha"], args["beta"]
    n, m = a.shape
    d = alpha * (a @ a.T) + beta * c
    exact = d.abs().sum()
    e = (ACCUMULATION_C * math.sqrt(max(m, 1)) * U32 * abs(alpha) * (a.abs() @ a.abs().T)
         + 2 * U32 * (beta * c).abs() + U32 * d.abs())
    bound = e.sum() + ACCUMULATION_C * max(n, 1) * U32 * d.abs().sum() + U32 * exact.abs() + torch.finfo(F32).tiny
    return check_bounded(output, exact, bound, dtype=F32)


def cost(case: Case, output) -> Cost:
    args = bind_arguments(reference, case)
    a, c = args["A"], args["C"]
    n, m = a.shape
    # A @ A^T is symmetric: n (n + 1) / 2 distinct dot products of length m (2m flops each); then
    # alpha * P + beta * C, abs and the sum over n^2 elements. A and C read once, one scalar written.
    flops = n * (n + 1) * m + 5.0 * n * n
    return Cost(flops=float(flops), bytes=float(numel_bytes(a) + numel_bytes(c) + numel_bytes(output)))


def cases(g: Inputs):
    r = g.randn
    yield Case("n-16", r(16, 16), r(16, 16), 1.0, 0.5)
    yield Case("n-8-keywords", r(8, 8), r(8, 8), alpha=2.0, beta=-1.0)
    yield Case("rect-n-40-m-17", r(40, 17), r(40, 40), alpha=0.5, beta=2.0)
    yield Case("odd-n-37-m-53", r(37, 53), r(37, 37), 1.0, 1.0)
    yield Case("two-tiles-n-100", r(100, 30), r(100, 100), alpha=0.2, beta=1.0)
    yield Case("multi-tile-n-130", r(130, 24), r(130, 130), 0.1, 0.5)
    yield Case("m1", r(20, 1), r(20, 20), 2.0, 1.0)
    yield Case("deep-m-700", r(24, 700), r(24, 24), alpha=0.02, beta=1.0)
    yield Case("alpha-zero", r(16, 10), r(16, 16), alpha=0.0, beta=0.5)
    yield Case("beta-zero", r(16, 10), r(16, 16), alpha=-0.3, beta=0.0)
    yield Case("negative-alpha", r(24, 12), r(24, 24), -1.0, 1.0)
    yield Case("int-scalars", r(12, 9), r(12, 12), 2, 1)
    yield Case("positive-uniform", g.uniform(30, 20), g.uniform(30, 30), 0.2, 0.5)
    yield Case("outliers", g.heavy_tailed(28, 36, scale=0.5), r(28, 28), alpha=0.1, beta=1.5)
    yield Case("single", r(1, 3), r(1, 1), 1.0, 0.5)
    # Layouts.
    yield Case("transposed", g.transposed(r(33, 21)), g.transposed(r(33, 33)), 0.5, 0.5)
    yield Case("strided", g.strided(r(27, 14)), g.strided(r(27, 27)), alpha=0.3, beta=2.0)
    # Special values and magnitudes.
    c = r(20, 20)
    c[4, 6] = float("nan")
    yield Case("nan-in-C", r(20, 8), c, 1.0, 0.5)
    c = r(20, 20)
    c[2, 3] = float("inf")
    yield Case("beta-zero-times-inf", r(20, 8), c, alpha=1.0, beta=0.0)
    yield Case("large-magnitude", r(20, 12, std=1e8), r(20, 20, std=1e15), 1e-2, 2.0)
    # Empty sizes.
    yield Case("empty-m", r(6, 0), r(6, 6), 1.0, 0.5)
    yield Case("empty-n", r(0, 5), r(0, 0), 1.0, 0.5)


def perf_cases(g: Inputs):
    r = g.randn
    yield Case("upstream-1024", r(1024, 1024), r(1024, 1024), 1.0, 0.5)
    yield Case("upstream-2048", r(2048, 2048), r(2048, 2048), 1.0, 0.5)
    yield Case("4096", r(4096, 4096), r(4096, 4096), 0.02, 0.5)
    yield Case("n-8192-m-1024", r(8192, 1024), r(8192, 8192), 0.05, 1.0)
