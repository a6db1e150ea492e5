"""Matrix power A^k of diagonalizable float64 matrices through their eigendecomposition (real or complex k)."""

import math

import torch

from harness.checks import bind_arguments
from harness.linalg_checks import check_close, check_tensor, cond2, forward_bound, orthogonal, real_dtype, wide
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "matrix_power_eig"
SIGNATURE = "matrix_power_eig(A, k, *, out=None)"
DTYPES = ["float64", "float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float64"]
CORE_KWARGS = []
DIFFICULTY = 3
PERF_MIX = "none"  # the inputs have designed spectra
# Declared edge: an exponent with a wide dynamic range the tier rule cannot see.
TIERS = {"large-exponent-20": "edge"}
DESCRIPTION = """
Matrix power A^k of each square matrix of a real float64 (or float32) tensor A (*, n, n) through its
eigendecomposition, like: L, V = torch.linalg.eig(A); A^k = V @ diag(L ** k) @ V^-1. k is a Python
float or complex number (the exponent may be fractional, negative or complex); L ** k is the
principal power exp(k * log(L)), with the principal logarithm (argument in (-pi, pi]). The result
is complex even for a real A: return a new complex128 tensor (complex64 for float32 A) of A's shape;
if `out` (complex, that shape) is given, write the result into it and return it. The cases' matrices
are diagonalizable with well-conditioned eigenvectors and distinct eigenvalues; when k is not an
integer, no eigenvalue lies on the closed negative real axis (so the branch is unambiguous), and no
eigenvalue is 0. k is used with its full float64 value (Triton passes a Python float kernel argument
as float32). The result does not depend on how the eigenvectors are scaled. Accuracy: that of a
backward-stable eigendecomposition in float64 (see the check). A may be non-contiguous; the batch may
be empty. The input must not be modified.
"""


# EIG_OVERWRITES_INPUT: torch.linalg.eig on a CUDA tensor with a column-major (transposed) layout
# overwrites that tensor (seen with torch 2.11 on an H200); A is an input the task leaves as it is.
def reference(A, k, *, out=None):
    L, V = torch.linalg.eig(A.clone())  # see EIG_OVERWRITES_INPUT
    Lk = L ** k
    A_k = V @ torch.diag_embed(Lk) @ torch.linalg.inv(V)
    if out is not None:
        out.copy_(A_k)
        return out
    return A_k


# -- checking ----------------------------------------------------------------------------------------
# A^k = V f(Lambda) V^-1 is unique for a diagonalizable A (principal branch), and is compared with its
# float64 evaluation. A backward-stable eigendecomposition makes errors of about u cond(V) in V, V^-1
# (relative) and cond(V) u ||A|| in each eigenvalue, which move A^k by about
#   u * S,  S = cond(V) * (max|lambda^k| + |k| cond(V) ||A||_2 max|lambda^k / lambda|)
# (f'(lambda) = k lambda^k / lambda turns an eigenvalue error into a power error). The check allows ||X -
# A^k*||_F <= 16 * d(n) * u * cond(V) * S (harness/linalg_checks.py FORWARD_C, d(n) = max(n, 16); the extra
# cond(V) covers the conditioning of V^-1). Measured worst cases: 0.008 of the bound for PyTorch, 0.024 for
# the Triton solution (Schur form, triangular eigenvectors, A^k = Q Y f(Lambda) Y^-1 Q^H). The wrong branch
# of the logarithm, Q^T where Q^H belongs, a dropped imaginary part of k or a skipped Y^-1 err by
# O(||A^k||), >= 1e6 times it.
CHECK_NOTE = (
    "Compared with the float64 evaluation of V diag(L^k) V^-1 under a normwise bound "
    "16*max(n,16)*u*cond(V)^2*(max|L^k| + |k|*cond(V)*||A||*max|L^k/L|), the sensitivity of the "
    "eigendecomposition route to a backward-stable eig's rounding."
)


def check(case, output, expected):
    args = bind_arguments(reference, case)
    A, k = args["A"], complex(args["k"])
    msg = check_tensor(output, expected.shape, expected.dtype, "output")
    if msg or output.numel() == 0:
        return msg
    L, V = torch.linalg.eig(wide(A))
    Lk = L ** k
    exact = V @ torch.diag_embed(Lk) @ torch.linalg.inv(V)
    kv = cond2(V)
    lam = L.abs()
    norm2 = torch.linalg.matrix_norm(wide(A), ord=2)
    s = kv * (Lk.abs().amax(-1) + abs(k) * kv * norm2 * (Lk.abs() / lam).amax(-1))
    n = A.shape[-1]
    return check_close(output.to(A.device), exact, forward_bound(n, real_dtype(A.dtype), kv), "output",
                       scale=s)


def cost(case: Case, output) -> Cost:
    A = case.args[0]
    n = A.shape[-1]
    batch = A.numel() // max(n * n, 1)
    # eigendecomposition's Hessenberg reduction (14/3 n^3), the inverse of V (2 n^3) and the products
    # with diag(L^k) (2 n^3 complex multiply-adds, 8 real flops each); the QR iterations not counted
    return Cost(flops=batch * (14.0 / 3.0 + 2.0 + 8.0 * 2.0) * n ** 3,
                bytes=float(numel_bytes(A) + numel_bytes(output)))


def _diagonalizable(g, *shape, low=0.5, high=3.0, pairs=0, cond=2.0):
    """X B X^-1, cond(X) <= cond, B block diagonal with real eigenvalues in [low, high] (distinct, on a
    shuffled grid) and ``pairs`` complex pairs a +- ib with a in [low, high], b in [0.5, 1.5]: no
    eigenvalue on the negative real axis when low > 0. float64."""
    *batch, n = shape
    q1 = orthogonal(g, *batch, n)
    q2 = orthogonal(g, *batch, n)
    s = torch.exp(g.uniform(*batch, n, low=0.0, high=1.0, dtype=torch.float64) * math.log(cond))
    x = (q1 * s.unsqueeze(-2)) @ q2
    grid = low + (high - low) * (g.permutation(n).to(torch.float64) + 0.5) / n
    bmat = torch.diag_embed(grid.expand(*batch, n).clone())
    for p in range(pairs):
        i = 2 * p
        im = g.uniform(*batch, low=0.5, high=1.5, dtype=torch.float64)
        bmat[..., i, i + 1] = im
        bmat[..., i + 1, i] = -im
        bmat[..., i + 1, i + 1] = bmat[..., i, i]
    return x @ bmat @ torch.linalg.inv(x)


def cases(g: Inputs):
    r = lambda *s: g.randn(*s, dtype=torch.float64)  # noqa: E731
    yield Case("sqrt-positive-spectrum-12", _diagonalizable(g, 12), 0.5)
    yield Case("square-gaussian-16", r(16, 16), 2.0)
    yield Case("cube-gaussian-batch-2x10", r(2, 10, 10), 3)
    yield Case("inverse-positive-spectrum-14", _diagonalizable(g, 14), -1.0)
    yield Case("fractional-complex-pairs-12", _diagonalizable(g, 12, pairs=3), 1.5)
    yield Case("complex-exponent-10", _diagonalizable(g, 10, pairs=2), 0.5 + 0.5j)
    yield Case("zero-exponent-8", r(8, 8), 0.0)
    yield Case("rotation-sqrt", g.tensor([[0.0, -1.0], [1.0, 0.0]], dtype=torch.float64), 0.5)
    yield Case("tiny-1x1-batch", _diagonalizable(g, 3, 1), 0.25)
    # edge: a wide dynamic range (eigenvalues 0.5 .. 1.5 to the 20th), layouts, float32, empty, out=
    yield Case("large-exponent-20", _diagonalizable(g, 10, low=0.5, high=1.5), 20.0)
    yield Case("transposed-12", g.transposed(_diagonalizable(g, 12)), 0.5)
    yield Case("strided-batch", g.strided(r(2, 9, 9)), 2.0)
    yield Case("float32", _diagonalizable(g, 2, 10).float(), 0.5)
    yield Case("empty-batch", r(0, 4, 4), 2.0)
    yield Case("out", _diagonalizable(g, 8), 1.5,
               out=g.strided(torch.empty(8, 8, dtype=torch.complex128, device=g.device)))


def perf_cases(g: Inputs):
    yield Case("64-sqrt", _diagonalizable(g, 64), 0.5)
    yield Case("128-square", _diagonalizable(g, 128, pairs=10), 2.0)
    yield Case("batch-256x32-complex-k", _diagonalizable(g, 256, 32, pairs=4), 0.5 + 0.25j)
    yield Case("batch-64x64-inverse", _diagonalizable(g, 64, 64), -1.0)
