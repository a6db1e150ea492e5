"""dot(alpha * A @ x + beta * y, x) for a square float32 matrix A and float32 vectors x, y."""

import math

import torch

from harness.checks import ACCUMULATION_C, bind_arguments, check_bounded, unit_roundoff
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "matrix_vector_dot"
SIGNATURE = "matrix_vector_dot(A, x, y, alpha, beta)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = []
DIFFICULTY = 2
DESCRIPTION = """
Form the vector v = alpha * (A @ x) + beta * y and return its dot product with x, sum over i of
v[i] * x[i], as a 0-d float32 tensor (like v = alpha * torch.mv(A, x) + beta * y; torch.dot(v, x)).
`A` is a float32 (n, n) matrix (square, since v and x are dotted), `x` and `y` are float32 (n,)
vectors; any of them may be non-contiguous and n may be 0 (the result is then 0). `alpha` and
`beta` are Python numbers. IEEE arithmetic applies literally: beta * y is formed even when beta is
0 (0 * inf = NaN propagates), and NaN or inf anywhere in A, x or y propagate. y is NOT updated:
return the scalar only and leave every input unchanged. Float32 accuracy is required: accumulate
in float32 (or wider), and with tl.dot do not round float32 inputs to TF32 (input_precision="ieee"
or "tf32x3").
"""

F32 = torch.float32
U32 = unit_roundoff(F32)


def reference(A, x, y, alpha, beta):
    y = alpha * torch.mv(A, x) + beta * y
    return torch.dot(y, x)


# -- checking ----------------------------------------------------------------------------------------
# Compared with the same formula evaluated in float64. Each element of v = alpha * A @ x + beta * y
# may err by e_i = 8 sqrt(n) u32 |alpha| (|A| @ |x|)_i + 2 u32 |beta y_i| + u32 |v_i| (the product
# bound of harness/checks.py for any summation order, the rounding of beta * y and of the sum); the
# dot with x then errs by at most sum_i e_i |x_i| (worst case) plus 8 sqrt(n) u32 sum_i |v_i x_i| (its
# own summation, any order) plus u32 |exact|. A correct float32 kernel stays far inside it; using
# the old y, A^T instead of A, swapped alpha/beta or a lost block of rows is off by O(1) relative.
CHECK_NOTE = (
    "Compared with the float64 value of the same formula, allowed the float32 rounding of "
    "v = alpha*A@x + beta*y (8*sqrt(n)*u32*|alpha|*(|A|@|x|) + 2*u32*|beta*y| + u32*|v| per element, "
    "harness/checks.py's product bound) propagated through the dot, plus 8*sqrt(n)*u32*sum|v*x| for "
    "the dot's own summation order."
)


def check(case, output, expected):
    args = bind_arguments(reference, case)
    a, x, y = args["A"].double(), args["x"].double(), args["y"].double()
    alpha, beta = args["alpha"], args["beta"]
    n = x.shape[0]
    v = alpha * (a @ x) + beta * y
    exact = torch.dot(v, x)
    c = ACCUMULATION_C * math.sqrt(max(n, 1)) * U32
    e = c * abs(alpha) * (a.abs() @ x.abs()) + 2 * U32 * (beta * y).abs() + U32 * v.abs()
    bound = (e * x.abs()).sum() + c * (v * x).abs().sum() + U32 * exact.abs() + torch.finfo(F32).tiny
    return check_bounded(output, exact, bound, dtype=F32)


def cost(case: Case, output) -> Cost:
    args = bind_arguments(reference, case)
    a, x, y = args["A"], args["x"], args["y"]
    n = x.shape[0]
    # A @ x, the alpha/beta update and the dot; everything read once, one scalar written
    return Cost(flops=2.0 * n * n + 5.0 * n,
                bytes=float(numel_bytes(a) + numel_bytes(x) + numel_bytes(y) + numel_bytes(output)))


def cases(g: Inputs):
    r = g.randn
    yield Case("n-64", r(64, 64), r(64), r(64), 1.0, 1.0)
    yield Case("odd-n-37", r(37, 37), r(37), r(37), 2.0, 0.5)
    yield Case("n-300", r(300, 300), r(300), r(300), 0.5, -1.5)
    yield Case("n-2", r(2, 2), r(2), r(2), 0.5, 0.5)
    yield Case("n-1", r(1, 1), r(1), r(1), 2.0, 0.5)
    yield Case("alpha-zero", r(20, 20), r(20), r(20), 0.0, 2.0)
    yield Case("beta-zero", r(20, 20), r(20), r(20), 1.5, 0.0)
    yield Case("int-scalars", r(33, 33), r(33), r(33), 2, -1)
    yield Case("positive-uniform", g.uniform(80, 80), g.uniform(80), g.uniform(80), 0.25, 1.0)
    yield Case("outliers", g.heavy_tailed(128, 128, scale=2.0), r(128), r(128), 1.0, 0.5)
    # Layouts.
    yield Case("transposed-A", g.transposed(r(50, 50)), r(50), r(50), 1.0, 1.0)
    yield Case("strided", g.strided(r(45, 45)), g.strided(r(45)), g.strided(r(45)), 0.5, 2.0)
    # Special values and magnitudes.
    y = r(30)
    y[4] = float("inf")
    yield Case("beta-zero-times-inf", r(30, 30), r(30), y, 1.0, 0.0)
    a = r(30, 30)
    a[7, 3] = float("nan")
    yield Case("nan-in-A", a, r(30), r(30), 1.0, 1.0)
    yield Case("large-magnitude", r(40, 40, std=1e8), r(40, std=1e5), r(40, std=1e12), 1.0, 1.0)
    yield Case("empty", r(0, 0), r(0), r(0), 1.0, 1.0)


def perf_cases(g: Inputs):
    r = g.randn
    # Memory-bound: A is read once (64 MB, 256 MB, 1 GB).
    yield Case("n-4096", r(4096, 4096), r(4096), r(4096), 1.0, 1.0)
    yield Case("n-8192", r(8192, 8192), r(8192), r(8192), 2.0, 0.5)
    yield Case("n-16384", r(16384, 16384), r(16384), r(16384), 1.0, 1.0)
