"""Determinant of float64 square matrices from their QR decomposition."""

import math

import torch

from harness.checks import bind_arguments
from harness.linalg_checks import (det_sensitivity, check_close, check_tensor, forward_bound, log_spaced, wide,
                                   with_singular_values)
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "determinant_via_qr"
SIGNATURE = "determinant_via_qr(A, *, mode='reduced', out=None)"
DTYPES = ["float64"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float64"]
CORE_KWARGS = ["mode"]
DIFFICULTY = 3
# Declared edge: conditioning and singularity the tier rule cannot see in the inputs.
TIERS = {"ill-conditioned-1e8": "edge", "singular-zero-column": "edge"}
DESCRIPTION = """
Determinant of each square matrix of a float64 tensor A of shape (*, n, n) (A may be
non-contiguous; the batch may be empty; n >= 1), computed through a QR decomposition A = Q R (Q
orthogonal, R upper triangular): det(A) = det(Q) * prod(diag(R)), where det(Q) = +-1. `mode` is
'reduced' (default) or 'complete', as in torch.linalg.qr; for a square A both give the same
factorization, so the result does not depend on it ('r', which returns no Q, is not allowed). With
Householder reflections Q = H_1 ... H_n and each reflection has determinant -1 (an identity
"reflection" +1), so det(Q) need not be formed as a matrix. Return a new float64 tensor of shape *
(0-d for a single matrix); if `out` (float64, that shape) is given, write the result into it and
return it. A singular matrix with an exactly zero column has determinant exactly 0. The result must
be accurate to float64 rounding of a backward-stable method: relative error of order
n * 2^-53 * cond(A). The input must not be modified.
"""

F64 = torch.float64


def reference(A, *, mode='reduced', out=None):
    Q, R = torch.linalg.qr(A, mode=mode)
    det_Q = torch.det(Q)
    diag_R = torch.diagonal(R, dim1=-2, dim2=-1)
    prod_diag_R = torch.prod(diag_R, dim=-1)
    determinant = det_Q * prod_diag_R
    if out is not None:
        out.copy_(determinant)
        return out
    return determinant


# -- checking ----------------------------------------------------------------------------------------
# The determinant is unique; it is compared with the float64 determinant of the same input, allowing |det -
# det*| <= 16 * d * u64 * cond2(A) * |det*|, d = max(n, 16) (harness/linalg_checks.py FORWARD_C): a backward
# error dA ~ n u |A| (Householder QR) changes det by tr(A^-1 dA) det, at most ~ n u cond(A) |det| to first
# order, and the n roundings of the product add ~ sqrt(n) u; measured worst cases: 0.006 of the bound for
# LAPACK's QR and for the Triton solution. A lost or miscounted sign of det(Q) errs by 2 |det*|, skipped
# reflector updates by O(|det*|), float32 arithmetic by ~1e-7 relative: all >= 1e4 times the bound.
CHECK_NOTE = (
    "Compared with the float64 determinant allowed 16*max(n,16)*2^-53*cond(A)*|det A| (that product taken as sigma_1^2*sigma_2*...*sigma_{n-1}, finite for a singular input), since the result "
    "depends on the order of the reflections; a singular input must come out within that bound of 0."
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
    yield Case("odd-37-batch-complete", _scaled(g, 3, 37, 37), mode="complete")
    yield Case("explicit-reduced-20", _scaled(g, 20, 20), mode="reduced")
    yield Case("tiny-1x1-batch", _scaled(g, 4, 1, 1))
    yield Case("tiny-2x2-batch-complete", _scaled(g, 6, 2, 2), mode="complete")
    yield Case("small-3x3-batch", _scaled(g, 6, 3, 3))
    # an upper triangular matrix: the reflectors of its zero subcolumns are identities (tau = 0), which
    # do not flip det(Q)'s sign
    yield Case("triangular-24", torch.triu(_scaled(g, 24, 24)) + torch.eye(24, dtype=F64, device=g.device))
    # edge: layouts, conditioning, singular, magnitudes, empty, out=
    yield Case("transposed-48", g.transposed(_scaled(g, 48, 48)))
    yield Case("strided-batch", g.strided(_scaled(g, 2, 21, 21)), mode="complete")
    # kappa = 1e8 (singular values 1e4 .. 1e-4, |det| = 1): the bound grows with kappa
    yield Case("ill-conditioned-1e8", with_singular_values(g, 1e4 * log_spaced(g, 2, k=24, cond=1e8), 24, 24))
    zero_col = _scaled(g, 20, 20)
    zero_col[:, 7] = 0.0
    yield Case("singular-zero-column", zero_col)
    yield Case("huge-scale", 1e30 * _scaled(g, 6, 6))
    yield Case("tiny-scale", 1e-30 * _scaled(g, 6, 6))
    yield Case("empty-batch", _scaled(g, 0, 4, 4))
    yield Case("out", _scaled(g, 3, 10, 10), out=g.strided(torch.empty(3, dtype=F64, device=g.device)))


def perf_cases(g: Inputs):
    yield Case("1024", _scaled(g, 1024, 1024))
    yield Case("2048-complete", _scaled(g, 2048, 2048), mode="complete")
    yield Case("batch-1024x64", _scaled(g, 1024, 64, 64))
    yield Case("batch-16384x16", _scaled(g, 16384, 16, 16))
