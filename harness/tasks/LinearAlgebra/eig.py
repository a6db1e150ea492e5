"""Eigenvalues and eigenvectors of general (nonsymmetric) real float64 matrices, as complex values."""

import math

import torch

from harness.checks import bind_arguments
from harness.linalg_checks import (check_close, check_tuple, cond2, forward_bound, fro, backward_bound, match_values,
                                   orthogonal, real_dtype, wide)
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "eig"
SIGNATURE = "eig(A)"
DTYPES = ["float64", "float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float64"]
CORE_KWARGS = []
DIFFICULTY = 3
# Declared edge: eigenvector conditioning the tier rule cannot see in the inputs.
TIERS = {"nonnormal-kappa-1e4": "edge"}
DESCRIPTION = """
Eigendecomposition of each square matrix of a real float64 (or float32) tensor A (*, n, n), like
torch.linalg.eig(A): return a tuple (L, V) of new complex tensors, complex128 for float64 A
(complex64 for float32), L (*, n) the eigenvalues and V (*, n, n) the eigenvectors, with
A @ V[..., :, i] = L[..., i] * V[..., :, i] and every column of V of unit Euclidean norm. A real
matrix may have complex eigenvalues (in conjugate pairs). The eigenvalues may come in any order, but
V's columns must follow L's; an eigenvector's phase (a unit complex factor) is free. The cases'
matrices are diagonalizable with distinct eigenvalues. Accuracy must be that of a backward-stable
method (Hessenberg reduction and shifted QR iterations, as LAPACK's geev) in float64: each pair's
residual ||A v - lambda v|| of order n * 2^-53 * ||A||, eigenvalues within n * 2^-53 * ||A|| *
cond(eigenvector matrix) of the exact ones. A may be non-contiguous; the batch may be empty. The
input must not be modified.
"""


# EIG_OVERWRITES_INPUT: torch.linalg.eig on a CUDA tensor with a column-major (transposed) layout
# overwrites that tensor (seen with torch 2.11 on an H200); A is an input the task leaves as it is.
def reference(A):
    return torch.linalg.eig(A.clone())  # see EIG_OVERWRITES_INPUT


# -- checking ----------------------------------------------------------------------------------------
# Eigenvalues may come in any order and eigenvectors have a free phase, so the output is judged by
# properties: the eigenvalues must match the float64 ones as multisets (each within 16 * d(n) * u * ||A||_F
# * cond2(V*) of one, no exact value matched twice -- Bauer-Fike: a backward error E moves each eigenvalue
# by at most cond(V) ||E||), every column of V must have unit norm (within 16 * d(n) * u) and every pair
# must have a small residual, ||A v_i - lambda_i v_i|| <= 16 * d(n) * u * ||A||_F * ||v_i||
# (harness/linalg_checks.py FORWARD_C / BACKWARD_C, d(n) = max(n, 16)). Measured worst cases (LAPACK / the
# Triton solution: Hessenberg + complex shifted QR + triangular eigenvectors): eigenvalues 0.002 / 0.04 of
# the bound, norms 0.012 / 0.012, residuals 0.04 / 0.07. A missing or duplicated eigenvalue, vectors not
# matching their values (a permuted V), unnormalized vectors or an unconverged iteration fail by >= 1e3
# times them.
CHECK_NOTE = (
    "Eigenvalues are matched with the float64 ones as multisets (order is free) within "
    "16*max(n,16)*u*||A||*cond(V); each eigenvector must have unit norm and a residual "
    "||A v - lambda v|| <= 16*max(n,16)*u*||A||*||v||, since eigenvectors are unique only up to phase."
)


def check(case, output, expected):
    A = bind_arguments(reference, case)["A"]
    msg = check_tuple(output, tuple(expected))
    if msg:
        return msg
    L, V = (t.to(A.device) for t in output)
    n = A.shape[-1]
    if L.numel() == 0:
        return None
    u_dtype = real_dtype(A.dtype)
    Aw = wide(A).to(torch.complex128)
    Lx, Vx = torch.linalg.eig(wide(A))
    norm_a = fro(Aw)
    tol = forward_bound(n, u_dtype, cond2(Vx)) * norm_a
    msg = match_values(L, Lx, tol, "output[0] (eigenvalues)")
    if msg:
        return msg
    Lw, Vw = wide(L), wide(V)
    norms = torch.linalg.vector_norm(Vw, dim=-2)
    msg = check_close(norms, torch.ones_like(norms), backward_bound(n, u_dtype), "output[1] (eigenvector norms)",
                      "deviation from unit norm", dims=0, scale=torch.ones_like(norms))
    if msg:
        return msg
    residual = (Aw @ Vw - Vw * Lw.unsqueeze(-2)).mT  # row i: A v_i - lambda_i v_i
    return check_close(residual, torch.zeros_like(residual), backward_bound(n, u_dtype), "output (L, V)",
                       "eigenpair residual ||A v - lambda v||", dims=1, scale=norm_a.unsqueeze(-1) * norms)


def cost(case: Case, output) -> Cost:
    A = case.args[0]
    n = A.shape[-1]
    batch = A.numel() // max(n * n, 1)
    # Hessenberg reduction with Q (10/3 n^3 + 4/3 n^3); the QR iterations and eigenvectors (another
    # ~10 n^3 in LAPACK's count) are not counted
    return Cost(flops=batch * (14.0 / 3.0) * n ** 3, bytes=float(numel_bytes(A) + sum(numel_bytes(t) for t in output)))


def _diagonalizable(g, *shape, pairs=0, cond=2.0, spread=4.0):
    """X B X^-1 with X = Q1 diag(s) Q2 (s in [1, cond], so cond(X) <= cond) and B block diagonal:
    ``pairs`` 2x2 blocks [[a, b], [-b, a]] (eigenvalues a +- ib, b in [0.5, 2]) and real 1x1 blocks,
    all eigenvalues on a grid of spacing >= spread / n (well separated). float64."""
    *batch, n = shape
    q1 = orthogonal(g, *batch, n)
    q2 = orthogonal(g, *batch, n)
    s = torch.exp(g.uniform(*batch, n, low=0.0, high=1.0, dtype=torch.float64) * math.log(cond))
    x = (q1 * s.unsqueeze(-2)) @ q2
    grid = (g.permutation(n).to(torch.float64) - n / 2) * (spread / n)
    bmat = torch.diag_embed(grid.expand(*batch, n).clone())
    for p in range(pairs):
        i = 2 * p
        im = g.uniform(*batch, low=0.5, high=2.0, dtype=torch.float64)
        bmat[..., i, i + 1] = im
        bmat[..., i + 1, i] = -im
        bmat[..., i + 1, i + 1] = bmat[..., i, i]
    return x @ bmat @ torch.linalg.inv(x)


def cases(g: Inputs):
    r = lambda *s: g.randn(*s, dtype=torch.float64)  # noqa: E731
    yield Case("gaussian-16", r(16, 16))
    yield Case("gaussian-batch-2x12", r(2, 12, 12))
    yield Case("gaussian-24", r(24, 24))
    yield Case("real-spectrum-14", _diagonalizable(g, 14))
    yield Case("complex-pairs-16", _diagonalizable(g, 16, pairs=5))
    yield Case("complex-pairs-batch-3x6", _diagonalizable(g, 3, 6, pairs=3))
    sym = r(12, 12)
    yield Case("symmetric-12", sym + sym.mT)
    yield Case("rotation-2x2", g.tensor([[0.0, -1.0], [1.0, 0.0]], dtype=torch.float64))
    yield Case("upper-triangular-10", torch.triu(r(10, 10)) + torch.diag(torch.arange(10.0, dtype=torch.float64,
                                                                                     device=g.device)))
    yield Case("tiny-1x1-batch", r(3, 1, 1))
    # edge: a nonnormal matrix (cond(V) = 1e4: the eigenvalue bound grows with it, the residual
    # bound does not), layouts, magnitudes, float32, empty
    yield Case("nonnormal-kappa-1e4", _diagonalizable(g, 12, pairs=2, cond=1e4))
    yield Case("transposed-14", g.transposed(r(14, 14)))
    yield Case("strided-batch", g.strided(r(2, 10, 10)))
    yield Case("huge-scale-1e100", 1e100 * r(10, 10))
    yield Case("float32", g.randn(2, 12, 12, dtype=torch.float32))
    yield Case("empty-batch", r(0, 4, 4))


def perf_cases(g: Inputs):
    r = lambda *s: g.randn(*s, dtype=torch.float64)  # noqa: E731
    yield Case("64", r(64, 64))
    yield Case("128", r(128, 128))
    yield Case("batch-1024x16", r(1024, 16, 16))
    yield Case("batch-128x64", r(128, 64, 64))
