"""Determinant of float64 square matrices from their LU decomposition, with or without pivoting."""

import math

import torch

from harness.checks import bind_arguments
from harness.linalg_checks import (det_sensitivity, check_close, check_tensor, column_dominant, forward_bound, linalg_lu,
                                   log_spaced, needs_pivoting, spd, wide, with_singular_values)
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "determinant_lu"
SIGNATURE = "determinant_lu(A, *, pivot=True, out=None)"
DTYPES = ["float64"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float64"]
CORE_KWARGS = ["pivot"]
DIFFICULTY = 3
PERF_MIX = "in place"  # pivot=False perf inputs stay column dominant
# Declared edge: conditioning and singularity the tier rule cannot see in the inputs.
TIERS = {"ill-conditioned-1e8": "edge", "singular-zero-column": "edge"}
DESCRIPTION = """
Determinant of each square matrix of a float64 tensor A of shape (*, n, n) (A may be
non-contiguous; the batch may be empty; n >= 1), computed through an LU decomposition: with
pivot=True (default) A = P L U by Gaussian elimination with partial pivoting and
det(A) = det(P) * prod(diag(U)), where det(P) = (-1)^(number of row interchanges) = +-1; with
pivot=False, A = L U without row interchanges and det(A) = prod(diag(U)) (only used on matrices that
need no pivoting). L has a unit diagonal, so it does not contribute. Return a new float64 tensor of
shape * (0-d for a single matrix); if `out` (a float64 tensor of that shape) is given, write the
result into it and return it. A singular matrix with an exactly zero column has determinant exactly
0. The result must be accurate to float64 rounding of a backward-stable method: relative error of
order n * 2^-53 * cond(A). The input must not be modified.
"""

F64 = torch.float64


def reference(A, *, pivot=True, out=None):
    P, L, U = linalg_lu(A, pivot=pivot)  # torch.linalg.lu (pivot=False computed off CUDA too)
    diag_U = torch.diagonal(U, dim1=-2, dim2=-1)
    det_U = torch.prod(diag_U, dim=-1)
    if pivot:
        sign_P, _ = torch.linalg.slogdet(P)
        det = sign_P * det_U
    else:
        det = det_U
    if out is not None:
        out.copy_(det)
        return out
    return det


# -- checking ----------------------------------------------------------------------------------------
# The determinant is unique; it is compared with the float64 determinant of the same input, allowing |det -
# det*| <= 16 * d * u64 * cond2(A) * |det*|, d = max(n, 16) (harness/linalg_checks.py FORWARD_C): a backward
# error dA ~ n u |A| changes det by tr(A^-1 dA) det, at most ~ n u cond(A) |det| to first order, and the n
# roundings of the product add ~ sqrt(n) u; measured worst cases: 0.0025 of the bound for LAPACK's LU, 0.014
# for the Triton solution. A lost or miscounted permutation sign errs by 2 |det*|, a missing pivot by the
# growth factor, float32 arithmetic by ~1e-7 relative: all >= 1e4 times the bound.
CHECK_NOTE = (
    "Compared with the float64 determinant allowed 16*max(n,16)*2^-53*cond(A)*|det A| (that product taken as sigma_1^2*sigma_2*...*sigma_{n-1}, finite for a singular input), since the result "
    "depends on the elimination order; a singular input must come out within that bound of 0."
)


def check(case, output, expected):
    A = bind_arguments(reference, case)["A"]
    msg = check_tensor(output, expected.shape, expected.dtype, "output")
    if msg or output.numel() == 0:
        return msg
    exact = torch.linalg.det(wide(A))
    n = A.shape[-1]
    # |det - det*| <= C d(n) u * cond2(A) |det*|, the product taken as det_sensitivity (finite when singular)
    return check_close(output.to(A.device), exact, forward_bound(n, F64, 1.0), "output",
                       "error of the determinant", dims=0, scale=det_sensitivity(A))


def cost(case: Case, output) -> Cost:
    A = case.args[0]
    n = A.shape[-1]
    return Cost(flops=output.numel() * (2.0 / 3.0 * n ** 3 + n), bytes=float(numel_bytes(A) + numel_bytes(output)))


def _scaled(g, *shape):
    """Gaussian matrices scaled by sqrt(e / n): E[log |det|] is then about 0."""
    return g.randn(*shape, dtype=F64).mul(math.sqrt(math.e / shape[-1]))


def cases(g: Inputs):
    yield Case("square-64", _scaled(g, 64, 64))
    yield Case("batched-5x16", _scaled(g, 5, 16, 16))
    yield Case("odd-37-batch", _scaled(g, 3, 37, 37), pivot=True)
    yield Case("tiny-1x1-batch", _scaled(g, 4, 1, 1))
    yield Case("tiny-2x2-batch", _scaled(g, 6, 2, 2))
    yield Case("small-3x3-batch", _scaled(g, 6, 3, 3))
    # a 1e-12 leading pivot: elimination without interchanges loses ~4 digits here
    yield Case("needs-pivoting-40", needs_pivoting(g, 40))
    # pivot=False on matrices that need no interchanges (column dominant, SPD)
    yield Case("no-pivot-dominant-33", column_dominant(g, 3, 33) / 33, pivot=False)
    yield Case("no-pivot-spd-40", spd(g, 40, low=0.5, high=2.0), pivot=False)
    yield Case("no-pivot-1x1", _scaled(g, 2, 1, 1), pivot=False)
    # edge: layouts, conditioning, singular, magnitudes, empty, out=
    yield Case("transposed-48", g.transposed(_scaled(g, 48, 48)))
    yield Case("strided-batch", g.strided(_scaled(g, 2, 21, 21)))
    # kappa = 1e8 (singular values 1e4 .. 1e-4, |det| = 1): the bound grows with kappa
    yield Case("ill-conditioned-1e8", with_singular_values(g, 1e4 * log_spaced(g, 2, k=24, cond=1e8), 24, 24))
    zero_col = _scaled(g, 20, 20)
    zero_col[:, 7] = 0.0
    yield Case("singular-zero-column", zero_col)
    yield Case("huge-scale", 1e30 * _scaled(g, 6, 6))
    yield Case("tiny-scale", 1e-30 * _scaled(g, 6, 6))
    yield Case("empty-batch", _scaled(g, 0, 4, 4))
    yield Case("out", _scaled(g, 3, 10, 10), out=g.strided(torch.empty(3, dtype=F64, device=g.device)))
    yield Case("out-no-pivot", column_dominant(g, 2, 12) / 12, pivot=False,
               out=torch.empty(2, dtype=F64, device=g.device))


def perf_cases(g: Inputs):
    yield Case("1024", _scaled(g, 1024, 1024))
    yield Case("batch-1024x64", _scaled(g, 1024, 64, 64))
    yield Case("batch-16384x16", _scaled(g, 16384, 16, 16))
    yield Case("no-pivot-batch-512x128", column_dominant(g, 512, 128) / 128, pivot=False)
