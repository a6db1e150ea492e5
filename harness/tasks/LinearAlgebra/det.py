"""Determinant of float32 square matrices (batched)."""

import math

import torch

from harness.checks import bind_arguments
from harness.linalg_checks import (det_sensitivity, check_close, check_tensor, forward_bound, log_spaced, needs_pivoting,
                                   wide, with_singular_values)
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "det"
SIGNATURE = "det(A)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = []
DIFFICULTY = 4
# Declared edge: conditioning and singularity the tier rule cannot see in the inputs.
TIERS = {"ill-conditioned-1e4": "edge", "singular-zero-column": "edge"}
DESCRIPTION = """
Determinant of each square matrix of a float32 tensor A of shape (*, n, n), like
torch.linalg.det(A). Return a new float32 tensor of shape * (a 0-d tensor for a single matrix). A
may be non-contiguous; n may be 0 (the determinant of a 0 x 0 matrix is 1) and the batch may be
empty. A singular matrix with an exactly zero column has determinant exactly 0. The usual method is
LU factorization with partial pivoting: det = (-1)^(number of row interchanges) * product of U's
diagonal. The result must be accurate to float32 rounding of a backward-stable method: relative
error of order n * 2^-24 * cond(A). The input must not be modified.
"""

F32 = torch.float32


def reference(A):
    return torch.linalg.det(A)


# -- checking ----------------------------------------------------------------------------------------
# The determinant is unique, but its float32 value depends on the elimination order, so it is compared with
# the float64 determinant: |det - det*| <= 16 * d * u32 * cond2(A) * |det*|, d = max(n, 16)
# (harness/linalg_checks.py FORWARD_C). A backward error dA of a stable LU (|dA| ~ n u |A|) changes det by
# tr(A^-1 dA) det, at most ~ n u cond(A) |det| to first order, and the n roundings of the diagonal product
# add ~ sqrt(n) u; measured worst cases: 0.002 of the bound for both PyTorch's float32 LU and the Triton
# solution. A lost or miscounted permutation sign errs by 2 |det*| (>= 1e4 times the bound here), no
# pivoting on the "needs-pivoting" input by ~300 times it.
CHECK_NOTE = (
    "Compared with the float64 determinant allowed 16*max(n,16)*2^-24*cond(A)*|det A| (that product taken as sigma_1^2*sigma_2*...*sigma_{n-1}, finite for a singular input), since the float32 "
    "value depends on the elimination order; a singular input must come out within that bound of 0."
)


def check(case, output, expected):
    A = bind_arguments(reference, case)["A"]
    msg = check_tensor(output, expected.shape, expected.dtype, "output")
    if msg or output.numel() == 0:
        return msg
    exact = torch.linalg.det(wide(A))
    n = A.shape[-1]
    # |det - det*| <= C d(n) u * cond2(A) |det*|, the product taken as det_sensitivity (finite when singular)
    return check_close(output.to(A.device), exact, forward_bound(n, F32, 1.0), "output",
                       "error of the determinant", dims=0, scale=det_sensitivity(A))


def cost(case: Case, output) -> Cost:
    A = case.args[0]
    n = A.shape[-1]
    batch = output.numel()
    # LU factorization (2/3 n^3 flops) and the diagonal product
    return Cost(flops=batch * (2.0 / 3.0 * n ** 3 + n), bytes=float(numel_bytes(A) + numel_bytes(output)))


def _scaled(g, *shape):
    """Gaussian matrices scaled by sqrt(e / n), which makes E[log |det|] about 0 (no under/overflow)."""
    n = shape[-1]
    return g.randn(*shape, dtype=torch.float64).mul(math.sqrt(math.e / n)).to(F32)


def _permutation_matrix(g, n, odd):
    p = g.permutation(n)
    # a permutation's parity: n minus its number of cycles
    seen, cycles = set(), 0
    for i in range(n):
        if i not in seen:
            cycles += 1
            j = i
            while j not in seen:
                seen.add(j)
                j = int(p[j])
    if (n - cycles) % 2 != int(odd):
        p[[0, 1]] = p[[1, 0]]
    return torch.eye(n, dtype=F32, device=g.device)[p]


def cases(g: Inputs):
    yield Case("square-64", _scaled(g, 64, 64))
    yield Case("batched-5x16", _scaled(g, 5, 16, 16))
    yield Case("odd-37-batch", _scaled(g, 3, 37, 37))
    yield Case("tiny-1x1-batch", _scaled(g, 4, 1, 1))
    yield Case("tiny-2x2-batch", _scaled(g, 6, 2, 2))
    yield Case("small-3x3-batch", _scaled(g, 6, 3, 3))
    # a tiny leading pivot (1e-6 relative): elimination without interchanges loses ~all digits
    yield Case("needs-pivoting-40", needs_pivoting(g, 40, tiny=1e-6).to(F32))
    # permutation matrices: det exactly -1 / +1, decided by the interchanges' parity alone
    yield Case("odd-permutation-9", _permutation_matrix(g, 9, odd=True))
    yield Case("even-permutation-12", _permutation_matrix(g, 12, odd=False))
    # edge: layouts, conditioning, singular, magnitudes, empty
    yield Case("transposed-48", g.transposed(_scaled(g, 48, 48)))
    yield Case("strided-batch", g.strided(_scaled(g, 2, 21, 21)))
    # kappa = 1e4 (singular values 1e2 .. 1e-2, so |det| = 1): the bound grows with kappa
    yield Case("ill-conditioned-1e4",
               with_singular_values(g, 100.0 * log_spaced(g, 2, k=24, cond=1e4), 24, 24).to(F32))
    zero_col = _scaled(g, 20, 20)
    zero_col[:, 7] = 0.0
    yield Case("singular-zero-column", zero_col)
    yield Case("large-magnitude", 2e6 * _scaled(g, 5, 5))
    yield Case("empty-0x0", torch.empty(3, 0, 0, dtype=F32, device=g.device))
    yield Case("empty-batch", _scaled(g, 0, 4, 4))


def perf_cases(g: Inputs):
    yield Case("2048", _scaled(g, 2048, 2048))
    yield Case("4096", _scaled(g, 4096, 4096))
    yield Case("batch-1024x64", _scaled(g, 1024, 64, 64))
    yield Case("batch-16384x16", _scaled(g, 16384, 16, 16))
