"""p-norm of a scaled matrix-vector product with a symmetric float32 matrix."""

import math

import torch

from harness.checks import bind_arguments, check_summed_scalar
from harness.taskdef import Case, Cost, Inputs

ENTRY = "symmetric_matrix_vector_norm"
SIGNATURE = "symmetric_matrix_vector_norm(A, x, alpha, beta, p=2.0)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["alpha", "beta", "p"]
DIFFICULTY = 2
# The inputs are symmetric matrices: a timed repetition's is a weighted mean of two (perf/server.py).
PERF_MIX = "convex"
DESCRIPTION = """
Given a symmetric float32 matrix `A` of shape (n, n) (A[i, j] == A[j, i] exactly; a kernel may rely
on it, e.g. read only one triangle), a float32 vector `x` of shape (n,) and two Python floats `alpha`
and `beta`, compute t = alpha * (A @ x), then y = t + beta * t (beta scales the product itself, not
x, so y = (1 + beta) * alpha * (A @ x)), and return the p-norm of y as a 0-dimensional float32 tensor:
(sum_i |y_i|^p)^(1/p) for a finite p >= 1 (default 2.0; p = 1 is the sum of absolute values), and
max_i |y_i| for p = float('inf'). n may be 0 (the result is then 0; not combined with p = inf).
Either input may be non-contiguous. Values stay small enough that |y_i|^p and its sum fit in float32
(no rescaling is needed). NaN anywhere in A or x that reaches y gives NaN, for every p. Accumulate in
float32; the inputs must not be modified.
"""


def reference(A, x, alpha, beta, p=2.0):
    y = alpha * torch.mv(A, x)
    y = y + beta * y
    return torch.norm(y, p)


def cost(case: Case, output) -> Cost:
    args = bind_arguments(reference, case)
    n = args["x"].shape[0]
    # A true lower bound: a kernel may exploit the symmetry and read one triangle of A (n(n+1)/2
    # elements), plus x once and the scalar result; a multiply-add per element of A.
    return Cost(flops=2.0 * n * n + 3.0 * n, bytes=4.0 * (n * (n + 1) // 2 + n + 1))


# -- checking the scalar result --------------------------------------------------------------------
# The result sums n products per y_i and then n terms |y_i|^p, in an order that differs between
# PyTorch and any kernel, so it is compared with the same formula evaluated in float64, allowing
# (harness/checks.py: check_summed_scalar)
#   _RTOL * |exact|                          the default float32 bound for a scalar;
#   eps32 * _C * sqrt(n) * M                 rounding of the dot products y_i = sum_j A_ij x_j: each
#                                            errs by at most ~sqrt(n) eps32 (|A||x|)_i in any sane
#                                            order, so by Minkowski's inequality the norm errs by at
#                                            most that times M = |alpha (1 + beta)| * || |A| |x| ||_p;
#   eps32 * _K * M                           rounding of the scaling and of |y_i|^p and the root.
# Rows of A @ x may cancel (the "cancelling" case makes |y| ~ 1e-3 M), so the bound must grow with
# M, not with the result. _C = 8 passes any summation order (a plain sequential sum stays near 0.3
# of the bound); a wrong coefficient (beta applied to x, alpha dropped), a missing root or a dropped
# row changes the result by far more than ~1e-5 relative.
_RTOL = 1.1e-4
_C = 8.0
_K = 16.0


def _norm(v: torch.Tensor, p: float) -> float:
    return torch.linalg.vector_norm(v, ord=p).item() if v.numel() else 0.0


CHECK_NOTE = (
    "the scalar is compared with the float64 evaluation of the same formula, with an error bound "
    "growing with sqrt(n) times the norm of |alpha (1 + beta)| |A| |x| (the rows may cancel), since "
    "the kernel sums in another order than PyTorch."
)


def check(case, output, expected):
    args = bind_arguments(reference, case)
    A, x = args["A"].double(), args["x"].double()
    alpha, beta, p = float(args["alpha"]), float(args["beta"]), float(args["p"])
    n = x.shape[0]
    t = alpha * (A @ x)
    exact = _norm(t + beta * t, p)
    magnitude = abs(alpha * (1.0 + beta)) * _norm(A.abs() @ x.abs(), p)
    if math.isnan(magnitude):  # NaN inputs: the exact result is NaN too and must be matched
        magnitude = 0.0
    return check_summed_scalar(output, expected, exact, magnitude, n, per_term=magnitude, c=_C, k=_K,
                               rtol=_RTOL)


def _symmetric(g: Inputs, n: int, **kw) -> torch.Tensor:
    m = g.randn(n, n, **kw)
    return (m + m.T) * 0.5  # m[i, j] + m[j, i] is exactly symmetric in float32


def _symmetric_heavy(g: Inputs, n: int) -> torch.Tensor:
    m = g.heavy_tailed(n, n, scale=1.0)
    return (m + m.T) * 0.5


def cases(g: Inputs):
    inf = float("inf")
    # The upstream test's small matrices (positional alpha, beta; default p and p = 1).
    a2 = g.tensor([[2.0, 1.0], [1.0, 2.0]])
    yield Case("2x2", a2, g.tensor([1.0, 1.0]), 1.0, 1.0)
    yield Case("2x2-scaled", a2, g.tensor([1.0, 1.0]), 2.0, 0.5)
    yield Case("2x2-p1", a2, g.tensor([1.0, 1.0]), 1.0, 1.0, p=1.0)
    a3 = g.tensor([[4.0, 1.0, 2.0], [1.0, 3.0, 1.0], [2.0, 1.0, 3.0]])
    yield Case("3x3", a3, g.tensor([1.0, 2.0, 3.0]), 1.5, 0.5)
    # Random symmetric matrices of odd and non-power-of-two sizes (tails in every tile).
    yield Case("n128-p2", _symmetric(g, 128), g.randn(128), 1.0, 0.5, p=2.0)
    yield Case("n257-p1", _symmetric(g, 257), g.randn(257), 1.0, 1.0, p=1.0)
    yield Case("n100-p3", _symmetric(g, 100), g.uniform(100, low=-2.0, high=2.0), -0.7, 2.0, p=3.0)
    yield Case("n77-pinf", _symmetric(g, 77), g.randn(77), 0.3, -0.25, p=inf)
    yield Case("n300-outliers", _symmetric_heavy(g, 300), g.heavy_tailed(300), 1.0, 0.5)
    yield Case("n190-p1.5-beta0", _symmetric(g, 190), g.randn(190), 2.5, 0.0, p=1.5)
    yield Case("n64-positive", _positive_symmetric(g, 64), g.uniform(64, low=0.5, high=1.0), 1.0, 0.5)
    yield Case("n700", _symmetric(g, 700), g.randn(700), 0.01, 3.0)
    # beta = -1: y = t - t is exactly 0.
    yield Case("beta-minus-one", _symmetric(g, 33), g.randn(33), 1.0, -1.0)
    # x close to an eigenvector of a tiny eigenvalue: the rows cancel to ~1e-3 of |A||x|.
    yield Case("cancelling", *_cancelling(g, 96), 1.0, 0.5)
    yield Case("n1", g.tensor([[3.0]]), g.tensor([-2.0]), 1.5, 0.5, p=3.0)
    # Layouts: A stored column-major (same values, A is symmetric), x strided.
    yield Case("transposed-A", g.transposed(_symmetric(g, 150)), g.randn(150), 1.0, 0.5)
    yield Case("strided-x", _symmetric(g, 129), g.strided(g.randn(129)), 1.0, 0.5, p=1.0)
    yield Case("empty", g.randn(0, 0), g.randn(0), 1.0, 0.5)
    # NaN propagates, also through the max of p = inf.
    a = _symmetric(g, 40)
    a[3, 7] = a[7, 3] = float("nan")
    yield Case("nan-A", a, g.randn(40), 1.0, 0.5)
    xn = g.randn(40)
    xn[11] = float("nan")
    yield Case("nan-x-pinf", _symmetric(g, 40), xn, 1.0, 0.5, p=inf)
    # Magnitudes: entries beyond 1e6 (|y|^2 still far inside float32) and below 1e-6.
    yield Case("large-magnitude", _symmetric(g, 50, std=3e7), g.randn(50, std=1e2), 1.0, 0.5)
    yield Case("tiny-values", _symmetric(g, 50, std=1e-7), g.randn(50, std=1e-3), 1.0, 0.5)


def _positive_symmetric(g: Inputs, n: int) -> torch.Tensor:
    m = g.uniform(n, n, low=0.0, high=1.0)
    return (m + m.T) * 0.5


def _cancelling(g: Inputs, n: int):
    """A symmetric matrix with one eigenvalue 1e-3 (the others in [1, 2]) and x its eigenvector."""
    q, _ = torch.linalg.qr(g.randn(n, n, dtype=torch.float64).cpu())
    lam = torch.linspace(1.0, 2.0, n, dtype=torch.float64)
    lam[5] = 1e-3
    a = ((q * lam) @ q.T).to(torch.float32)
    a = (a + a.T) * 0.5
    return a.to(g.device), q[:, 5].to(torch.float32).to(g.device)


def perf_cases(g: Inputs):
    # Upstream's largest sizes: a memory-bound GEMV over 64 MB, 256 MB and 1 GB matrices.
    for n in (4096, 8192, 16384):
        yield Case(f"n{n}", _symmetric(g, n), g.randn(n), 1.0, 0.5)
    yield Case("n16384-p1", _symmetric(g, 16384), g.randn(16384), 1.0, 1.0, p=1.0)
