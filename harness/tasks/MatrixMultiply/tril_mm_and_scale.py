"""beta * (alpha * (tril(A) @ B)) for a square float32 A (lower triangle only) and float32 B."""

import torch

from harness.checks import bind_arguments, check_bounded, product_bound, unit_roundoff
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "tril_mm_and_scale"
SIGNATURE = "tril_mm_and_scale(A, B, alpha, beta)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["alpha", "beta"]
DIFFICULTY = 3
DESCRIPTION = """
Multiply the lower triangle of a square matrix by another matrix and scale twice: return
beta * (alpha * (tril(A) @ B)), like torch.tril(A) followed by beta * (alpha * torch.mm(...)).
`A` is a float32 (n, n) matrix; tril(A) keeps A[i, k] for k <= i (the diagonal included) and
replaces every element above the diagonal by 0, so whatever A holds there (NaN and inf included)
never reaches the result. `B` is a float32 (n, p) matrix. `alpha` and `beta` are Python numbers.
Either matrix may be non-contiguous; n or p may be 0. NaN and inf on or below A's diagonal, or in B,
propagate as in IEEE arithmetic. Return a new float32 (n, p) tensor; the inputs must not be
modified. Row i of the result only involves rows 0..i of B, which a kernel may exploit (skip the
all-zero tiles above the diagonal). Float32 accuracy is required: accumulate in float32 (or wider)
and do not round float32 inputs to TF32 (with tl.dot use input_precision="ieee" or "tf32x3"; the
default "tf32" fails the check, whose cases include small n).
"""

F32 = torch.float32
U32 = unit_roundoff(F32)


def reference(A, B, alpha, beta):
    B = alpha * torch.mm(torch.tril(A), B)
    return beta * B


# -- checking ----------------------------------------------------------------------------------------
# Compared with the float64 value of beta * alpha * (tril(A) @ B) under harness/checks.py's bound for
# the scaled product, 8 * sqrt(n) * u32 * |alpha * beta| * (|tril(A)| @ |B|) + u32 * |exact|, plus
# 2 * u32 * |exact| for the roundings of the two scalings (one each). A correct float32 kernel stays
# far inside; a diagonal left out or an upper element let in changes an element by about one product,
# far beyond it, and TF32 inputs (2^-11 relative per product) exceed it on these small-n cases.
CHECK_NOTE = (
    "Compared with the float64 value of beta*alpha*(tril(A)@B), each element allowed "
    "8*sqrt(n)*u32*|alpha*beta|*(|tril(A)|@|B|) + 3*u32*|exact| (harness/checks.py product_bound plus "
    "the two scalings), since a kernel may sum the products in any order."
)


def check(case, output, expected):
    args = bind_arguments(reference, case)
    lower, b = torch.tril(args["A"]), args["B"]
    scale = args["alpha"] * args["beta"]
    exact = args["beta"] * (args["alpha"] * (lower.double() @ b.double()))
    bound = product_bound(lower, b, out_dtype=F32, scale=scale, exact=exact) + 2 * U32 * exact.abs()
    return check_bounded(output, exact, bound, dtype=F32)


def cost(case: Case, output) -> Cost:
    args = bind_arguments(reference, case)
    a, b = args["A"], args["B"]
    n, p = b.shape
    # Row i of tril(A) has i + 1 nonzero terms: n (n + 1) / 2 multiply-adds per column of B, then one
    # combined scaling per element. Only A's lower triangle needs to be read.
    lower_bytes = n * (n + 1) // 2 * a.element_size()
    return Cost(flops=float(n * (n + 1) * p + n * p),
                bytes=float(lower_bytes + numel_bytes(b) + numel_bytes(output)))


def cases(g: Inputs):
    r = g.randn
    yield Case("n-16", r(16, 16), r(16, 16), 0.5, 0.5)
    yield Case("keywords", r(24, 24), r(24, 20), alpha=2.0, beta=-0.75)
    yield Case("odd-n-37-p-29", r(37, 37), r(37, 29), 1.5, 0.5)
    yield Case("two-row-tiles-n-100", r(100, 100), r(100, 40), alpha=0.5, beta=2.0)
    yield Case("multi-tile-n-130", r(130, 130), r(130, 140), 0.25, 1.0)
    yield Case("wide-p-300", r(20, 20), r(20, 300), 1.0, 1.0)
    yield Case("p-1", r(45, 45), r(45, 1), 1.0, 3.0)
    yield Case("n-1", r(1, 1), r(1, 7), 2.0, 0.5)
    yield Case("int-scalars", r(12, 12), r(12, 15), 2, 3)
    yield Case("beta-zero", r(10, 10), r(10, 12), alpha=1.0, beta=0.0)
    yield Case("positive-uniform", g.uniform(40, 40), g.uniform(40, 30), 0.5, 0.5)
    yield Case("outliers", g.heavy_tailed(48, 48, scale=2.0), r(48, 33), -1.0, 0.5)
    # Above the diagonal anything, NaN and inf included, is replaced by 0.
    a = r(30, 30)
    upper = torch.triu(torch.ones(30, 30, dtype=torch.bool), diagonal=1).to(a.device)
    a[upper] = float("nan")
    a[0, 29] = float("inf")
    yield Case("nan-inf-above-diagonal", a, r(30, 20), 1.0, 0.5)
    a = r(30, 30)
    a[7, 7] = float("nan")
    a[12, 3] = float("-inf")
    yield Case("nan-inf-on-and-below-diagonal", a, r(30, 20), 1.0, 0.5)
    # Layouts and magnitudes.
    yield Case("transposed-A", g.transposed(r(40, 40)), r(40, 25), alpha=0.5, beta=0.5)
    yield Case("strided", g.strided(r(33, 33)), g.strided(r(33, 21)), 1.0, -2.0)
    yield Case("transposed-B", r(36, 36), g.transposed(r(36, 50)), 1.0, 1.0)
    yield Case("large-magnitude", r(30, 30, std=1e15), r(30, 20, std=1e12), 1e-3, 2.0)
    # Empty sizes.
    yield Case("empty-n", r(0, 0), r(0, 5), 1.0, 1.0)
    yield Case("empty-p", r(6, 6), r(6, 0), 1.0, 1.0)


def perf_cases(g: Inputs):
    r = g.randn
    yield Case("upstream-1024", r(1024, 1024), r(1024, 1024), 0.5, 0.5)
    yield Case("upstream-2048", r(2048, 2048), r(2048, 2048), 0.5, 0.5)
    yield Case("4096", r(4096, 4096), r(4096, 4096), 0.5, 2.0)
    yield Case("n-8192-p-1024", r(8192, 8192), r(8192, 1024), 1.0, 0.5)
