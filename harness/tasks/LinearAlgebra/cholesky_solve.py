"""Solve A X = B for a symmetric positive-definite A given by its Cholesky factor (float64)."""

import torch

from harness.checks import bind_arguments
from harness.linalg_checks import (check_close, check_residual, check_tensor, cond2, forward_bound, fro,
                                   log_spaced, mh, real_dtype, spd, wide)
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "cholesky_solve"
SIGNATURE = "cholesky_solve(B, L, upper=False, out=None)"
DTYPES = ["float64", "float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float64"]
CORE_KWARGS = ["upper"]
DIFFICULTY = 4
PERF_MIX = "convex"  # L stays triangular with a positive diagonal: a Cholesky factor
# Declared edge: conditioning the tier rule cannot see in the inputs.
TIERS = {"ill-conditioned-1e8": "edge"}
DESCRIPTION = """
Solve A X = B for X, where A = L @ L^T is symmetric positive-definite and given by its Cholesky
factor, like torch.cholesky_solve(B, L, upper). B is (*, n, k); L is (*, n, n), lower triangular
with a positive diagonal when upper=False (default, A = L @ L^T), or upper triangular U when
upper=True (A = U^T @ U); the entries on the other side of L's diagonal are zero and need not be
read. The batch dimensions of B and L broadcast against each other. Both are float64 (or float32)
and may be non-contiguous; n, k or the batch may be 0. Compute X by a forward and a back
substitution (never form A or its inverse). Return a new tensor X of shape (broadcast batch, n, k)
in B's dtype; if `out` is given, write X into it and return it. The inputs must not be modified.
Accuracy: that of the two substitutions in B's precision (relative error of order n * u * cond(A),
u = 2^-53 for float64).
"""


def reference(B, L, upper=False, out=None):
    return torch.cholesky_solve(B, L, upper=upper, out=out)


# -- checking ----------------------------------------------------------------------------------------
# X is unique; it is compared with the float64 solution, allowing ||X - X*||_F <= 16 * d * u * cond2(A) *
# ||X*||_F, d = max(n, 16) (harness/linalg_checks.py FORWARD_C; cond(A) = cond(L)^2; measured worst case
# 0.002 of the bound), and its residual ||B - A X||_F <= 16 * d * u * (||L||_F^2 ||X||_F + ||B||_F)
# (RESIDUAL_C; the substitutions' backward errors perturb L, so ||L||_F^2 = tr(A) takes ||A||'s place;
# measured worst case 0.0006 of it). Solving with L where L^T is needed, ignoring `upper` or float32
# arithmetic in a float64 task all fail by >= 1e4 times the bounds.
CHECK_NOTE = (
    "X is compared with the float64 solution under a forward-error bound 16*max(n,16)*u*cond(A) and its residual "
    "||B - A X|| must be within 16*max(n,16)*u*(||L||^2 ||X|| + ||B||), A = L L^T, since the rounding depends on "
    "the substitution order."
)


def check(case, output, expected):
    args = bind_arguments(reference, case)
    B, L, upper = args["B"], args["L"], args["upper"]
    msg = check_tensor(output, expected.shape, expected.dtype, "output")
    if msg or output.numel() == 0:
        return msg
    batch = torch.broadcast_shapes(B.shape[:-2], L.shape[:-2])
    n, k = B.shape[-2], B.shape[-1]
    Lw = wide(L).expand(*batch, n, n)
    Lw = torch.triu(Lw) if upper else torch.tril(Lw)
    A = mh(Lw) @ Lw if upper else Lw @ mh(Lw)
    Bw = wide(B).expand(*batch, n, k)
    exact = torch.cholesky_solve(Bw, Lw, upper=upper)
    X = output.to(B.device)
    u_dtype = real_dtype(B.dtype)
    return (check_close(X, exact, forward_bound(n, u_dtype, cond2(A)), "output")
            or check_residual(A, X, Bw, n, u_dtype, "output", a_norm=fro(Lw) ** 2))


def cost(case: Case, output) -> Cost:
    B, L = case.args[0], case.args[1]
    n, k = B.shape[-2], B.shape[-1]
    batch = output.numel() // max(n * k, 1)
    # two triangular solves, n^2 multiply-adds each per right-hand side; only L's triangle is read
    moved = numel_bytes(B) + numel_bytes(output) + L.element_size() * (L.numel() // max(n * n, 1)) * n * (n + 1) / 2
    return Cost(flops=batch * 2.0 * n * n * k, bytes=float(moved))


def _factor(g, *shape, upper=False, dtype=torch.float64, **kw):
    L = torch.linalg.cholesky(spd(g, *shape, **kw))
    return (mh(L) if upper else L).contiguous().to(dtype)


def cases(g: Inputs):
    r = lambda *s: g.randn(*s, dtype=torch.float64)  # noqa: E731
    yield Case("64-rhs10", r(64, 10), _factor(g, 64))
    yield Case("batched-3x33-rhs4", r(3, 33, 4), _factor(g, 3, 33))
    yield Case("upper-40-rhs10", r(40, 10), _factor(g, 40, upper=True), upper=True)
    yield Case("explicit-lower-2x17", r(2, 17, 3), _factor(g, 2, 17), upper=False)
    yield Case("many-rhs-20x70", r(20, 70), _factor(g, 20))
    yield Case("broadcast-B-batch", r(2, 24, 5), _factor(g, 24), upper=False)
    yield Case("broadcast-L-batch-upper", r(24, 5), _factor(g, 3, 24, upper=True), upper=True)
    yield Case("tiny-1x1", r(1, 1), _factor(g, 1))
    # a wide spread of the factor's diagonal (A's eigenvalues 1 .. 1e4, Gram-like)
    yield Case("spread-eigenvalues-48", r(48, 2), _factor(g, 48, low=1.0, high=1e4))
    # edge: layouts, conditioning, other dtype, empty, out=
    yield Case("transposed-L", r(36, 3), g.transposed(_factor(g, 36)))
    yield Case("strided-B-upper", g.strided(r(2, 30, 6)), _factor(g, 2, 30, upper=True), upper=True)
    # kappa(A) = 1e8 (kappa(L) = 1e4): the forward bound grows with kappa, the residual bound does not
    yield Case("ill-conditioned-1e8", r(32, 2), _factor(g, 32, eigenvalues=log_spaced(g, k=32, cond=1e8)))
    yield Case("float32", r(2, 40, 3).float(), _factor(g, 2, 40, dtype=torch.float32))
    yield Case("empty-rhs", r(6, 0), _factor(g, 6))
    yield Case("empty-batch", r(0, 5, 2), _factor(g, 0, 5))
    yield Case("out", r(12, 3), _factor(g, 12), out=g.strided(torch.empty(12, 3, dtype=torch.float64, device=g.device)))


def _perf_factor(g, *shape):
    """A Cholesky factor with a dominant positive diagonal (what perf needs: a triangular L whose
    L L^T is well conditioned), built without a factorization."""
    *batch, n = shape
    L = torch.tril(g.randn(*batch, n, n, dtype=torch.float64)) / n ** 0.5
    d = torch.diagonal(L, dim1=-2, dim2=-1)
    d.copy_(d.abs() + 2.0)
    return L


def perf_cases(g: Inputs):
    r = lambda *s: g.randn(*s, dtype=torch.float64)  # noqa: E731
    yield Case("4096-rhs10", r(4096, 10), _perf_factor(g, 4096))
    yield Case("8192-rhs10-upper", r(8192, 10), _perf_factor(g, 8192).mT.contiguous(), upper=True)
    yield Case("2048-rhs256", r(2048, 256), _perf_factor(g, 2048))
    yield Case("batch-1024x64-rhs10", r(1024, 64, 10), _perf_factor(g, 1024, 64))
