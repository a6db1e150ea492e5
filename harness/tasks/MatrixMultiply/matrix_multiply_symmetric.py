"""Two chained updates of a float32 matrix: D = alpha*A@B + beta*C, then alpha*D@D^T + beta*D."""

import math

import torch

from harness.checks import ACCUMULATION_C, bind_arguments, check_bounded, unit_roundoff
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "matrix_multiply_symmetric"
SIGNATURE = "matrix_multiply_symmetric(A, B, C, alpha, beta)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["alpha", "beta"]
DIFFICULTY = 4
DESCRIPTION = """
Apply two updates in sequence and return the result: first D = alpha * (A @ B) + beta * C, then
E = alpha * (D @ D^T) + beta * D (D^T is D transposed), like
C = alpha * torch.mm(A, B) + beta * C; C = alpha * torch.mm(C, C.T) + beta * C. `A` is a float32
(n, m) matrix, `B` a float32 (m, n) matrix and `C` a float32 (n, n) matrix (the second step needs
D square); any of them may be non-contiguous, and n or m may be 0. `alpha` and `beta` are Python
numbers, used in both steps. Return E as a new float32 (n, n) tensor; the inputs, C included, must
not be modified. IEEE arithmetic applies literally (beta * C is formed even when beta is 0, so NaN
or inf anywhere in an operand spreads as the products dictate). D @ D^T is symmetric, which a
kernel may exploit (computing each pair of mirrored tiles once); E itself is not symmetric in
general because of beta * D. Float32 accuracy is required: accumulate in float32 (or wider) and do
not round float32 inputs to TF32 (with tl.dot use input_precision="ieee" or "tf32x3").
"""

F32 = torch.float32
U32 = unit_roundoff(F32)


def reference(A, B, C, alpha, beta):
    C = alpha * torch.mm(A, B) + beta * C
    C = alpha * torch.mm(C, C.T) + beta * C
    return C


# -- checking ----------------------------------------------------------------------------------------
# The result is compared with the same two steps evaluated in float64, allowing the float32 error of
# each step and its propagation (first order, worst case, plus the second-order term):
#   step 1: E1 = 8 sqrt(m) u32 |alpha| (|A| @ |B|) + 2 u32 |beta C| + u32 |D|
#           (harness/checks.py's product bound for any summation order, the rounding of beta * C and
#           of the sum);
#   step 2: |alpha| (E1 @ |D|^T + |D| @ E1^T + E1 @ E1^T)      (D's error carried through D @ D^T)
#           + 8 sqrt(n) u32 |alpha| (|D| @ |D|^T)           (the second product's own summation)
#           + |beta| E1 + 2 u32 |beta D| + u32 |E|            (beta * D and the final sum).
# A correct float32 kernel stays far inside; D^T @ D instead of D @ D^T, the original C in the second
# step, a mirrored tile not transposed or a dropped term is off by O(1), and TF32 inputs exceed the
# bound on the small-m cases.
CHECK_NOTE = (
    "Compared with both steps evaluated in float64, allowed the float32 rounding of each product "
    "(8*sqrt(K)*u32*|alpha|*(|X|@|Y|), harness/checks.py's product bound) and of the beta terms, with "
    "the first step's error propagated through D@D^T, since a kernel may sum in any order."
)


def check(case, output, expected):
    args = bind_arguments(reference, case)
    a, b, c = args["A"].double(), args["B"].double(), args["C"].double()
    alpha, beta = abs(args["alpha"]), args["beta"]
    m, n = a.shape[1], a.shape[0]
    d = args["alpha"] * (a @ b) + beta * c
    e = args["alpha"] * (d @ d.T) + beta * d
    e1 = ACCUMULATION_C * math.sqrt(max(m, 1)) * U32 * alpha * (a.abs() @ b.abs()) + 2 * U32 * (beta * c).abs() \
        + U32 * d.abs()
    ad = d.abs()
    bound = (alpha * (e1 @ ad.T + ad @ e1.T + e1 @ e1.T)
             + ACCUMULATION_C * math.sqrt(max(n, 1)) * U32 * alpha * (ad @ ad.T)
             + abs(beta) * e1 + 2 * U32 * (beta * d).abs() + U32 * e.abs() + torch.finfo(F32).tiny)
    return check_bounded(output, e, bound, dtype=F32)


def cost(case: Case, output) -> Cost:
    args = bind_arguments(reference, case)
    a, b, c = args["A"], args["B"], args["C"]
    n, m = a.shape
    # A @ B: 2 n^2 m; D @ D^T is symmetric: n (n + 1) / 2 distinct dot products of length n, 2n flops
    # each; two alpha*x + beta*y epilogues. Inputs read once, the result written once.
    flops = 2.0 * n * n * m + n * (n + 1) * n + 6.0 * n * n
    return Cost(flops=flops, bytes=float(numel_bytes(a) + numel_bytes(b) + numel_bytes(c) + numel_bytes(output)))


def cases(g: Inputs):
    r = g.randn
    yield Case("square-32", r(32, 32), r(32, 32), r(32, 32), 1.0, 0.5)
    yield Case("keywords-rect", r(40, 17), r(17, 40), r(40, 40), alpha=0.5, beta=2.0)
    yield Case("odd-n-37", r(37, 53), r(53, 37), r(37, 37), alpha=0.25, beta=-1.0)
    yield Case("two-tiles-n-100", r(100, 30), r(30, 100), r(100, 100), alpha=0.2, beta=1.0)
    yield Case("multi-tile-n-130", r(130, 24), r(24, 130), r(130, 130), 0.1, 0.5)
    # Small m: TF32 inputs would dominate the first step's error.
    yield Case("m4", r(48, 4), r(4, 48), r(48, 48), alpha=1.0, beta=0.5)
    yield Case("m1", r(20, 1), r(1, 20), r(20, 20), 2.0, 1.0)
    yield Case("deep-m-700", r(24, 700), r(700, 24), r(24, 24), alpha=0.02, beta=1.0)
    yield Case("alpha-zero", r(16, 10), r(10, 16), r(16, 16), alpha=0.0, beta=0.5)
    yield Case("beta-zero", r(16, 10), r(10, 16), r(16, 16), alpha=0.3, beta=0.0)
    yield Case("int-scalars", r(12, 9), r(9, 12), r(12, 12), 2, 1)
    yield Case("positive-uniform", g.uniform(30, 20), g.uniform(20, 30), g.uniform(30, 30), 0.2, 0.5)
    yield Case("outliers", g.heavy_tailed(28, 36, scale=0.5), r(36, 28), r(28, 28), alpha=0.1, beta=1.5)
    yield Case("single", r(1, 3), r(3, 1), r(1, 1), 1.0, 0.5)
    # Layouts.
    yield Case("transposed-all", g.transposed(r(33, 21)), g.transposed(r(21, 33)), g.transposed(r(33, 33)),
               0.5, 0.5)
    yield Case("strided", g.strided(r(27, 14)), g.strided(r(14, 27)), g.strided(r(27, 27)), alpha=0.3, beta=2.0)
    # Special values and magnitudes.
    c = r(20, 20)
    c[4, 6] = float("nan")
    yield Case("nan-in-C", r(20, 8), r(8, 20), c, 1.0, 0.5)
    c = r(20, 20)
    c[2, 2] = float("inf")
    yield Case("beta-zero-times-inf", r(20, 8), r(8, 20), c, alpha=1.0, beta=0.0)
    yield Case("large-magnitude", r(20, 12, std=1e4), r(12, 20, std=1e4), r(20, 20, std=1e8), 1e-6, 2.0)
    # Empty sizes.
    yield Case("empty-m", r(6, 0), r(0, 6), r(6, 6), 1.0, 0.5)
    yield Case("empty-n", r(0, 5), r(5, 0), r(0, 0), 1.0, 0.5)


def perf_cases(g: Inputs):
    r = g.randn
    yield Case("upstream-1024", r(1024, 1024), r(1024, 1024), r(1024, 1024), 1.0, 0.5)
    yield Case("upstream-2048", r(2048, 2048), r(2048, 2048), r(2048, 2048), 1.0, 0.5)
    yield Case("4096", r(4096, 4096), r(4096, 4096), r(4096, 4096), 0.01, 0.5)
    yield Case("4096-m1024", r(4096, 1024), r(1024, 4096), r(4096, 4096), 0.02, 0.5)
